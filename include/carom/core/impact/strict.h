// Strict collision maps of Cox, Feres & Ward, "Differential geometry of rigid bodies collisions and
// non-standard billiards" (2015), and their dissipative extension.
//
// A strict map conserves kinetic energy and linear and angular momentum, is time reversible
// (C² = I) and acts by an impulse at the contact point. The paper's Corollary 2.1 shows these are
// exactly the maps C = I − 2P_E, P_E the projector, orthogonal in the kinetic-energy metric, onto
// a subspace E that holds the normal of the contact set and lies in the impulse subspace. In 3D, E
// is fixed by the roughness rank k (Def 2.6, with the off-by-one of digest §8 erratum 2 corrected)
// and k rough tangent directions: k = 0 is the frictionless elastic (specular) impact, k = 1 is
// rough across one tangent direction and smooth along the other, k = 2 is the completely rough
// "super-ball" impact that reverses the whole relative velocity of the contact points.
#pragma once

#include "carom/core/impact/contact.h"
#include "carom/core/types.h"

namespace carom::core::impact {

struct StrictParameters {
  /// Roughness rank k ∈ {0, 1, 2} (Def 2.6 and Cor 2.2): how many tangent directions are rough.
  /// Default 0: the specular map, the one every engine already has with restitution 1.
  int roughness = 0;
  /// The rough tangent direction when roughness == 1 (unit, perpendicular to the contact normal
  /// to 1e-9, world frame; its sign does not matter). Ignored for roughness 0 and 2.
  Vec3 roughDirection = Vec3::UnitX();
  /// e_n ∈ [0, 1] (dimensionless): the relative normal velocity of the contact points leaves as
  /// −e_n times its incoming value. Default 1: strict (elastic).
  double normalRestitution = 1.0;
  /// e_r ∈ [0, 1] (dimensionless): fraction of the rough part of the map that is kept (digest §6);
  /// for a round body on a fixed body it is the tangential coefficient β of the Walton "β-model",
  /// u_t⁺ = −β u_t⁻. Default 1: strict.
  double tangentialRestitution = 1.0;
};

/// Throws carom::Error naming the field when the roughness is outside {0, 1, 2}, the rough
/// direction (roughness 1) is not finite, not unit length or not perpendicular to `normal` (to
/// 1e-9), or a restitution is not in [0, 1].
void validateStrictParameters(const StrictParameters& parameters, const Vec3& normal);

/// The strict collision map C = I − 2P_E (digest §2.2) for normalRestitution =
/// tangentialRestitution = 1; otherwise its dissipative extension (digest §6)
///   C_e = I − (1 + e_n) P_n − (1 + e_r) (P_E − P_n),   P_n = projector onto the normal of ∂M,
/// which still acts by an impulse at the contact point (so it conserves linear and angular
/// momentum exactly), leaves the relative normal velocity at −e_n times its incoming value and
/// loses ½(1 − e_n²)‖P_n x‖² + ½(1 − e_r²)‖(P_E − P_n) x‖² ≥ 0 of kinetic energy. Only e_n = e_r =
/// 1 is time reversible. Throws carom::Error for an invalid contact or parameters, for separating
/// bodies (relative normal velocity > 0), and when the bodies cannot exchange an impulse along the
/// normal or a rough direction (a singular restricted inverse mass matrix).
ImpactOutcome strictImpact(const Contact& contact, const StrictParameters& parameters);

}  // namespace carom::core::impact
