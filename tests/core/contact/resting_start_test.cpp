// The persistent-contact solver's resting start (PersistentContactSettings::restingStart): from a
// cold start, every contact that may not close held at once by one direct solve, then the sweeps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "carom/core/contact/persistent_contact.h"
#include "contact_scenes.h"
#include "support/random.h"

namespace carom::core::contact {
namespace {

using namespace test_scenes;

PersistentContactSettings withRestingStart(bool on) {
  PersistentContactSettings settings;
  settings.maxIterations = 20000;
  settings.stickingBlocks = true;
  settings.restingStart = on;
  return settings;
}

// The cold tower, whose loads Gauss–Seidel carries down a layer per sweep: from the resting start
// every box is at rest at once and each layer of corners carries the weight above it, and the
// sweeps only confirm it (measured: 1 sweep against 1,264 without it).
TEST(RestingStart, BringsTheColdTowerToRestAtOnce) {
  Tower fast, slow;
  const PersistentContactReport with =
      solvePersistentContacts(fast.bodies, fast.contacts, withRestingStart(true));
  const PersistentContactReport without =
      solvePersistentContacts(slow.bodies, slow.contacts, withRestingStart(false));
  std::printf("cold tower of %d boxes: %d sweeps from the resting start, %d without\n",
              Tower::kLevels, with.iterations, without.iterations);
  ASSERT_TRUE(with.ok()) << with.message;
  ASSERT_TRUE(without.ok()) << without.message;
  EXPECT_TRUE(with.restingStart);
  EXPECT_FALSE(without.restingStart);
  EXPECT_LE(with.iterations, 4);
  EXPECT_LT(10 * with.iterations, without.iterations);
  EXPECT_LE(with.energyChange, 0.0);
  EXPECT_LE(with.penetrationRate, 1e-8);
  expectTowerAtRest(fast, Tower::kLevels, 1e-10);
}

// On an incline steeper than the friction angle the least-norm sticking impulses lie outside the
// cones: the contacts are then held by their normals alone and the box slides as Coulomb says,
// at g(sin θ − μ cos θ) down the slope; where μ holds it, it sticks.
TEST(RestingStart, ABoxSlidesWhereItsConesCannotHoldIt) {
  const double slope = 0.3;  // rad; tan = 0.309
  const Vec3 up(-std::sin(slope), 0.0, std::cos(slope));
  for (const double mu : {0.2, 0.5}) {
    BoxOnGround box(Vec3(0, 0, -kG * kH), Vec3::Zero(), mu, up);
    const PersistentContactReport report =
        solvePersistentContacts(box.bodies, box.contacts, withRestingStart(true));
    ASSERT_TRUE(report.ok()) << report.message;
    EXPECT_TRUE(report.restingStart) << "mu " << mu;
    const Vec3 v = box.bodies[0].linearVelocity;
    EXPECT_NEAR(v.dot(up), 0.0, 1e-12) << "mu " << mu;
    if (mu > std::tan(slope)) {
      EXPECT_LE(v.norm(), 1e-12) << "mu " << mu;
    } else {
      EXPECT_NEAR(v.norm(), kG * kH * (std::sin(slope) - mu * std::cos(slope)), 1e-9);
      EXPECT_LT(v.x(), 0.0);  // downhill
    }
    expectContactConditions(report, box.contacts, 0);
  }
}

// Held at once, a box leaving the ground would be pulled back: its contacts are let go instead,
// and it leaves as it came.
TEST(RestingStart, LetsGoOfContactsThatSeparate) {
  BoxOnGround box(Vec3(0.2, 0, 0.5), Vec3(0.0, 0.3, 0.0), 0.5);
  const Vec3 v = box.bodies[0].linearVelocity, w = box.bodies[0].angularVelocity;
  const PersistentContactReport report =
      solvePersistentContacts(box.bodies, box.contacts, withRestingStart(true));
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_FALSE(report.restingStart);
  EXPECT_EQ(box.bodies[0].linearVelocity, v);
  EXPECT_EQ(box.bodies[0].angularVelocity, w);
  for (const PersistentContact& c : box.contacts)
    EXPECT_EQ(c.impulse, Vec3::Zero());
}

// A warm start is the solver's own start: the resting start is for cold problems only.
TEST(RestingStart, IsNotTakenFromAWarmStart) {
  Tower tower;
  tower.contacts[0].impulse = Vec3(0, 0, 0.01);
  const PersistentContactReport report =
      solvePersistentContacts(tower.bodies, tower.contacts, withRestingStart(true));
  EXPECT_FALSE(report.restingStart);
}

// Random bodies pressed into each other and the ground at random points and normals, often
// redundant: from the resting start the answer meets the same conditions as without it (no energy
// gained, nothing approaching, every impulse in its cone).
TEST(RestingStart, RandomStacksSatisfyTheContactConditionsWithoutGainingEnergy) {
  test::Random random(77);
  int converged = 0, started = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomStack stack(random);
    PersistentContactSettings settings;
    settings.restingStart = true;
    const PersistentContactReport report =
        solvePersistentContacts(stack.bodies, stack.contacts, settings);
    started += report.restingStart ? 1 : 0;
    if (!report.ok()) continue;
    ++converged;
    expectContactConditions(report, stack.contacts, trial);
  }
  std::printf("random stacks: %d of 300 converged, %d from a resting start\n", converged, started);
  // As without the resting start (RandomStacksSatisfyTheContactConditionsWithoutGainingEnergy):
  // at least 270 of 300 converge within the default 200 sweeps.
  EXPECT_GE(converged, 270);
  EXPECT_GT(started, 0);
}

}  // namespace
}  // namespace carom::core::contact
