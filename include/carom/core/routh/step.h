// One step of Halm & Posa's impulse-space integration: the LCP (75) with per-contact caps λ_max on
// the normal impulse increment (digest §4.2, transposes restored), solved by Lemke.
//
//   z = [β; λ_n; λ_D; γ],  0 ≤ z ⊥ W_q z + w_q(v, λ_max) ≥ 0,  w_q = [λ_max; J_n v; J_D v; 0],
//   v' = v + M⁻¹(J_nᵀ λ_n + J_Dᵀ λ_D)                                               (75c)
//
// A cap of +∞ removes that contact's β and cap row: with every cap infinite the step is
// Anitescu–Potra's simultaneous inelastic impact LCP (31). Every step dissipates (Theorem 7).
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>

#include "carom/core/lcp/result.h"
#include "carom/core/routh/problem.h"

namespace carom::core::routh {

struct StepOptions {
  /// First attempt's covering vector: seeded random (default) or plain (plainCoveringAboveZero).
  /// Random by default because a fixed one returns the same solution of a non-unique LCP every time
  /// and collapses the sampled set (digest §8: RAMone, compass gait AP#2).
  bool randomCovering = true;
  /// The plain covering vector's entry on the rows where w_q ≥ 0; it is 1 on the others
  /// (dimensionless). Default 1: d = 1, plain Lemke. Smaller, z0 raises mostly the rows that need
  /// it: at 1e-3 Lemke takes about a fifth fewer pivots on the bench's step LCPs, and a non-unique
  /// step takes another of its solutions. Must be finite and > 0 (Lemke's guarantees need d > 0).
  double plainCoveringAboveZero = 1.0;
  /// Attempts before a step is reported failed; each retry draws a new seeded covering vector
  /// (digest §8: double-precision Lemke occasionally ray-terminates on degenerate problems and a
  /// perturbed covering vector usually recovers). Default 4; must be ≥ 1.
  int maxAttempts = 4;
  /// Lemke's pivot budget per attempt: this many per unknown of the step LCP, plus 100. Default
  /// 5: a step LCP that Lemke solves takes under 2 pivots per unknown (1.64 at most on the
  /// benchmark scenes), and an attempt past that is cycling on a degenerate problem, which the
  /// next covering vector usually solves. Must be ≥ 1.
  int pivotsPerUnknown = 5;
  /// Relative LCP residual bound (see lcp::residualBoundFor). Default 1e-9 (digest §7 item 1).
  double residualTolerance = 1e-9;
  /// A step may not raise the kinetic energy by more than this fraction of K(v) (dimensionless).
  /// Default 1e-10: Theorem 7 says it never does; this is round-off for a solved LCP.
  double energyTolerance = 1e-10;
};

struct StepResult {
  Eigen::VectorXd v;        ///< v' (75c), or the input v when the step failed
  Eigen::VectorXd lambdaN;  ///< normal impulse increments, per contact (m)
  Eigen::VectorXd lambdaD;  ///< friction impulse increments, k per contact (km)
  lcp::LcpStatus status = lcp::LcpStatus::kSolved;  ///< of the last attempt
  std::string message;  ///< why the step failed, for every attempt; empty when solved
  int attempts = 0;
  double residual = 0.0;  ///< the accepted LCP's natural residual

  bool solved() const { return status == lcp::LcpStatus::kSolved; }
};

/// Solves (75) at v with caps λ_max (m entries in [0, +∞], units of impulse). `seed` picks the
/// covering vectors. Throws carom::Error naming `velocity` or `caps` on bad input; solver failures
/// after options.maxAttempts attempts are returned in the status, never thrown or hidden.
StepResult solveStep(const ImpactProblem& problem, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& caps, std::uint64_t seed,
                     const StepOptions& options = {});
/// The same, written to `step`, whose vectors keep their storage where their size is unchanged:
/// for a caller that solves an impact's steps in turn (simulate). `v` must not be `step.v`.
void solveStep(const ImpactProblem& problem, const Eigen::VectorXd& v, const Eigen::VectorXd& caps,
               std::uint64_t seed, const StepOptions& options, StepResult& step);

}  // namespace carom::core::routh
