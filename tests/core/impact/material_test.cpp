#include "carom/core/impact/material.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <variant>

#include "core/impact/impact_fixtures.h"

namespace carom::test {
namespace {

using core::impact::applyLaw;
using core::impact::combineMaterials;
using core::impact::frictionAtImpact;
using core::impact::ImpactLaw;
using core::impact::impactLaw;
using core::impact::ImpactLawKind;
using core::impact::Material;
using core::impact::MaterialPairTable;
using core::impact::NewtonLaw;
using core::impact::PoissonLaw;
using core::impact::StrictLaw;
using core::impact::StrongeLaw;
using core::impact::validateMaterial;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Material material(const std::string& name, ImpactLawKind impact, double restitution,
                  double friction, int roughness = 0) {
  Material m;
  m.name = name;
  m.impact = impact;
  m.restitution = restitution;
  m.friction = friction;
  m.roughness = roughness;
  return m;
}

void expectParameters(const Material& m, ImpactLawKind impact, double restitution, double friction,
                      int roughness) {
  EXPECT_EQ(m.impact, impact);
  EXPECT_EQ(m.restitution, restitution);
  EXPECT_EQ(m.friction, friction);
  EXPECT_EQ(m.roughness, roughness);
}

TEST(ImpactLawMaterials, DefaultsAreInterfacesDefaultMaterial) {
  expectParameters(Material{}, ImpactLawKind::kStronge, 1.0, 0.0, 0);
}

// INTERFACES.md §2: restitution 0.5 on both bodies means e = 0.5, not Bullet's product 0.25; and
// μ = 0.3 exactly, although √(0.3 × 0.3) is 0.30000000000000004.
TEST(ImpactLawMaterials, OneMaterialOnBothBodiesKeepsItsValuesExactly) {
  const Material rubber = material("rubber", ImpactLawKind::kNewton, 0.5, 0.3, 1);
  expectParameters(combineMaterials(rubber, rubber), ImpactLawKind::kNewton, 0.5, 0.3, 1);
  Material twin = rubber;
  twin.name = "rubber-2";  // another name, the same parameters
  expectParameters(combineMaterials(rubber, twin), ImpactLawKind::kNewton, 0.5, 0.3, 1);
}

// Different materials: the larger restitution, the geometric mean of the frictions, the smaller
// roughness, in either order.
TEST(ImpactLawMaterials, DifferentMaterialsCombineByTheDocumentedRule) {
  const Material steel = material("steel", ImpactLawKind::kStrict, 0.9, 0.2, 2);
  const Material rubber = material("rubber", ImpactLawKind::kStrict, 0.4, 0.8, 1);
  for (const Material& combined :
       {combineMaterials(steel, rubber), combineMaterials(rubber, steel)}) {
    expectParameters(combined, ImpactLawKind::kStrict, 0.9, 0.4, 1);
  }
  EXPECT_EQ(combineMaterials(steel, rubber).name, "steel/rubber");
  const Material ice = material("ice", ImpactLawKind::kStrict, 0.1, 0.0, 0);
  expectParameters(combineMaterials(ice, rubber), ImpactLawKind::kStrict, 0.4, 0.0, 0);
}

TEST(ImpactLawMaterials, APairTableWinsInEitherOrder) {
  const Material steel = material("steel", ImpactLawKind::kStrict, 0.9, 0.2, 2);
  const Material rubber = material("rubber", ImpactLawKind::kNewton, 0.4, 0.8);
  MaterialPairTable pairs;
  pairs.set("steel", "rubber", material("", ImpactLawKind::kStronge, 0.8, 0.6));
  for (const Material& combined :
       {combineMaterials(steel, rubber, pairs), combineMaterials(rubber, steel, pairs)}) {
    expectParameters(combined, ImpactLawKind::kStronge, 0.8, 0.6, 0);
    EXPECT_EQ(combined.name, "steel/rubber");
  }
  EXPECT_EQ(pairs.find("steel", "steel"), nullptr);
  expectParameters(combineMaterials(steel, steel, pairs), ImpactLawKind::kStrict, 0.9, 0.2, 2);
}

TEST(ImpactLawMaterials, DifferentLawsWithoutAPairTableNameBothMaterials) {
  const Material steel = material("steel", ImpactLawKind::kStrict, 0.9, 0.2, 2);
  const Material rubber = material("rubber", ImpactLawKind::kNewton, 0.4, 0.8);
  for (const char* name :
       {"'steel'", "'rubber'", "\"strict\"", "\"newton\"", "[pair.steel.rubber]"}) {
    expectErrorNaming([&] { combineMaterials(steel, rubber); }, name);
  }
}

TEST(ImpactLawMaterials, AmbiguousNamesAreRefused) {
  MaterialPairTable pairs;
  expectErrorNaming([&] { pairs.set("steel", "steel", Material{}); }, "itself");
  const Material a = material("steel", ImpactLawKind::kNewton, 0.9, 0.2);
  const Material b = material("steel", ImpactLawKind::kNewton, 0.8, 0.2);
  expectErrorNaming([&] { combineMaterials(a, b); }, "'steel'");
}

TEST(ImpactLawMaterials, BadValuesNameTheMaterialAndTheKey) {
  for (double bad : {-0.1, 1.1, kNan}) {
    expectErrorNaming(
        [&] { validateMaterial(material("felt", ImpactLawKind::kStronge, bad, 0.5)); },
        "material 'felt': restitution");
  }
  for (double bad : {-0.1, kNan, std::numeric_limits<double>::infinity()}) {
    expectErrorNaming(
        [&] { validateMaterial(material("felt", ImpactLawKind::kStronge, 0.5, bad)); },
        "material 'felt': friction");
  }
  for (int bad : {-1, 3}) {
    expectErrorNaming(
        [&] { validateMaterial(material("felt", ImpactLawKind::kStrict, 0.5, 0.5, bad)); },
        "material 'felt': roughness");
  }
  const Material bad = material("felt", ImpactLawKind::kNewton, 2.0, 0.5);
  const Material good = material("wood", ImpactLawKind::kNewton, 0.5, 0.5);
  expectErrorNaming([&] { combineMaterials(good, bad); }, "'felt'");
  expectErrorNaming([&] { impactLaw(bad); }, "'felt'");
  MaterialPairTable pairs;
  expectErrorNaming([&] { pairs.set("felt", "wood", bad); }, "restitution");
}

// Each law gets the material's restitution in its own sense, friction where it has one, and the
// roughness only for a strict map (e_n = e_r = e).
TEST(ImpactLawMaterials, AMaterialBuildsItsLaw) {
  const Vec3 t = Vec3::UnitY();
  const ImpactLaw strict = impactLaw(material("s", ImpactLawKind::kStrict, 0.7, 0.3, 1), t);
  ASSERT_TRUE(std::holds_alternative<StrictLaw>(strict));
  const auto& sp = std::get<StrictLaw>(strict).parameters;
  EXPECT_EQ(sp.roughness, 1);
  EXPECT_EQ(sp.roughDirection, t);
  EXPECT_EQ(sp.normalRestitution, 0.7);
  EXPECT_EQ(sp.tangentialRestitution, 0.7);
  const ImpactLaw stronge = impactLaw(material("s", ImpactLawKind::kStronge, 0.7, 0.3));
  ASSERT_TRUE(std::holds_alternative<StrongeLaw>(stronge));
  EXPECT_EQ(std::get<StrongeLaw>(stronge).parameters.restitution, 0.7);
  EXPECT_EQ(std::get<StrongeLaw>(stronge).parameters.friction, 0.3);
  const ImpactLaw newton = impactLaw(material("s", ImpactLawKind::kNewton, 0.7, 0.3));
  ASSERT_TRUE(std::holds_alternative<NewtonLaw>(newton));
  EXPECT_EQ(std::get<NewtonLaw>(newton).parameters.restitution, 0.7);
  EXPECT_EQ(std::get<NewtonLaw>(newton).parameters.friction, 0.3);
  const ImpactLaw poisson = impactLaw(material("s", ImpactLawKind::kPoisson, 0.7, 0.3));
  ASSERT_TRUE(std::holds_alternative<PoissonLaw>(poisson));
  EXPECT_EQ(std::get<PoissonLaw>(poisson).parameters.restitution, 0.7);
  EXPECT_EQ(std::get<PoissonLaw>(poisson).parameters.friction, 0.3);
}

// An impact friction replaces μ in every law with friction and in nothing else; unset, the laws
// take `friction`. Two materials blend it like friction, from each one's μ at impact.
TEST(ImpactLawMaterials, ImpactFrictionIsTheLawsMuOnly) {
  Material m = material("s", ImpactLawKind::kStronge, 0.7, 0.3);
  EXPECT_EQ(frictionAtImpact(m), 0.3);
  m.impactFriction = 0.1;
  EXPECT_EQ(frictionAtImpact(m), 0.1);
  EXPECT_EQ(std::get<StrongeLaw>(impactLaw(m)).parameters.friction, 0.1);
  m.impact = ImpactLawKind::kNewton;
  EXPECT_EQ(std::get<NewtonLaw>(impactLaw(m)).parameters.friction, 0.1);
  m.impact = ImpactLawKind::kPoisson;
  EXPECT_EQ(std::get<PoissonLaw>(impactLaw(m)).parameters.friction, 0.1);
  EXPECT_EQ(m.friction, 0.3);

  Material other = material("t", ImpactLawKind::kPoisson, 0.2, 0.4);
  EXPECT_FALSE(combineMaterials(other, other).impactFriction);
  const Material blend = combineMaterials(m, other);
  ASSERT_TRUE(blend.impactFriction);
  EXPECT_DOUBLE_EQ(*blend.impactFriction, std::sqrt(0.1 * 0.4));  // other's μ at impact: 0.4
  EXPECT_DOUBLE_EQ(blend.friction, std::sqrt(0.3 * 0.4));
  // Same name, same μ, different impact friction: two different materials, refused.
  Material twin = m;
  twin.impactFriction = 0.2;
  expectErrorNaming([&] { combineMaterials(m, twin); }, "'s'");
  m.impactFriction = -0.1;
  expectErrorNaming([&] { validateMaterial(m); }, "impact_friction");
  m.impactFriction = std::numeric_limits<double>::infinity();
  expectErrorNaming([&] { validateMaterial(m); }, "impact_friction");
}

// A tangential compliance reaches the stronge law only; two materials blend it by the mean (two
// springs in series of the same normal stiffness); a negative or non-finite one is refused.
TEST(ImpactLawMaterials, TangentialComplianceIsTheStrongeLawsOwn) {
  Material m = material("s", ImpactLawKind::kStronge, 0.7, 0.3);
  EXPECT_EQ(std::get<StrongeLaw>(impactLaw(m)).parameters.tangentialCompliance, 0.0);
  m.tangentialCompliance = 1.5;
  EXPECT_EQ(std::get<StrongeLaw>(impactLaw(m)).parameters.tangentialCompliance, 1.5);
  Material other = material("t", ImpactLawKind::kStronge, 0.2, 0.4);
  other.tangentialCompliance = 0.5;
  EXPECT_EQ(combineMaterials(m, other).tangentialCompliance, 1.0);
  EXPECT_EQ(combineMaterials(m, m).tangentialCompliance, 1.5);
  // Same name, different compliance: two different materials, refused.
  Material twin = m;
  twin.tangentialCompliance = 2.0;
  expectErrorNaming([&] { combineMaterials(m, twin); }, "'s'");
  for (double bad :
       {-0.5, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    m.tangentialCompliance = bad;
    expectErrorNaming([&] { validateMaterial(m); }, "tangential_compliance");
    expectErrorNaming([&] { validateMaterial(m); }, "material 's'");
  }
}

// From two materials to an impact: a rod of e = 0.5 on a floor of e = 0.2 (both Newton,
// frictionless) leaves at −0.5 times its incoming normal contact velocity.
TEST(ImpactLawMaterials, APairOfMaterialsDrivesAnImpact) {
  const Contact rod = rodOnGround(Vec3(0.3, 0.0, -1.0));
  const Material floor = material("floor", ImpactLawKind::kNewton, 0.2, 0.0);
  const Material wood = material("wood", ImpactLawKind::kNewton, 0.5, 0.0);
  const ImpactOutcome outcome = applyLaw(rod, impactLaw(combineMaterials(floor, wood)));
  const double before = rod.normal.dot(core::impact::relativeVelocity(rod));
  const double after = rod.normal.dot(core::impact::relativeVelocity(test::after(rod, outcome)));
  EXPECT_NEAR(after, -0.5 * before, 1e-12);
}

}  // namespace
}  // namespace carom::test
