#include "carom/core/contact/persistent_contact.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "carom/error.h"
#include "contact_scenes.h"
#include "support/random.h"

namespace carom::core::contact {
namespace {

using impact::ContactBody;

using namespace test_scenes;

TEST(PersistentContact, ABoxAtRestStaysAtRestAndCarriesItsWeight) {
  // After one step of gravity the box moves down at g h; the contacts take exactly m g h.
  BoxOnGround box(Vec3(0, 0, -kG * kH), Vec3::Zero(), 0.5);
  const PersistentContactReport report = solvePersistentContacts(box.bodies, box.contacts);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LE(box.bodies[0].linearVelocity.norm(), 1e-12);
  EXPECT_LE(box.bodies[0].angularVelocity.norm(), 1e-12);
  Vec3 total = Vec3::Zero();
  for (const PersistentContact& c : box.contacts) {
    EXPECT_GE(c.impulse.z(), 0.0);
    total += c.impulse;
  }
  EXPECT_NEAR(total.z(), box.mass * kG * kH, 1e-12);
  EXPECT_NEAR(total.head<2>().norm(), 0.0, 1e-12);
  EXPECT_LE(report.energyChange, 0.0);
}

TEST(PersistentContact, ASlidingBoxDeceleratesAtMuG) {
  const double mu = 0.3, speed = 1.0;
  BoxOnGround box(Vec3(speed, 0, -kG * kH), Vec3::Zero(), mu);
  const PersistentContactReport report = solvePersistentContacts(box.bodies, box.contacts);
  ASSERT_TRUE(report.ok()) << report.message;
  // Over one step: Δv = −μ g h along the slip, no vertical motion; friction acting below the
  // centre of mass tips the box forward, which the contact distribution absorbs (no spin).
  EXPECT_NEAR(box.bodies[0].linearVelocity.x(), speed - mu * kG * kH, 1e-9);
  EXPECT_NEAR(box.bodies[0].linearVelocity.y(), 0.0, 1e-12);
  EXPECT_NEAR(box.bodies[0].linearVelocity.z(), 0.0, 1e-9);
  EXPECT_LE(box.bodies[0].angularVelocity.norm(), 1e-9);
  EXPECT_LT(report.energyChange, 0.0);
  for (const PersistentContact& c : box.contacts) {
    EXPECT_LE(c.impulse.head<2>().norm(), mu * c.impulse.z() * (1.0 + 1e-9));
  }
}

TEST(PersistentContact, ABoxOnAnInclineSticksOnlyWhenMuExceedsTheSlope) {
  const double slope = 0.3;  // rad; tan = 0.309
  const Vec3 up(-std::sin(slope), 0.0, std::cos(slope));
  const Vec3 gravityStep = Vec3(0, 0, -kG * kH);
  for (double mu : {0.5, 0.2}) {
    BoxOnGround box(gravityStep, Vec3::Zero(), mu, up);
    const PersistentContactReport report = solvePersistentContacts(box.bodies, box.contacts);
    ASSERT_TRUE(report.ok()) << report.message;
    const Vec3 v = box.bodies[0].linearVelocity;
    EXPECT_NEAR(v.dot(up), 0.0, 1e-12);
    if (mu > std::tan(slope)) {
      EXPECT_LE(v.norm(), 1e-12) << "mu " << mu;
    } else {  // slides down at g(sin θ − μ cos θ)
      EXPECT_NEAR(v.norm(), kG * kH * (std::sin(slope) - mu * std::cos(slope)), 1e-9);
      EXPECT_LT(v.x(), 0.0);  // downhill
    }
  }
}

TEST(PersistentContact, SeparatingContactsTakeNoImpulse) {
  BoxOnGround box(Vec3(0.2, 0, 0.5), Vec3::Zero(), 0.5);
  const Vec3 before = box.bodies[0].linearVelocity;
  const PersistentContactReport report = solvePersistentContacts(box.bodies, box.contacts);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(box.bodies[0].linearVelocity, before);
  for (const PersistentContact& c : box.contacts)
    EXPECT_EQ(c.impulse, Vec3::Zero());
}

// A speculative contact (a gap short of touching) may still close at its allowance c: a box
// falling slower takes no impulse; one falling faster is slowed to exactly c, and loses energy.
TEST(PersistentContact, AnAllowedApproachIsStoppedOnlyBeyondIt) {
  for (const double fall : {0.05, 0.3}) {
    BoxOnGround box(Vec3(0.3, 0, -fall), Vec3::Zero(), 0.5);
    for (PersistentContact& c : box.contacts)
      c.approach = 0.1;
    const PersistentContactReport report =
        solvePersistentContacts(box.bodies, box.contacts, {5000, 1e-12});
    ASSERT_TRUE(report.ok()) << fall;
    EXPECT_NEAR(box.bodies[0].linearVelocity.z(), -std::min(fall, 0.1), 1e-12) << fall;
    EXPECT_LE(report.penetrationRate, 1e-12);
    EXPECT_LE(report.energyChange, 0.0);
    if (fall < 0.1) {
      EXPECT_EQ(box.bodies[0].linearVelocity, Vec3(0.3, 0, -fall));
      for (const PersistentContact& c : box.contacts)
        EXPECT_EQ(c.impulse, Vec3::Zero());
    } else {
      // Sliding on, it loses μ P_n / m = μ (0.3 − 0.1) of its speed to friction.
      EXPECT_NEAR(box.bodies[0].linearVelocity.x(), 0.3 - 0.5 * 0.2, 1e-9);
    }
  }
}

// A negative allowance is a separation the contact must reach (a hold against a turning normal):
// the box, falling at 0.05 m/s, leaves the ground at 0.1 m/s, pushed by no more than that takes.
TEST(PersistentContact, ANegativeAllowanceIsASeparationReached) {
  BoxOnGround box(Vec3(0.3, 0, -0.05), Vec3::Zero(), 0.5);
  for (PersistentContact& c : box.contacts)
    c.approach = -0.1;
  const PersistentContactReport report =
      solvePersistentContacts(box.bodies, box.contacts, {5000, 1e-12});
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_NEAR(box.bodies[0].linearVelocity.z(), 0.1, 1e-12);
  EXPECT_LE(report.penetrationRate, 1e-12);
  double pushed = 0;
  for (const PersistentContact& c : box.contacts)
    pushed += c.impulse.z();
  EXPECT_NEAR(pushed, box.mass * 0.15, 1e-9);
  // Sliding on, it loses μ ΣP_n / m = 0.5 · 0.15 of its speed to friction.
  EXPECT_NEAR(box.bodies[0].linearVelocity.x(), 0.3 - 0.5 * 0.15, 1e-9);
}

TEST(PersistentContact, RandomStacksSatisfyTheContactConditionsWithoutGainingEnergy) {
  // Random bodies pressed into each other and the ground at random points: at the solution, no
  // contact approaches, impulses lie in their cones, complementarity holds, energy does not rise.
  test::Random random(77);
  int converged = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomStack stack(random);
    std::vector<ContactBody>& bodies = stack.bodies;
    std::vector<PersistentContact>& contacts = stack.contacts;
    const PersistentContactReport report = solvePersistentContacts(bodies, contacts);
    if (!report.ok()) continue;  // counted below
    ++converged;
    expectContactConditions(report, contacts, trial);
  }
  // Random points and normals make badly conditioned, often redundant systems; measured:
  // 281 of 300 converge to 1e-12 m/s within the default 200 sweeps.
  EXPECT_GE(converged, 270);
}

TEST(PersistentContact, WarmStartingFromTheSolutionConvergesInOneSweep) {
  BoxOnGround cold(Vec3(0.4, -0.2, -kG * kH), Vec3(0.1, 0.0, 0.3), 0.4);
  BoxOnGround warm = cold;
  const PersistentContactReport first = solvePersistentContacts(cold.bodies, cold.contacts);
  ASSERT_TRUE(first.ok());
  for (std::size_t i = 0; i < warm.contacts.size(); ++i) {
    warm.contacts[i].impulse = cold.contacts[i].impulse;
  }
  const PersistentContactReport second = solvePersistentContacts(warm.bodies, warm.contacts);
  ASSERT_TRUE(second.ok());
  EXPECT_LT(second.iterations, first.iterations);
  EXPECT_LE(second.iterations, 2);
  EXPECT_LE((warm.bodies[0].linearVelocity - cold.bodies[0].linearVelocity).norm(), 1e-9);
}

TEST(PersistentContact, ADisturbanceIsSolvedWhereItIsAndTheRestKeepsItsWarmStart) {
  // Twenty boxes on the ground, sliding and turning, warm-started from their solution, one of them
  // now pushed down: its contacts take the push, and the others' impulses stay as they were.
  std::vector<ContactBody> bodies;
  std::vector<PersistentContact> contacts;
  for (int k = 0; k < 20; ++k) {
    BoxOnGround box(Vec3(0.1 * k, 0.0, -kG * kH), Vec3(0.0, 0.0, 0.02 * k), 0.5);
    for (PersistentContact c : box.contacts) {
      c.bodyB = k;
      contacts.push_back(c);
    }
    bodies.push_back(box.bodies[0]);
  }
  const std::vector<ContactBody> before = bodies;
  ASSERT_TRUE(solvePersistentContacts(bodies, contacts).ok());
  const std::vector<ContactBody> after = bodies;
  const std::vector<PersistentContact> solved = contacts;
  bodies = before;
  bodies[7].linearVelocity.z() -= 0.1;
  const PersistentContactReport report = solvePersistentContacts(bodies, contacts);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LE(report.penetrationRate, 1e-12);
  EXPECT_LE(report.energyChange, 0.0);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (contacts[i].bodyB != 7) {
      EXPECT_LE((contacts[i].impulse - solved[i].impulse).norm(), 1e-12) << i;
    }
  }
  // The pushed box (mass 2) is stopped as it was without the push, its contacts taking the extra
  // 0.2 N s, and slides on slower, its friction grown with its normal impulse.
  EXPECT_NEAR(bodies[7].linearVelocity.z(), after[7].linearVelocity.z(), 1e-9);
  EXPECT_LT(bodies[7].linearVelocity.x(), after[7].linearVelocity.x() - 0.01);
  double extra = 0.0;
  for (std::size_t i = 28; i < 32; ++i)
    extra += (contacts[i].impulse - solved[i].impulse).z();
  EXPECT_NEAR(extra, 2.0 * 0.1, 1e-9);
}

// The cold tower solved `with` a setting and without it: the first tower and both reports.
struct ColdTowers {
  Tower with;
  PersistentContactReport fast, slow;
};
ColdTowers coldTowers(const PersistentContactSettings& with,
                      const PersistentContactSettings& without, const char* setting) {
  ColdTowers towers;
  Tower other;
  towers.fast = solvePersistentContacts(towers.with.bodies, towers.with.contacts, with);
  towers.slow = solvePersistentContacts(other.bodies, other.contacts, without);
  std::printf("cold tower of %d boxes: %d sweeps with %s, %d without\n", Tower::kLevels,
              towers.fast.iterations, setting, towers.slow.iterations);
  return towers;
}

TEST(PersistentContact, MomentumCarriesTheLoadsDownAStackInFewerSweeps) {
  PersistentContactSettings plain;
  plain.maxIterations = 20000;
  plain.momentum = false;
  PersistentContactSettings momentum = plain;
  momentum.momentum = true;
  // Measured: 1620 and 5096 sweeps to the 1e-12 m/s tolerance (with ten boxes, 11 228 sweeps, and
  // no convergence without it in 20 000).
  const auto [withMomentum, fast, slow] = coldTowers(momentum, plain, "momentum");
  ASSERT_TRUE(fast.ok()) << fast.message;
  ASSERT_TRUE(slow.ok()) << slow.message;
  EXPECT_LT(2 * fast.iterations, slow.iterations);
  EXPECT_LE(fast.energyChange, 0.0);
  EXPECT_LE(fast.penetrationRate, 1e-8);
  expectTowerAtRest(withMomentum, Tower::kLevels, 1e-8);
}

// One corner of a box pressed into the ground and sliding: with its lever arm the normal
// and tangential rows are coupled (K_nt ≠ 0). The sticking block solves the contact's 3×3 problem
// in one local solve; the staggered step's friction update leaves its normal velocity off again.
TEST(PersistentContact, AStickingBlockStopsItsContactInOneLocalSolve) {
  for (const bool blocks : {true, false}) {
    BoxOnGround box(Vec3(0.05, -0.02, -0.5), Vec3(0.1, 0.0, 0.3), 5.0);
    box.contacts.resize(1);
    box.contacts[0].approach = 0.01;
    PersistentContactSettings one;
    one.maxIterations = 1;
    one.stickingBlocks = blocks;
    solvePersistentContacts(box.bodies, box.contacts, one);
    const PersistentContact& c = box.contacts[0];
    const Vec3 u = impact::relativeVelocity({ContactBody{}, box.bodies[0], c.point, c.normal});
    const double pressed = c.impulse.dot(c.normal);
    ASSERT_GT(pressed, 0.0);
    ASSERT_LT((c.impulse - pressed * c.normal).norm(), c.friction * pressed);  // it sticks
    if (blocks) {
      EXPECT_NEAR(u.dot(c.normal), -c.approach, 1e-15);
      EXPECT_NEAR((u - u.dot(c.normal) * c.normal).norm(), 0.0, 1e-15);
    } else {  // the case discriminates: the staggered step is still off
      EXPECT_GT(std::abs(u.dot(c.normal) + c.approach), 1e-4);
    }
  }
}

// The cold tower, whose redundant corners' friction the staggered sweeps cycle on: with sticking
// blocks the same solution in fewer sweeps (measured: 1264 against 1620).
TEST(PersistentContact, StickingBlocksBringTheColdTowerToRestInFewerSweeps) {
  PersistentContactSettings staggered;
  staggered.maxIterations = 20000;
  PersistentContactSettings blocks = staggered;
  blocks.stickingBlocks = true;
  const auto [withBlocks, fast, slow] = coldTowers(blocks, staggered, "sticking blocks");
  ASSERT_TRUE(fast.ok()) << fast.message;
  ASSERT_TRUE(slow.ok()) << slow.message;
  EXPECT_LT(fast.iterations, slow.iterations);
  EXPECT_LE(fast.energyChange, 0.0);
  EXPECT_LE(fast.penetrationRate, 1e-8);
  expectTowerAtRest(withBlocks, Tower::kLevels, 1e-8);
}

TEST(PersistentContact, ReportsTheSweepCap) {
  BoxOnGround box(Vec3(0.4, -0.2, -kG * kH), Vec3(0.1, 0.0, 0.3), 0.4);
  PersistentContactSettings one;
  one.maxIterations = 1;
  const PersistentContactReport report = solvePersistentContacts(box.bodies, box.contacts, one);
  EXPECT_EQ(report.status, PersistentContactStatus::kIterationLimit);
  EXPECT_FALSE(report.message.empty());
}

// Solves `stack` expecting a stall within `most` sweeps whose message has `words`, the velocities
// the last sweep's: on their way to rest, and no energy gained.
void expectStall(HeavyOnLight& stack, const PersistentContactSettings& settings, int most,
                 const std::string& words) {
  const double before = stack.bodies[1].linearVelocity.z();
  const PersistentContactReport report =
      solvePersistentContacts(stack.bodies, stack.contacts, settings);
  EXPECT_EQ(report.status, PersistentContactStatus::kStalled);
  EXPECT_LE(report.iterations, most);
  EXPECT_NE(report.message.find(words), std::string::npos) << report.message;
  EXPECT_GT(stack.bodies[1].linearVelocity.z(), before);
  EXPECT_LE(report.energyChange, 0.0);
}

TEST(PersistentContact, ReportsAStallLongBeforeTheSweepCap) {
  PersistentContactSettings settings;
  settings.maxIterations = 100000;
  settings.stallSweeps = 64;
  HeavyOnLight stack(1e5);
  expectStall(stack, settings, 999, "stalled");
  EXPECT_LT(stack.bodies[1].linearVelocity.z(), -1e-6);  // not at rest

  HeavyOnLight even(1.0);  // halves every sweep: converges inside the same window
  const PersistentContactReport converged =
      solvePersistentContacts(even.bodies, even.contacts, settings);
  ASSERT_TRUE(converged.ok()) << converged.message;
  EXPECT_LE(even.bodies[1].linearVelocity.norm(), 1e-12);
}

// Below settledBelow the stall window is settledStallSweeps: a stack that Gauss–Seidel brings to
// rest by 1 % every ten sweeps goes on under the long window and stops at once under a short one,
// with the velocities the last sweep left.
TEST(PersistentContact, StopsOnTheSettledWindowBelowItsLevel) {
  PersistentContactSettings settings;
  settings.maxIterations = 100000;
  settings.momentum = false;  // plain Gauss–Seidel: 1 − 1e-3 per sweep under a 1,000 times heavier
  HeavyOnLight longWindow(1e3);
  const PersistentContactReport converged =
      solvePersistentContacts(longWindow.bodies, longWindow.contacts, settings);
  ASSERT_TRUE(converged.ok()) << converged.message;
  EXPECT_GT(converged.iterations, 1000);

  settings.settledBelow = 1.0;  // m/s, above every change of the solve
  settings.settledStallSweeps = 4;
  HeavyOnLight shortWindow(1e3);
  expectStall(shortWindow, settings, 16, "in 4)");

  settings.settledBelow = 1e-13;  // below the tolerance: never reached
  HeavyOnLight unreached(1e3);
  const PersistentContactReport same =
      solvePersistentContacts(unreached.bodies, unreached.contacts, settings);
  ASSERT_TRUE(same.ok()) << same.message;
  EXPECT_EQ(same.iterations, converged.iterations);
}

TEST(PersistentContact, RefusesBadInputAndChangesNothing) {
  const auto refuses = [](auto mutate) {
    BoxOnGround box(Vec3(0, 0, -1), Vec3::Zero(), 0.5);
    mutate(box);
    const std::vector<ContactBody> bodies = box.bodies;
    EXPECT_THROW(solvePersistentContacts(box.bodies, box.contacts), Error);
    EXPECT_EQ(box.bodies[0].linearVelocity, bodies[0].linearVelocity);
  };
  refuses([](BoxOnGround& b) { b.contacts[1].bodyB = 3; });
  refuses([](BoxOnGround& b) { b.contacts[1].bodyA = b.contacts[1].bodyB; });
  refuses([](BoxOnGround& b) { b.contacts[2].friction = -0.1; });
  refuses([](BoxOnGround& b) { b.contacts[3].approach = std::nan(""); });
  refuses([](BoxOnGround& b) { b.contacts[3].approach = std::numeric_limits<double>::infinity(); });
  refuses([](BoxOnGround& b) { b.contacts[2].normal = Vec3(0, 0, 2); });
  refuses([](BoxOnGround& b) { b.contacts[0].impulse.x() = std::nan(""); });
  refuses([](BoxOnGround& b) { b.bodies[0].inverseMass = -1.0; });
  BoxOnGround box(Vec3(0, 0, -1), Vec3::Zero(), 0.5);
  PersistentContactSettings bad;
  bad.tolerance = 0.0;
  EXPECT_THROW(solvePersistentContacts(box.bodies, box.contacts, bad), Error);
  bad = {};
  bad.stallSweeps = 0;
  EXPECT_THROW(solvePersistentContacts(box.bodies, box.contacts, bad), Error);
  bad = {};
  bad.settledStallSweeps = 0;
  EXPECT_THROW(solvePersistentContacts(box.bodies, box.contacts, bad), Error);
  for (const double level : {-1e-9, std::nan(""), std::numeric_limits<double>::infinity()}) {
    bad = {};
    bad.settledBelow = level;
    EXPECT_THROW(solvePersistentContacts(box.bodies, box.contacts, bad), Error);
  }
}

}  // namespace
}  // namespace carom::core::contact
