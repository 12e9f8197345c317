// Frictional single-point impact with Stronge's energetic restitution (Jia & Wang, "Analysis and
// computation of two body impact in three dimensions"; digest design/digests/jia_wang.md).
//
// The normal impulse I_z replaces time. While the contact slides, the sliding velocity γ follows
// the hodograph γ' = −μBγ̂ + d (eq. 31), integrated with an adaptive Dormand–Prince 5(4) pair
// (not the paper's explicit Euler) together with the energy the normal force has absorbed,
// E' = −v_z (eq. 11). Compression ends where v_z = 0 and stores E_c; restitution releases e²E_c
// and ends where the stored energy is back to zero (§4.1). Once the slip stops (event s) or
// reaches an invariant ray (event l), the impulse is linear in I_z and the rest is closed form:
// stick if ‖B⁻¹d‖ ≤ μ (eq. 35), otherwise resumed slip along the unique centrifugal invariant
// direction (eq. 38, Corollary 6).
#pragma once

#include <string>
#include <vector>

#include "carom/core/impact/contact.h"
#include "carom/core/impact/hodograph.h"

namespace carom::core::impact {

struct StrongeParameters {
  /// μ: Coulomb friction coefficient (dimensionless), ≥ 0. Default 0: frictionless.
  double friction = 0.0;
  /// e: Stronge's energetic coefficient of restitution (dimensionless), in [0, 1]: the square root
  /// of the energy released in restitution over the energy absorbed in compression. Not Newton's
  /// coefficient. Default 1: no normal dissipation.
  double restitution = 1.0;
  /// η² = k_n/k_t: the contact's normal over tangential stiffness (dimensionless), ≥ 0 and finite.
  /// Default 0: tangentially rigid, Jia & Wang's law as above. Positive: Stronge's lumped contact
  /// (Impact Mechanics ch. 8) with a normal and a tangential spring, so that a sticking contact
  /// stores tangential energy and gives it back (its tangential velocity can reverse); the
  /// tangential spring slips when its force would exceed μ times the normal one, and the normal
  /// spring unloads Stronge's way, releasing e² of the energy it absorbed. Integrated in time
  /// (stronge_compliant.cpp); the result does not depend on the stiffnesses' scale, only on η².
  /// Ignored when μ = 0 (no tangential force). An elastic contact has η² = (2 − ν)/(2(1 − ν)),
  /// 1.21 for ν = 0.3 (Mindlin).
  double tangentialCompliance = 0.0;
  /// Error tolerance of the hodograph integration, relative to ‖v⁻‖ for the sliding velocity and
  /// to v_z⁻²/W_zz for the absorbed energy (dimensionless, in (0, 1e-2]). The same relative amount
  /// decides when the slip counts as stopped or as on an invariant ray. Default 1e-9: impulses
  /// accurate to about 1e-8 relative in ~20–60 steps.
  double relativeTolerance = 1e-9;
  /// Cap on the Runge–Kutta steps, accepted and rejected (count, ≥ 1). Default 10000: smooth
  /// hodographs take tens of steps; the cap only stops a pathological case, reported as
  /// StrongeStatus::kStepLimit.
  int maxSteps = 10000;
  /// Cap on the evaluations spent locating one event (end of compression or of restitution) inside
  /// a step (count, ≥ 1). Default 100: the bracketed Illinois search needs about 5–15.
  int maxEventIterations = 100;
  /// Keep the impulse at every step and phase boundary in StrongeSolution::path (for tests and
  /// plots). Default false: no allocation.
  bool recordPath = false;
  /// Write the impact's phases into StrongeSolution::trace (and the outcome's). Default true. Off,
  /// the trace is empty: its formatted numbers are most of a frictionless impact's cost, and a
  /// caller that reads the trace only where the impact fails asks again then (applyLaw's
  /// TraceWhen::kOnFailure).
  bool trace = true;
};

enum class StrongeStatus {
  kConverged,            ///< restitution ended; the impulse is the model's
  kSeparating,           ///< v_z⁻ ≥ 0: no impact, zero impulse
  kStepLimit,            ///< maxSteps reached or the step size underflowed before restitution ended
  kEventIterationLimit,  ///< an event could not be located within maxEventIterations
  kNoTermination,    ///< on a closed-form segment v_z never reaches 0 (or E never returns to 0):
                     ///< Jia & Wang's condition (18) fails along the path
  kNoSlipDirection,  ///< the slip stopped, cannot stick, and no centrifugal invariant direction
                     ///< was found (Theorem 12 guarantees one: a numerical failure)
};
const char* toString(StrongeStatus status);

/// The model's answer in the contact frame (x, y tangent, z the normal, pointing from A into B).
struct StrongeSolution {
  StrongeStatus status = StrongeStatus::kConverged;
  Vec3 impulse = Vec3::Zero();    ///< I on B (N s); zero unless converged
  double compressionImpulse = 0;  ///< I_zc, where v_z = 0 (N s)
  double compressionEnergy = 0;   ///< E_c, the energy absorbed in compression (J)
  /// I_zs, where γ first vanishes (N s); −1 if the slip never stops or the contact is
  /// tangentially compliant.
  double slipStopImpulse = -1;
  double normalWork = 0;  ///< ∫v_z dI_z, = −(1 − e²)E_c at the end of restitution (J)
  double frictionWork = 0;  ///< ∫γ·dI_⊥ = −μ∫‖γ‖dI_z (J), ≤ 0; compliant: the slip's dissipation
  Vec2 finalSlip = Vec2::Zero();  ///< γ⁺ (m/s)
  std::string sequence;    // the paper's event letters in order (§6): c, s, l, r; e.g. "csr"
  std::string trace;       ///< phases (slip, stick, resumed slip with its direction), steps
  int steps = 0;           ///< Runge–Kutta steps taken, accepted and rejected
  std::vector<Vec3> path;  ///< impulse at each accepted step and phase boundary, if recordPath
};

/// Solves the impact in the contact frame: W the inverse mass matrix there (symmetric positive
/// definite, 1/kg), vMinus the relative velocity of B with respect to A before the impact (m/s).
/// Throws carom::Error naming the parameter for a negative or non-finite friction, a restitution
/// outside [0, 1], bad tolerances or caps, a non-finite vMinus, or a W that is not symmetric
/// positive definite. A failure of the integration is a status, not an exception: the caller
/// decides what to do with it.
StrongeSolution solveStrongeImpulse(const Mat3& W, const Vec3& vMinus,
                                    const StrongeParameters& parameters);

struct StrongeImpact {
  StrongeSolution solution;  ///< contact-frame details; check solution.status first
  ImpactOutcome outcome;     ///< post-impact velocities (pre-impact ones unless converged)
};

/// The world-frame impact: builds the contact frame from contact.normal, solves, and applies the
/// impulse with applyImpulse; outcome.resolved is false unless the solution converged (or v_z⁻ = 0
/// exactly: no impulse is the answer). Also throws carom::Error, like the other laws, for an
/// invalid contact (validateContact) and for separating bodies (relative normal velocity > 0).
StrongeImpact resolveStrongeImpact(const Contact& contact, const StrongeParameters& parameters);

}  // namespace carom::core::impact
