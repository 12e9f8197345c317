// The constrained Lie group variational integrator: the LGVI of each body (lgvi.h, Tran & Leok
// (5.9)) with holonomic joint constraints g(q) = 0 (constraint.h), in the RATTLE form of the
// constrained discrete Hamiltonian map (Marsden & West, Acta Numerica 2001, constrained systems;
// Hairer, Lubich & Wanner, Geometric Numerical Integration, ch. VII, RATTLE), here on each body's
// SE(3). For the generalised momentum p = (γ_i, Π_i) and G = ∇g (constraint.h), numbered (1)–(5)
// for the code's comments:
//   (1)  p̃_k = p_k + G(q_k)ᵀΛ                       start impulses Λ = hλ (SHAKE forces at q_k)
//   (2)  (q_{k+1}, p̂_{k+1}) = F̃[h](q_k, p̃_k)         each body's free step (5.9), one per body
//   (3)  g(q_{k+1}) = 0                              solved for Λ by Newton's method
//   (4)  p_{k+1} = p̂_{k+1} + G(q_{k+1})ᵀN            end impulses N = hμ, solved from
//   (5)  G(q_{k+1}) M⁻¹ p_{k+1} = 0                   the hidden (velocity) constraint
// (1)–(3) are −D₁L_d(q_k, q_{k+1}) = p_k + hG(q_k)ᵀλ, and (2), (4) p_{k+1} = D₂L_d + hG(q_{k+1})ᵀμ:
// the map is symplectic on the constraint manifold's cotangent bundle, and, as L_d of (5.2) is
// symmetric (L_d^{−h}(q_{k+1}, q_k) = −L_d^h(q_k, q_{k+1})), time-reversible: stepping back by −h
// takes Λ' = N and N' = Λ. Internal joint forces conserve total linear and angular momentum.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "carom/core/joints/system.h"
#include "carom/core/lgvi.h"

namespace carom::core::joints {

struct JointSettings {
  /// Newton's method on (3) stops once ‖g(q_{k+1})‖∞ ≤ tolerance · max(1, max_i |x_i| / 1 m), in m
  /// for the point and slider rows and rad for the orientation rows: g's round-off grows with the
  /// size of the coordinates it subtracts. Default 1e-14, 45 ulp of 1 m: the convergence is
  /// quadratic, and a looser tolerance would accept the iterate before round-off (1e-12 stops at
  /// up to 1e-12 m on a 1 m pendulum, where one more iteration gives 1e-17).
  double tolerance = 1e-14;
  /// Newton iterations on (3); reaching the cap is reported as SolveStatus::kIterationLimit.
  /// Default 20: at h|ω| ≈ 0.01–0.1 the solve takes 2–4.
  int maxIterations = 20;
  /// Each body's rotation solve (5.9c), nested inside every Newton iteration.
  NewtonSettings rotation;
};

struct JointedFlowResult {
  /// The advanced states, or the input states unchanged when the step failed.
  std::vector<BodyState> states;
  /// Λ = hλ, the rows' impulses at the step's start (N s for the point and slider rows, N m s for
  /// the orientation rows); zero when the step failed.
  Eigen::VectorXd startImpulse;
  /// N = hμ, the rows' impulses of the projection (4)–(5) at the step's end.
  Eigen::VectorXd endImpulse;
  int iterations = 0;     ///< Newton's on (3)
  double residual = 0.0;  ///< ‖g(q_{k+1})‖∞ at the last iterate (m, rad)
  /// kConverged; kIterationLimit (Newton on (3)); kSingular when the Newton or the projection
  /// solve is not finite (redundant joint rows, as a closed loop has, are solved in least
  /// squares); or the status of a body's rotation solve (5.9c) that failed.
  SolveStatus status = SolveStatus::kConverged;
  bool ok() const { return status == SolveStatus::kConverged; }
};

/// One step (1)–(5) of length h (s, any sign: flow(flow(s, h), −h) = s). `loads` holds one
/// ExternalLoad per body (gravity and constant force and torque, as lgvi.h's flow takes them).
/// A start configuration off the constraints is brought onto them: (3) holds whatever g(q_k) is,
/// except for h = 0, which returns the states as they are (no motion reaches them in no time).
/// Throws carom::Error for a state or load count other than the body count, a state validateState
/// refuses (naming the body), a non-finite h or load, or bad settings; a step that does not
/// converge is reported in `status`, never accepted.
JointedFlowResult flow(const JointedSystem& system, const std::vector<BodyState>& states, double h,
                       const std::vector<ExternalLoad>& loads, const JointSettings& settings = {});

/// The projection (4)–(5) alone, at the states' configuration: the momenta closest in M⁻¹ to the
/// given ones that move along the constraints (G M⁻¹ p = 0). Makes a start state consistent.
/// `startImpulse` is empty and `iterations` 0; status kSingular (states unchanged) for redundant
/// rows. Throws carom::Error as flow does.
JointedFlowResult projectMomenta(const JointedSystem& system, const std::vector<BodyState>& states);

}  // namespace carom::core::joints
