// Algorithm 2 of Halm & Posa (digest §5.3): approximate the set of post-impact velocities by
// running Algorithm 1 with random caps many times. Samples are independent, so they run on
// several threads; each depends only on (seed, sample index), so the set is the same, in the same
// order, whatever the thread count.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "carom/core/routh/caps.h"
#include "carom/core/routh/problem.h"
#include "carom/core/routh/sim.h"

namespace carom::core::routh {

struct SampleSetOptions {
  /// M of Algorithm 2, the number of Sim runs. Default 2^14, the paper's smallest set (Tables 4–8).
  int samples = 1 << 14;
  CapDistribution distribution = CapDistribution::kUniform;
  std::uint64_t seed = 0;  ///< caps and covering vectors derive from it (seeding.h)
  ///< Worker threads (std::thread), ≥ 1. The result does not depend on it.
  int threads = 1;
  /// ε of Algorithm 2 (velocity units, ≥ 0): after Sim, one more step with equal caps ε/(3ψ)
  /// finishes nearly terminated runs. Default 0 skips it, as the authors' code does (digest §10).
  double finishingEpsilon = 0.0;
  SimOptions sim;  ///< N = sim.maxSteps
};

struct ImpactSet {
  std::vector<ImpactOutcome> outcomes;  ///< one per sample, in sample order, terminated or not

  /// Ṽ \ C(q): the velocities of the terminated samples, the set's points (digest §5.3).
  std::vector<Eigen::VectorXd> postImpactVelocities() const;
  std::size_t terminatedCount() const;
  double meanSteps() const;  // LCPs per sample (Theorem 8; Table 3 "LCPs/sample")
};

/// Runs Algorithm 2 from v⁻ with step size h (impulse). Throws carom::Error naming the parameter
/// on bad input (velocity, stepSize, samples, threads, finishingEpsilon, sim options).
ImpactSet sampleImpactSet(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                          double stepSize, const SampleSetOptions& options = {});

}  // namespace carom::core::routh
