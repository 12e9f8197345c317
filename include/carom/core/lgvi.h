// The Lie group variational integrator of a free rigid body: the discrete Hamiltonian map F[h] of
// Tran & Leok (5.9), with a uniform gravity vector and a constant external force and torque.
#pragma once

#include "carom/core/body.h"
#include "carom/core/types.h"

namespace carom::core {

/// Chart in which Newton's method solves the implicit rotation equation (5.9c) (Tran & Leok App.
/// D). Both converge to the same F; the chart only changes the iteration.
enum class RotationChart {
  kCayley,       ///< F = cay(f), (D.5)–(D.8): rational, no trigonometry; the default
  kExponential,  ///< F = exp(S(f)), (D.2)–(D.4)
};

struct NewtonSettings {
  RotationChart chart = RotationChart::kCayley;
  /// Stop when the Newton update ‖Δf‖ ≤ tolerance · max(1, ‖f‖) (f is dimensionless: a rotation
  /// vector or Cayley vector), or when the next update, estimated from the last two as
  /// ‖Δf_k‖³/‖Δf_{k−1}‖² (quadratic convergence), would be within a tenth of that. Default 1e-15,
  /// the paper's ε_tol (Tran & Leok §6.1).
  double tolerance = 1e-15;
  /// Iteration cap; reaching it is reported as SolveStatus::kIterationLimit, never accepted.
  /// Default 50: at h|Ω| ≈ 0.01–1 the solve takes 2–6 iterations.
  int maxIterations = 50;
  /// Whether solveRotation fills RotationSolution::residual (left 0 when off): two 3×3 products, a
  /// fifth of a two-iteration solve. Default on; a caller that reads only the status may turn it
  /// off (the variational step's flows, most of its probes' cost).
  bool residual = true;
};

enum class SolveStatus {
  kConverged,
  kIterationLimit,  ///< the cap was hit before the stopping rule held
  kSingular,        ///< the Newton Jacobian was singular or produced a non-finite iterate
};
const char* toString(SolveStatus status);

struct RotationSolution {
  Mat3 F = Mat3::Identity();  ///< the relative rotation R_kᵀR_{k+1}
  int iterations = 0;         ///< Newton's; 0 for an isotropic body, solved in closed form
  double residual = 0.0;  ///< max-norm of F J_d − J_d Fᵀ − S(g) (NewtonSettings::residual)
  SolveStatus status = SolveStatus::kConverged;
};

/// Solves S(g) = F J_d − J_d Fᵀ for F ∈ SO(3) near I (Tran & Leok (D.1)); g in kg m² (an angular
/// impulse times a time, hΠ for the plain step). Throws carom::Error for a non-finite g or bad
/// settings; a non-converged solve is reported in `status`.
RotationSolution solveRotation(const MassProperties& body, const Vec3& g,
                               const NewtonSettings& settings = {});

/// The linearisation of (D.1) at its solution F: a change δg of the impulse turns F by δF = F S(ξ)
/// (body frame at R_{k+1} = R_k F) with ξ = W δg,
///   W = [(tr(F J_d) I − F J_d) F]⁻¹,
/// from S(ζ)A + AᵀS(ζ) = S((tr A · I − A)ζ) with A = F J_d, ζ = Fξ; at F = I, W = J⁻¹ (4.1). The
/// constrained integrator (joints/jointed_flow.h) takes its Newton Jacobian from it.
Mat3 rotationSensitivity(const MassProperties& body, const Mat3& F);

/// What acts on the body, held constant over a step.
struct ExternalLoad {
  Vec3 gravity = Vec3::Zero();  ///< uniform gravitational acceleration, world frame (m/s²)
  Vec3 force = Vec3::Zero();    ///< applied force at the centre of mass, world frame (N)
  Vec3 torque = Vec3::Zero();   ///< applied torque, world frame (N m)
};

struct FlowResult {
  BodyState state;  ///< the advanced state, or the input state unchanged when the solve failed
  RotationSolution rotation;  ///< the last sub-step's (flowInSubsteps), or the failed one's
  int substeps = 1;           ///< equal sub-steps the step was taken in (flowInSubsteps)
  bool ok() const { return rotation.status == SolveStatus::kConverged; }
};

/// One step of length h (s; any sign, so that the map can be run backwards) of F̃_{L_d}[h]:
///   (5.9a,b)  x⁺ = x + hγ/m + ½h² f/m,  γ⁺ = γ + h f        with f = m g + force (exact for
///   constant f) (5.9c)    h S(Π) + ½h² S(M) = F J_d − J_d Fᵀ,            M = Rᵀτ (body-frame
///   torque) (5.9d,e)  Π⁺ = Fᵀ(Π + ½hM) + ½h R⁺ᵀτ,  R⁺ = R F
/// The torque terms are the discrete Lagrange–d'Alembert forcing of Lee, Leok & McClamroch; with
/// τ = 0 this is exactly (5.9). Spatial angular momentum changes by exactly hτ, and the map is
/// time-reversible: flow(flow(s, h), −h) = s.
FlowResult flow(const MassProperties& body, const BodyState& state, double h,
                const ExternalLoad& load, const NewtonSettings& settings = {});

/// The most equal sub-steps flowInSubsteps takes: a body turning by up to 64 quarter turns per
/// step, 3840 rad/s at 60 Hz.
inline constexpr int kMaxFlowSubsteps = 64;

/// F̃[h/n]ⁿ: the step taken as n equal steps of flow, n the first of fewestSubsteps, twice that, …,
/// maxSubsteps for which every rotation solve converges; n = 1, exactly flow, wherever flow
/// succeeds and fewestSubsteps is 1. A path of flows from one state, each over its own h, is
/// continuous in h only with a fixed n: fewestSubsteps gives it the n its longest flow needed.
/// (5.9c) has no solution once a step would turn the body by more than about a quarter turn: for J
/// = jI, j sin θ = |g| needs |g| = h|Π| ≤ j, that is h|ω| ≤ 1, so at 60 Hz a ball spinning faster
/// than 60 rad/s (a 5 cm ball rolling at 3 m/s) has no step of its own. Each sub-step is the same
/// variational map, so the composition keeps what one step keeps: it is symplectic, changes the
/// spatial angular momentum by exactly hτ and is time-reversible. Not ok, with the state unchanged
/// and `rotation` the failed solve, when even maxSubsteps sub-steps do not solve.
/// Throws carom::Error unless 1 ≤ fewestSubsteps ≤ maxSubsteps.
FlowResult flowInSubsteps(const MassProperties& body, const BodyState& state, double h,
                          const ExternalLoad& load, int maxSubsteps = kMaxFlowSubsteps,
                          const NewtonSettings& settings = {}, int fewestSubsteps = 1);

}  // namespace carom::core
