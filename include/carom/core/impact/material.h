// Impact materials and how a pair of them picks one impact law (INTERFACES.md §2, the
// [material.NAME] and [pair.A.B] tables). A world gives each body a Material, combines the two at a
// contact with combineMaterials, and applies impactLaw(combined, ...) with applyLaw (law.h).
//
// The combination rule, exactly as INTERFACES.md states it:
//   1. an explicit pair table for the two names wins (order-free);
//   2. otherwise two materials with the same parameters (one material on both bodies, in
//      particular) give those parameters exactly: restitution 0.5 on both is e = 0.5, not 0.25;
//   3. otherwise restitution is the larger of the two, friction (and impact friction) the geometric
//      mean √(μ_A μ_B), tangential compliance the mean and roughness the smaller; two different
//      impact laws are an error naming both materials.
// This is not Bullet's default (both multiply): the product makes a material's restitution depend
// on what it hits even against itself, and makes e = 1 on one body meaningless. The larger
// restitution lets a superball bounce on any floor; the geometric mean keeps friction 0 against
// ice and equal to μ against the same μ; the smaller roughness keeps a smooth body smooth.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "carom/core/impact/law.h"
#include "carom/core/types.h"

namespace carom::core::impact {

/// One body's impact material. Defaults: INTERFACES.md's [material.default].
struct Material {
  /// The material's name in scenes and pair tables; error messages quote it. Default "default".
  std::string name = "default";
  /// Config key `impact`: the law a contact of this material uses. Default Stronge's (Jia–Wang).
  ImpactLawKind impact = ImpactLawKind::kStronge;
  /// Config key `restitution`, e ∈ [0, 1] (dimensionless), in the chosen law's own sense: Stronge's
  /// energetic coefficient, Newton's velocity ratio, Poisson's impulse ratio, and for a strict map
  /// both e_n and e_r (C_e = I − (1 + e) P_E, uniform dissipation). Default 1: no dissipation.
  double restitution = 1.0;
  /// Config key `friction`, Coulomb μ ≥ 0 (dimensionless), for the stronge, newton and poisson
  /// laws; a strict map has no friction (its roughness takes that role). Default 0: frictionless.
  double friction = 0.0;
  /// Config key `impact_friction`, Coulomb μ ≥ 0 (dimensionless) of this material's impacts only
  /// (binary and simultaneous); `friction` stays the μ of sustained contact. Unset (the default):
  /// `friction`. Why: a real cube slides on its face at μ = 0.21 but takes a tangential impulse of
  /// only 0.16 times the normal one at its corner impacts (docs/validation.md).
  std::optional<double> impactFriction;
  /// Config key `tangential_compliance`, η² = k_n/k_t ≥ 0 (dimensionless): the contact's normal
  /// over tangential stiffness in the stronge law's binary impacts (StrongeParameters); other laws
  /// and simultaneous impacts ignore it. Default 0: tangentially rigid, Jia & Wang's law. Why: a
  /// real cube keeps more of its spin through a corner impact than the rigid law leaves
  /// (docs/validation.md); an elastic contact has (2 − ν)/(2(1 − ν)), 1.21 for ν = 0.3.
  double tangentialCompliance = 0.0;
  /// Config key `roughness`, the strict maps' rank k ∈ {0, 1, 2} (0 smooth/specular, 1 rough across
  /// one tangent, 2 fully rough); ignored by the other laws. Default 0.
  int roughness = 0;
};

/// Throws carom::Error naming the material and the key for a restitution outside [0, 1], a
/// negative or non-finite friction, impact friction or tangential compliance, or a roughness
/// outside {0, 1, 2}.
void validateMaterial(const Material& material);

/// Explicit parameters for pairs of named materials ([pair.A.B]), order-free.
class MaterialPairTable {
 public:
  /// Sets the parameters for contacts between `first` and `second` (validated; their name becomes
  /// "first/second"), replacing an earlier entry. Throws carom::Error when first == second: one
  /// material on both bodies always uses its own values.
  void set(const std::string& first, const std::string& second, Material parameters);
  /// The entry for the pair in either order, or nullptr.
  const Material* find(const std::string& first, const std::string& second) const;

 private:
  std::map<std::pair<std::string, std::string>, Material> entries_;  ///< key: names, sorted
};

/// The μ of `material`'s impacts: its impact friction where set, else its friction.
double frictionAtImpact(const Material& material);

/// Rule 3 alone: restitution the larger, friction the geometric mean (impact friction too, where
/// either sets it), tangential compliance the mean (the contact's two springs in series, each
/// body's normal stiffness the same), roughness the smaller, the impact law `a`'s, named "a/b".
/// The defaults of a pair table's left-out keys. No validation.
Material blendMaterials(const Material& a, const Material& b);

/// The parameters for a contact between bodies of materials `a` and `b`, by the rule at the top of
/// this file. Throws carom::Error for an invalid material, for two different materials that share a
/// name (a pair table could not tell them apart), and for different impact laws with no pair entry.
Material combineMaterials(const Material& a, const Material& b,
                          const MaterialPairTable& pairs = MaterialPairTable());

/// The law and parameters `material` asks for. `roughDirection` is the rough tangent of a strict
/// map of roughness 1 at this contact (unit, perpendicular to the normal, world frame); other laws
/// and ranks ignore it. Laws' tolerances and caps keep their defaults.
ImpactLaw impactLaw(const Material& material, const Vec3& roughDirection = Vec3::UnitX());

}  // namespace carom::core::impact
