#include "carom/core/jump.h"

#include <gtest/gtest.h>

#include <cmath>

#include "carom/core/lie.h"
#include "support/random.h"

namespace carom::core {
namespace {

struct ImpactFixture {
  MassProperties body;
  BodyState state;
  GapSample gap;
};

// A random body touching a random plane (Φ = 0) with a random velocity that approaches it.
ImpactFixture randomImpact(test::Random& random) {
  const MassProperties body = random.body();
  const Ellipsoid shape(
      Vec3(random.uniform(0.3, 2), random.uniform(0.3, 2), random.uniform(0.3, 2)));
  const Plane plane(random.unitVector(), random.uniform(-1, 1));
  BodyState s{random.vector(3.0), random.rotation(), random.vector(3.0), random.vector(3.0)};
  s.x -= shape.gap(plane, s.x, s.R).phi * plane.normal();  // move onto the plane
  GapSample gap = shape.gap(plane, s.x, s.R);
  const double rate = gapRate(body, s, gap);
  if (rate > -0.1) s.gamma -= body.mass() * (rate + random.uniform(0.1, 3.0)) * gap.dPhidx;
  return {body, s, gap};
}

// Digest §7.1 D1–D6.
TEST(ElasticJump, ConservesEnergyReversesTheNormalRateAndKeepsContactAngularMomentum) {
  test::Random random(40);
  for (int i = 0; i < 2000; ++i) {
    const ImpactFixture f = randomImpact(random);
    EXPECT_NEAR(f.gap.phi, 0.0, 1e-12);
    const JumpResult j = elasticJump(f.body, f.state, f.gap);
    ASSERT_TRUE(j.applied);
    EXPECT_GT(j.lambda, 0.0);  // D3
    const double e0 = energy(f.body, f.state, Vec3::Zero()).kinetic();
    EXPECT_NEAR(energy(f.body, j.state, Vec3::Zero()).kinetic(), e0, 1e-14 * e0 + 1e-15);  // D1
    EXPECT_NEAR(j.phiDotPlus, -j.phiDotMinus, 1e-13 * std::abs(j.phiDotMinus));            // D2
    EXPECT_NEAR(gapRate(f.body, j.state, f.gap), j.phiDotPlus, 0.0);
    // D5: about the contact point x + Rρ_C the impulse has no moment.
    const Vec3 contact = f.state.x + f.state.R * f.gap.contactPoint;
    const Vec3 L0 = spatialAngularMomentum(f.state, contact);
    EXPECT_LE((spatialAngularMomentum(j.state, contact) - L0).norm(), 1e-13 * (1.0 + L0.norm()));
    // D4: the jump annihilates the tangent space of the contact set (4.16).
    const Vec3 dx = random.vector(1.0), zeta0 = random.vector(1.0);
    const Vec3 zeta =
        zeta0 - (dx.dot(f.gap.dPhidx) + zeta0.dot(f.gap.chi)) / f.gap.chi.squaredNorm() * f.gap.chi;
    ASSERT_NEAR(dx.dot(f.gap.dPhidx) + zeta.dot(f.gap.chi), 0.0, 1e-12);
    EXPECT_NEAR((j.state.gamma - f.state.gamma).dot(dx) + (j.state.Pi - f.state.Pi).dot(zeta), 0.0,
                1e-12 * j.lambda * (1.0 + f.gap.chi.norm()));
    // The pose is untouched.
    EXPECT_EQ(j.state.x, f.state.x);
    EXPECT_EQ(j.state.R, f.state.R);
  }
}

TEST(ElasticJump, EqualsTheClassicalElasticImpulseAtTheContactPoint) {
  // Digest §0: the jump is a frictionless Newton impulse with e = 1 at x + Rρ_C along n.
  test::Random random(41);
  const ImpactFixture f = randomImpact(random);
  const Vec3 n = f.gap.dPhidx;
  const Vec3 r = f.state.R * f.gap.contactPoint;
  const Mat3 Iinv = f.state.R * f.body.inverseInertia() * f.state.R.transpose();
  const Vec3 v = f.state.gamma / f.body.mass(),
             w = f.state.R * f.body.inverseInertia() * f.state.Pi;
  const double vn = n.dot(v + w.cross(r));
  const double impulse = -2.0 * vn / (1.0 / f.body.mass() + n.dot((Iinv * r.cross(n)).cross(r)));
  const JumpResult j = elasticJump(f.body, f.state, f.gap);
  EXPECT_NEAR(j.lambda, impulse, 1e-12 * impulse);
  EXPECT_LE((j.state.gamma - (f.state.gamma + impulse * n)).norm(), 1e-12 * (1 + impulse));
}

TEST(ElasticJump, GuardLeavesASeparatingOrGrazingBodyUnchanged) {
  test::Random random(42);
  ImpactFixture f = randomImpact(random);
  f.state.gamma -=
      f.body.mass() * (gapRate(f.body, f.state, f.gap) - 0.5) * f.gap.dPhidx;  // Φ̇ = +0.5
  JumpResult j = elasticJump(f.body, f.state, f.gap);
  EXPECT_FALSE(j.applied);
  EXPECT_EQ(j.lambda, 0.0);
  EXPECT_EQ(j.state.gamma, f.state.gamma);
  EXPECT_EQ(j.state.Pi, f.state.Pi);
  f.state.gamma -= f.body.mass() * gapRate(f.body, f.state, f.gap) * f.gap.dPhidx;  // Φ̇ ≈ 0
  if (gapRate(f.body, f.state, f.gap) >= 0.0) {
    EXPECT_FALSE(elasticJump(f.body, f.state, f.gap).applied);
  }
}

}  // namespace
}  // namespace carom::core
