// Classical single-contact impact laws with Coulomb friction, as game and robotics engines use
// them: Newton's (velocity) restitution and Poisson's (impulse) restitution. They are baselines to
// compare carom's laws with, not carom's defaults: with friction on an eccentric contact (an
// inverse mass matrix that couples normal and tangential directions) both can create kinetic
// energy (Kane & Levinson 1985; Stronge 2000; Jia & Wang digest §4.2), which Stronge's energetic
// restitution cannot. classical_test.cpp reproduces such a gain for Newton's law.
//
// Both laws use the same algebraic Coulomb rule within a phase: the stick-or-clamp rule of engine
// friction rows (Bullet, Box2D, ODE), solved in closed form for one contact with an isotropic
// cone instead of iterated:
//   1. stick trial: the impulse P that meets the phase's normal condition and leaves zero
//      tangential relative velocity; accepted if P_n ≥ 0 and |P_t| ≤ μ P_n;
//   2. otherwise slide: the tangential impulse is μ P_n along the trial's tangential impulse (the
//      trial projected radially onto the cone), and P_n is re-solved so the normal condition holds
//      with that friction included.
// There is no compression/restitution history and no stick–slip transition inside the impact.
#pragma once

#include "carom/core/impact/contact.h"

namespace carom::core::impact {

struct ClassicalParameters {
  /// e ∈ [0, 1] (dimensionless). Newton: v_n⁺ = −e v_n⁻. Poisson: restitution normal impulse =
  /// e × compression normal impulse. Default 1 (elastic when frictionless).
  double restitution = 1.0;
  /// μ ≥ 0 (dimensionless): Coulomb friction coefficient, |P_t| ≤ μ P_n. Default 0: frictionless.
  double friction = 0.0;
};

/// Throws carom::Error naming the field when restitution is not in [0, 1] or friction is negative
/// or not finite.
void validateClassicalParameters(const ClassicalParameters& parameters);

/// Newton's law, one phase with the normal condition n·Δu⁺ = −e n·Δu⁻ (velocity restitution) and
/// the Coulomb rule above. Throws carom::Error for invalid input, separating bodies, or when no
/// sliding impulse meets the normal condition (nᵀK(n + μ t̂) ≤ 0: a Painlevé-type inconsistency).
ImpactOutcome newtonImpact(const Contact& contact, const ClassicalParameters& parameters);

/// Poisson's law, two phases:
///   compression: the Coulomb rule with the normal condition n·Δu = 0 at its end, giving the
///     compression impulse P_c (normal part P_cn);
///   restitution: the normal impulse is fixed to e P_cn, and the tangential impulse follows the
///     Coulomb rule from the state at the end of compression (stick trial, else radial projection
///     onto the cone of radius μ e P_cn).
/// The total impulse is the sum. Throws like newtonImpact.
ImpactOutcome poissonImpact(const Contact& contact, const ClassicalParameters& parameters);

}  // namespace carom::core::impact
