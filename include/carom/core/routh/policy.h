// Deterministic choices of one post-impact velocity for an engine step (digest §9.3). The
// Halm–Posa model predicts a set; an engine needs one answer, and each policy below picks one with
// the same guarantees: the result has no approaching contact and no more kinetic energy than v⁻.
//
// Stages: (1) run Algorithm 1 with the policy's caps; (2) if a contact still approaches (step
// limit, failed step), finish with one Anitescu–Potra step from the last dissipative iterate;
// (3) report. Only when that last step fails too is the result not terminated — then the status
// and message say so and v is the last iterate, which still has not gained energy.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "carom/core/routh/caps.h"
#include "carom/core/routh/problem.h"
#include "carom/core/routh/sim.h"

namespace carom::core::routh {

enum class PolicyKind {
  kSimultaneous,  ///< Anitescu–Potra: one step, all caps +∞ (§9.3 policy A)
  kEqualRate,     ///< equal caps h·1 every step (policy B): symmetric, deterministic
  kSequential,    ///< one contact at a time in `order`, cycled (policy D)
  kSampled,       ///< sample 0 of the seeded set (policy C): a reproducible draw from the set
};

struct ImpactPolicy {
  PolicyKind kind = PolicyKind::kSimultaneous;
  double stepSize = 0.0;            ///< h (impulse) for kEqualRate and kSampled; > 0 there
  std::vector<Eigen::Index> order;  ///< kSequential: contact indices, cycled
  std::uint64_t seed = 0;           ///< kSampled caps; every kind's covering vectors
  CapDistribution distribution = CapDistribution::kUniform;  ///< kSampled
  SimOptions sim;
};

struct PolicyResult {
  ImpactOutcome outcome;  ///< v⁺ and the total impulses, the completion step included
  ///< True when stage (2) ran: the policy's own steps left a contact approaching (message says
  ///< why).
  bool completedSimultaneously = false;
  std::string message;
};

/// Resolves the impact at v⁻ by `policy`. Throws carom::Error naming the parameter on bad input
/// (velocity, stepSize, order, sim options); solver failures are in the result.
PolicyResult resolveImpact(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                           const ImpactPolicy& policy);

}  // namespace carom::core::routh
