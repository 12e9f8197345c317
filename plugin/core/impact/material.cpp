#include "carom/core/impact/material.h"

#include <algorithm>
#include <cmath>

#include "carom/error.h"
#include "law_support.h"

namespace carom::core::impact {
namespace {

std::pair<std::string, std::string> pairKey(const std::string& first, const std::string& second) {
  return std::minmax(first, second);
}

bool sameParameters(const Material& a, const Material& b) {
  return a.impact == b.impact && a.restitution == b.restitution && a.friction == b.friction &&
         a.impactFriction == b.impactFriction && a.tangentialCompliance == b.tangentialCompliance &&
         a.roughness == b.roughness;
}

std::string quoted(const Material& material) {
  return "material '" + material.name + "'";
}

// √(μ_a μ_b): √a·√b where the product of two large (1e200) or tiny coefficients leaves double
// range; √(a·b) elsewhere, the usual blend to the bit.
double geometricMean(double a, double b) {
  const double product = a * b;
  return std::isnormal(product) || (product == 0 && (a == 0 || b == 0))
             ? std::sqrt(product)
             : std::sqrt(a) * std::sqrt(b);
}

}  // namespace

void validateMaterial(const Material& material) {
  const std::string owner = quoted(material);
  requireUnitInterval(material.restitution, owner, "restitution");
  requireNonNegative(material.friction, owner, "friction");
  if (material.impactFriction)
    requireNonNegative(*material.impactFriction, owner, "impact_friction");
  requireNonNegative(material.tangentialCompliance, owner, "tangential_compliance");
  requireRoughnessRank(material.roughness, owner);
}

void MaterialPairTable::set(const std::string& first, const std::string& second,
                            Material parameters) {
  if (first == second) {
    throw Error("pair table: [pair." + first + "." + second +
                "] pairs a material with itself; it always uses its own values");
  }
  parameters.name = first + "/" + second;
  validateMaterial(parameters);
  entries_[pairKey(first, second)] = parameters;
}

const Material* MaterialPairTable::find(const std::string& first, const std::string& second) const {
  const auto entry = entries_.find(pairKey(first, second));
  return entry == entries_.end() ? nullptr : &entry->second;
}

double frictionAtImpact(const Material& material) {
  return material.impactFriction.value_or(material.friction);
}

Material blendMaterials(const Material& a, const Material& b) {
  Material blend;
  blend.name = a.name + "/" + b.name;
  blend.impact = a.impact;
  blend.restitution = std::max(a.restitution, b.restitution);
  blend.friction = geometricMean(a.friction, b.friction);
  if (a.impactFriction || b.impactFriction)
    blend.impactFriction = geometricMean(frictionAtImpact(a), frictionAtImpact(b));
  // k_t = k_n/η² per body in series, k_n the same: η² of the pair is the mean.
  blend.tangentialCompliance = 0.5 * (a.tangentialCompliance + b.tangentialCompliance);
  blend.roughness = std::min(a.roughness, b.roughness);
  return blend;
}

Material combineMaterials(const Material& a, const Material& b, const MaterialPairTable& pairs) {
  validateMaterial(a);
  validateMaterial(b);
  if (const Material* entry = pairs.find(a.name, b.name)) return *entry;
  if (sameParameters(a, b)) return a;
  if (a.name == b.name) {
    throw Error("two different materials are both named '" + a.name +
                "'; give them distinct names so that a pair table can tell them apart");
  }
  if (a.impact != b.impact) {
    throw Error(quoted(a) + " (impact = \"" + toString(a.impact) + "\") and " + quoted(b) +
                " (impact = \"" + toString(b.impact) +
                "\") name different impact laws and no pair table decides; add [pair." + a.name +
                "." + b.name + "]");
  }
  return blendMaterials(a, b);
}

ImpactLaw impactLaw(const Material& material, const Vec3& roughDirection) {
  validateMaterial(material);
  switch (material.impact) {
    case ImpactLawKind::kStrict:
      return StrictLaw{
          {material.roughness, roughDirection, material.restitution, material.restitution}};
    case ImpactLawKind::kStronge: {
      StrongeLaw law;
      law.parameters.friction = frictionAtImpact(material);
      law.parameters.restitution = material.restitution;
      law.parameters.tangentialCompliance = material.tangentialCompliance;
      return law;
    }
    case ImpactLawKind::kNewton:
      return NewtonLaw{{material.restitution, frictionAtImpact(material)}};
    case ImpactLawKind::kPoisson:
      return PoissonLaw{{material.restitution, frictionAtImpact(material)}};
  }
  throw Error(quoted(material) + ": impact law out of range");
}

}  // namespace carom::core::impact
