#include "carom/core/routh/caps.h"

#include <boost/random/sobol.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "carom/core/routh/seeding.h"
#include "carom/error.h"

namespace carom::core::routh {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

void requireStepSize(double h) {
  if (!(h > 0.0) || !std::isfinite(h)) throw Error("stepSize must be positive and finite");
}

// A double in (0, 1] from 64 random bits: the top 53 bits, shifted off zero (Algorithm 1 wants
// nonzero caps so that every step advances the impact, Lemma 13).
double unitInterval(std::uint64_t bits) {
  return static_cast<double>((bits >> 11) + 1) * 0x1.0p-53;
}

}  // namespace

struct CapSampler::SobolSequence {
  boost::random::sobol engine;
};

Eigen::VectorXd UnboundedCaps::caps(int, const Eigen::VectorXd& normalVelocity) {
  return Eigen::VectorXd::Constant(normalVelocity.size(), kInfinity);
}

EqualCaps::EqualCaps(double stepSize) : h_(stepSize) {
  requireStepSize(stepSize);
}

Eigen::VectorXd EqualCaps::caps(int, const Eigen::VectorXd& normalVelocity) {
  return Eigen::VectorXd::Constant(normalVelocity.size(), h_);
}

SequentialCaps::SequentialCaps(std::vector<Eigen::Index> order, Eigen::Index contacts,
                               double tolerance)
    : order_(std::move(order)), contacts_(contacts), tolerance_(tolerance) {
  if (order_.empty()) throw Error("order must name at least one contact");
  for (const Eigen::Index i : order_)
    if (i < 0 || i >= contacts)
      throw Error("order names contact " + std::to_string(i) + " of " + std::to_string(contacts));
  if (!(tolerance >= 0.0)) throw Error("tolerance must be ≥ 0");
}

Eigen::VectorXd SequentialCaps::caps(int, const Eigen::VectorXd& normalVelocity) {
  Eigen::VectorXd caps = Eigen::VectorXd::Zero(contacts_);
  // One pass over the order at most: the first approaching contact from next_ on gets the step.
  for (std::size_t tried = 0; tried < order_.size(); ++tried) {
    const Eigen::Index contact = order_[next_];
    next_ = (next_ + 1) % order_.size();
    if (normalVelocity(contact) < -tolerance_) {
      caps(contact) = kInfinity;
      break;
    }
  }
  return caps;
}

CapSampler::CapSampler(CapDistribution distribution, double stepSize, Eigen::Index contacts,
                       int maxSteps, std::uint64_t seed)
    : distribution_(distribution), h_(stepSize), m_(contacts), maxSteps_(maxSteps), seed_(seed) {
  requireStepSize(stepSize);
  if (contacts < 1) throw Error("contacts must be at least 1");
  if (maxSteps < 1) throw Error("maxSteps must be at least 1");
  if (distribution != CapDistribution::kSobol) return;
  const Eigen::Index dimension = contacts * maxSteps;
  if (dimension > static_cast<Eigen::Index>(boost::random::default_sobol_table::max_dimension)) {
    throw Error("Sobol caps need contacts × maxSteps ≤ " +
                std::to_string(boost::random::default_sobol_table::max_dimension) + ", got " +
                std::to_string(dimension));
  }
  sobol_ = std::make_shared<const SobolSequence>(
      SobolSequence{boost::random::sobol(static_cast<std::size_t>(dimension))});
  shift_.resize(dimension);
  for (Eigen::Index j = 0; j < dimension; ++j) {
    shift_(j) = unitInterval(mixSeed(seed, static_cast<std::uint64_t>(j)));
  }
}

Eigen::VectorXd CapSampler::caps(std::uint64_t sample, int step) const {
  if (step < 0 || step >= maxSteps_) {
    throw Error("step " + std::to_string(step) + " outside [0, maxSteps)");
  }
  Eigen::VectorXd u(m_);
  if (distribution_ == CapDistribution::kUniform) {
    const std::uint64_t stream = mixSeed(mixSeed(seed_, sample), static_cast<std::uint64_t>(step));
    for (Eigen::Index i = 0; i < m_; ++i)
      u(i) = unitInterval(mixSeed(stream, static_cast<std::uint64_t>(i)));
  } else {
    // Point sample + 1 of the sequence (Boost's engine skips the all-zero point 0), from a copy
    // of the engine so that this stays a pure function; this step's m coordinates, shifted.
    boost::random::sobol engine = sobol_->engine;
    const auto dimension = static_cast<std::uint64_t>(engine.dimension());
    engine.discard(sample * dimension + static_cast<std::uint64_t>(step * m_));
    for (Eigen::Index i = 0; i < m_; ++i) {
      const double coordinate = static_cast<double>(engine() >> 11) * 0x1.0p-53;  // [0, 1)
      const double x = std::fmod(coordinate + shift_(step * m_ + i), 1.0);
      u(i) = x > 0.0 ? x : 1.0;  // (0, 1]: a point exactly on 0 wraps to 1
    }
  }
  return h_ * u;
}

}  // namespace carom::core::routh
