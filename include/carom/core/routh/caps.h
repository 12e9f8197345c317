// Where Algorithm 1 gets each step's caps λ_max (digest §5.1): drawn at random for sampling, or
// chosen so that the discrete impact reproduces a classical law (§5.1, "orderings come out as
// special cases"): all caps +∞ → Anitescu–Potra in one step; +∞ on one contact and 0 on the others,
// cycling → a sequential (Ivanov-style) impact; equal caps → the "equal-rate" process.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <vector>

namespace carom::core::routh {

/// A cap source for one impact. caps() is called once per step, in order, with the current contact
/// normal velocities J_n v; it returns m caps in [0, +∞] (units of impulse).
class CapSchedule {
 public:
  virtual ~CapSchedule() = default;
  virtual Eigen::VectorXd caps(int step, const Eigen::VectorXd& normalVelocity) = 0;
};

/// +∞ every step: one step is Anitescu–Potra's simultaneous impact LCP (31).
class UnboundedCaps final : public CapSchedule {
 public:
  Eigen::VectorXd caps(int step, const Eigen::VectorXd& normalVelocity) override;
};

/// h·1 every step: all contacts accrue normal impulse at equal rates (digest §9.3 policy B).
class EqualCaps final : public CapSchedule {
 public:
  explicit EqualCaps(double stepSize);  ///< h > 0, units of impulse
  Eigen::VectorXd caps(int step, const Eigen::VectorXd& normalVelocity) override;

 private:
  double h_;
};

/// A sequential impact in a stated order, cycled (A, B, A, B, … for order {A, B}): each step
/// resolves the current contact alone (cap +∞ there, 0 elsewhere: Lemma 8 keeps the others idle);
/// contacts that are not approaching (J_n,i v ≥ −tolerance) are skipped, as the paper's code skips
/// a sequence whose first contact does not collide (digest §5.5).
class SequentialCaps final : public CapSchedule {
 public:
  /// order: contact indices (each < contacts, at least one); tolerance in velocity units ≥ 0.
  SequentialCaps(std::vector<Eigen::Index> order, Eigen::Index contacts, double tolerance);
  Eigen::VectorXd caps(int step, const Eigen::VectorXd& normalVelocity) override;

 private:
  std::vector<Eigen::Index> order_;
  Eigen::Index contacts_;
  double tolerance_;
  std::size_t next_ = 0;  ///< position in order_ of the next contact to try
};

/// The distribution p of Algorithm 1's u ∈ (0, 1]^m.
enum class CapDistribution {
  /// i.i.d. uniform, as the paper's text (§5.1).
  kUniform,
  /// Sobol's low-discrepancy sequence in dimension m·N per sample, as the authors' code uses
  /// (digest §5.5): sample n is point n + 1 of the sequence (Joe & Kuo's direction numbers, through
  /// Boost), its coordinates step·m … step·m + m − 1 are the step's caps, and a seeded
  /// Cranley–Patterson shift makes it a randomized QMC set whose seed changes the points.
  /// Needs m·N ≤ 3667, the dimensions of the table.
  kSobol,
};

/// Caps h·u for every (sample, step) of a seeded sample set: a pure function of (seed, sample,
/// step), so samples can be computed in any order on any thread with identical results.
class CapSampler {
 public:
  /// h > 0 (impulse), contacts ≥ 1, maxSteps ≥ 1 (N of Algorithm 1: the low-discrepancy dimension
  /// is contacts·maxSteps, at most 3667 for kSobol).
  CapSampler(CapDistribution distribution, double stepSize, Eigen::Index contacts, int maxSteps,
             std::uint64_t seed);
  /// The caps of step `step` (0 ≤ step < maxSteps) of sample `sample`.
  Eigen::VectorXd caps(std::uint64_t sample, int step) const;

 private:
  CapDistribution distribution_;
  double h_;
  Eigen::Index m_;
  int maxSteps_;
  std::uint64_t seed_;
  struct SobolSequence;                         ///< Boost's engine, kept out of this header
  std::shared_ptr<const SobolSequence> sobol_;  ///< kSobol: the engine at point 0, copied per call
  Eigen::VectorXd shift_;                       ///< kSobol: the Cranley–Patterson shift
};

/// One sample's schedule: CapSampler::caps(sample, step).
class SampledCaps final : public CapSchedule {
 public:
  SampledCaps(const CapSampler& sampler, std::uint64_t sample)
      : sampler_(sampler), sample_(sample) {}
  Eigen::VectorXd caps(int step, const Eigen::VectorXd&) override {
    return sampler_.caps(sample_, step);
  }

 private:
  const CapSampler& sampler_;
  std::uint64_t sample_;
};

}  // namespace carom::core::routh
