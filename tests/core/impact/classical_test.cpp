#include "carom/core/impact/classical.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/impact/impact_fixtures.h"

namespace carom::test {
namespace {

using core::impact::ClassicalParameters;
using core::impact::newtonImpact;
using core::impact::poissonImpact;
using core::impact::relativeVelocity;

constexpr int kRandomPairs = 3000;

ClassicalParameters classical(double restitution, double friction) {
  ClassicalParameters parameters;
  parameters.restitution = restitution;
  parameters.friction = friction;
  return parameters;
}

Vec3 tangentialPart(const Vec3& v, const Vec3& n) {
  return v - v.dot(n) * n;
}

// The rod fixture's K, derived by hand in impact_fixtures.h.
TEST(ClassicalImpact, RodFixtureHasTheHandDerivedInverseMassMatrix) {
  Mat3 expected;
  expected << 2.5, 0.0, -1.5, 0.0, 4.0, 0.0, -1.5, 0.0, 2.5;
  EXPECT_LE((core::impact::inverseMassMatrix(rodOnGround(Vec3::Zero())) - expected).norm(), 1e-14);
}

// With μ = 0 both laws are the textbook impulse −(1 + e)(n·Δu)/(nᵀKn) n (for Poisson: the
// compression impulse −(n·Δu)/(nᵀKn) n, then e times it).
TEST(ClassicalImpact, FrictionlessLawsAreTheTextbookImpulse) {
  Random random(101);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const double e = i == 0 ? 1.0 : random.uniform(0.0, 1.0);
    const Vec3 expected = frictionlessImpulse(c, e);
    const double tolerance = 1e-12 * (1.0 + expected.norm());
    EXPECT_LE((newtonImpact(c, classical(e, 0.0)).impulse - expected).norm(), tolerance);
    EXPECT_LE((poissonImpact(c, classical(e, 0.0)).impulse - expected).norm(), tolerance);
  }
}

// Both laws, random pairs, random e and μ: the impulse is inside the cone, the normal condition
// of the law holds (Newton: v_n⁺ = −e v_n⁻; e = 0 ends both at v_n⁺ = 0), a stick leaves no slip
// and a Newton slide is on the cone's boundary.
TEST(ClassicalImpact, RandomPairsMeetTheNormalConditionInsideTheCone) {
  Random random(103);
  int newtonSticks = 0, newtonSlides = 0;
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const Vec3& n = c.normal;
    const double e = i % 3 == 0 ? 0.0 : random.uniform(0.0, 1.0);
    const double mu = random.uniform(0.0, 0.4);
    const double approach = n.dot(relativeVelocity(c));
    const double tolerance = 1e-12 * (1.0 + std::abs(approach));

    const ImpactOutcome newton = newtonImpact(c, classical(e, mu));
    const Vec3 duNewton = relativeVelocity(after(c, newton));
    const double normalImpulse = newton.impulse.dot(n);
    const double tangentialImpulse = tangentialPart(newton.impulse, n).norm();
    EXPECT_NEAR(duNewton.dot(n), -e * approach, tolerance);
    EXPECT_GE(normalImpulse, 0.0);
    EXPECT_LE(tangentialImpulse, mu * normalImpulse * (1.0 + 1e-12));
    if (newton.trace == "newton: stick") {
      ++newtonSticks;
      EXPECT_LE(tangentialPart(duNewton, n).norm(), 1e-12 * (1.0 + relativeVelocity(c).norm()));
    } else {
      ++newtonSlides;
      EXPECT_NEAR(tangentialImpulse, mu * normalImpulse, 1e-12 * (1.0 + normalImpulse));
    }

    const ImpactOutcome poisson = poissonImpact(c, classical(e, mu));
    EXPECT_LE(tangentialPart(poisson.impulse, n).norm(),
              mu * poisson.impulse.dot(n) * (1.0 + 1e-12));
    if (e == 0.0) {
      EXPECT_NEAR(relativeVelocity(after(c, poisson)).dot(n), 0.0, tolerance);
    }
  }
  EXPECT_GT(newtonSticks, 100);  // both branches exercised
  EXPECT_GT(newtonSlides, 100);
}

// Jia & Wang digest §9.4, one-shot Newton + Coulomb on the 45° rod, Δu⁻ = (0.3, 0, −1), e = 0.5.
// μ = 0.8: the stick trial solves [[2.5, −1.5], [−1.5, 2.5]] (P_x, P_z) = (−0.3, 1.5), so
// P = (3/8, 0, 33/40), inside the cone; ΔT = ½ P·(Δu⁻ + Δu⁺) = ½(3/8·0.3 − 33/40·0.5) = −0.15 J.
// μ = 0.3: the trial is outside the cone, so P = P_n (0.3, 0, 1) with
// (2.5 − 1.5·0.3) P_n = 1.5: P = (9/41, 0, 30/41), ΔT = −0.177305 J (digest value, 6 digits).
TEST(ClassicalImpact, NewtonReproducesTheRodTableOfTheJiaWangDigest) {
  const Contact rod = rodOnGround(Vec3(0.3, 0.0, -1.0));
  const ImpactOutcome stick = newtonImpact(rod, classical(0.5, 0.8));
  EXPECT_EQ(stick.trace, "newton: stick");
  EXPECT_LE((stick.impulse - Vec3(3.0 / 8.0, 0.0, 33.0 / 40.0)).norm(), 1e-14);
  EXPECT_NEAR(stick.energyChange, -0.15, 1e-14);
  const ImpactOutcome slide = newtonImpact(rod, classical(0.5, 0.3));
  EXPECT_EQ(slide.trace, "newton: slide");
  EXPECT_LE((slide.impulse - Vec3(9.0 / 41.0, 0.0, 30.0 / 41.0)).norm(), 1e-14);
  EXPECT_NEAR(slide.energyChange, -0.177305, 5e-7);
}

// Why carom's default frictional law is Stronge's (energetic restitution): Newton's law with
// Coulomb friction creates energy on an eccentric contact. The 45° rod, Δu⁻ = (0.3, 0, −1),
// e = 1, μ = 0.8: the stick trial solves [[2.5, −1.5], [−1.5, 2.5]] (P_x, P_z) = (−0.3, 2), giving
// P = (9/16, 0, 91/80), |P_t|/P_n = 0.495 ≤ 0.8, so the rod sticks and leaves with n·Δu⁺ = 1. The
// normal impulse does no net work (e = 1) but the friction impulse does ½ P_x·(0.3 + 0) > 0:
// ΔT = +27/320 = +0.084375 J, 15.5% of the 0.545 J before. Poisson on the same impact:
// compression sticks with P_c = (3/16, 0, 41/80), restitution adds P_n = 41/80 and the sticking
// P_x = 1.5·(41/80)/2.5 = 123/400 (ratio 0.6 ≤ 0.8): P = (0.495, 0, 1.025), n·Δu⁺ = 0.82 and
// ΔT = ½(0.495·0.3 − 1.025·0.18) = −0.018 J.
TEST(ClassicalImpact, NewtonWithFrictionGainsEnergyOnTheEccentricRod) {
  const Contact rod = rodOnGround(Vec3(0.3, 0.0, -1.0));
  ASSERT_NEAR(core::impact::kineticEnergy(rod), 0.545, 1e-15);
  const ImpactOutcome newton = newtonImpact(rod, classical(1.0, 0.8));
  EXPECT_EQ(newton.trace, "newton: stick");
  EXPECT_LE((newton.impulse - Vec3(9.0 / 16.0, 0.0, 91.0 / 80.0)).norm(), 1e-14);
  EXPECT_LE((relativeVelocity(after(rod, newton)) - Vec3(0.0, 0.0, 1.0)).norm(), 1e-14);
  EXPECT_NEAR(newton.energyChange, 27.0 / 320.0, 1e-14);
  EXPECT_NEAR(core::impact::kineticEnergy(after(rod, newton)), 0.545 + 27.0 / 320.0, 1e-14);

  const ImpactOutcome poisson = poissonImpact(rod, classical(1.0, 0.8));
  EXPECT_EQ(poisson.trace, "poisson: compression stick, restitution stick");
  EXPECT_LE((poisson.impulse - Vec3(0.495, 0.0, 1.025)).norm(), 1e-14);
  EXPECT_NEAR(relativeVelocity(after(rod, poisson)).z(), 0.82, 1e-14);
  EXPECT_NEAR(poisson.energyChange, -0.018, 1e-14);
}

TEST(ClassicalImpact, RejectsBadInputNamingIt) {
  const Contact rod = rodOnGround(Vec3(0.3, 0.0, -1.0));
  for (auto law : {&newtonImpact, &poissonImpact}) {
    for (double bad : {-0.1, 1.1, double(NAN)}) {
      expectErrorNaming([&] { law(rod, classical(bad, 0.5)); }, "restitution");
    }
    for (double bad : {-0.1, double(INFINITY), double(NAN)}) {
      expectErrorNaming([&] { law(rod, classical(0.5, bad)); }, "friction");
    }
    expectErrorNaming([&] { law(reversed(rod), classical(0.5, 0.5)); }, "relative normal velocity");
    Contact nan = rod;
    nan.b.linearVelocity.x() = NAN;
    expectErrorNaming([&] { law(nan, classical(0.5, 0.5)); }, "linear velocity");
  }
}

}  // namespace
}  // namespace carom::test
