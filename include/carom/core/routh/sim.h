// Algorithm 1 (Sim) of Halm & Posa (digest §5.1): integrate one impact in impulse space by
// repeated step LCPs (75) with caps from a CapSchedule, until no active contact approaches.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>

#include "carom/core/routh/caps.h"
#include "carom/core/routh/problem.h"
#include "carom/core/routh/step.h"

namespace carom::core::routh {

struct SimOptions {
  /// N: the most step LCPs one impact may take. Default 10, the paper's setting for the rocking
  /// block and the disks (Tables 4, 8); Theorem 8 bounds the expected count, not the maximum.
  int maxSteps = 10;
  /// A contact counts as approaching while J_n,i v < −terminationTolerance (units of J_n v: m/s for
  /// the examples). Default 1e-8, the authors' code's test (digest §5.5).
  double terminationTolerance = 1e-8;
  StepOptions step;
};

enum class SimStatus {
  kTerminated,  ///< v ∉ C(q): no contact approaches
  kStepLimit,   ///< maxSteps steps taken and some contact still approaches
  kStepFailed,  ///< a step LCP failed after its retries (message says why)
};
const char* toString(SimStatus status);

struct ImpactOutcome {
  Eigen::VectorXd v;         ///< v⁺ when terminated; otherwise the last (dissipative) iterate
  Eigen::VectorXd impulseN;  ///< Λ_n = Σ_steps λ_n, per contact (impulse)
  Eigen::VectorXd impulseD;  ///< Λ_D = Σ_steps λ_D, k per contact
  int steps = 0;             ///< step LCPs solved
  SimStatus status = SimStatus::kTerminated;
  std::string message;  ///< why not terminated; empty when terminated

  bool terminated() const { return status == SimStatus::kTerminated; }
};

/// Whether some contact approaches: min_i J_n,i v < −tolerance (v ∈ C(q), digest §1.2).
bool approaching(const ImpactProblem& problem, const Eigen::VectorXd& v, double tolerance);

/// Runs Algorithm 1 from v⁻ (the code's loop: at most maxSteps LCPs, digest §10). `seed` seeds the
/// steps' covering vectors. Throws carom::Error naming the parameter on bad input (velocity,
/// maxSteps, terminationTolerance, caps from the schedule).
ImpactOutcome simulate(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                       CapSchedule& schedule, std::uint64_t seed, const SimOptions& options = {});

}  // namespace carom::core::routh
