// The persistent-contact solver with subspace minimisation (PersistentContactSettings::
// subspaceSolves): the same solutions as plain Gauss–Seidel, reached where Gauss–Seidel crawls.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "carom/core/contact/persistent_contact.h"
#include "carom/error.h"
#include "contact_scenes.h"
#include "support/random.h"

namespace carom::core::contact {
namespace {

using namespace test_scenes;

PersistentContactSettings withSubspace(
    int solves = 8, SubspaceMethod method = SubspaceMethod::kConjugateGradients) {
  PersistentContactSettings settings;
  settings.maxIterations = 20000;
  settings.subspaceSolves = solves;
  settings.subspaceMethod = method;
  return settings;
}

TEST(SubspaceSolve, ATenBoxTowerComesToRestInTensOfSweeps) {
  // Measured with plain Gauss–Seidel and momentum: 11 228 sweeps to the 1e-12 m/s tolerance.
  constexpr int kLevels = 10;
  Tower tower(kLevels);
  const PersistentContactReport report =
      solvePersistentContacts(tower.bodies, tower.contacts, withSubspace());
  std::printf("cold tower of %d boxes: %d sweeps, %d subspace solves\n", kLevels, report.iterations,
              report.subspaceSolves);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GE(report.subspaceSolves, 1);
  EXPECT_LE(report.iterations, 100);
  EXPECT_LE(report.energyChange, 0.0);
  EXPECT_LE(report.penetrationRate, 1e-12);
  expectTowerAtRest(tower, kLevels, 1e-10);
}

TEST(SubspaceSolve, OneDirectSolveHoldsAFiftyBoxTower) {
  // Every corner pressed and sticking after the first sweeps: the active set is right, and the
  // direct solve (exact on it) leaves only round-off; conjugate gradients within its 32 products
  // would still be carrying the weight down 50 levels.
  constexpr int kLevels = 50;
  Tower tower(kLevels);
  const PersistentContactReport report = solvePersistentContacts(
      tower.bodies, tower.contacts, withSubspace(1, SubspaceMethod::kDirect));
  std::printf("cold tower of %d boxes: %d sweeps\n", kLevels, report.iterations);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(report.subspaceSolves, 1);
  EXPECT_LE(report.iterations, 16);
  expectTowerAtRest(tower, kLevels, 1e-10);
}

TEST(SubspaceSolve, AHeavyBlockOnALightOneConvergesWhereGaussSeidelStalls) {
  PersistentContactSettings settings = withSubspace();
  settings.stallSweeps = 64;
  HeavyOnLight stack(1e5);
  const PersistentContactReport report =
      solvePersistentContacts(stack.bodies, stack.contacts, settings);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LE(report.iterations, 40);
  for (const ContactBody& block : stack.bodies)
    EXPECT_LE(block.linearVelocity.norm(), 1e-11);
  // The ground carries both blocks' momentum g h, the block between them the heavy one's.
  EXPECT_NEAR(stack.contacts[0].impulse.z(), (1.0 + 1e5) * kG * kH, 1e-9 * 1e5);
  EXPECT_NEAR(stack.contacts[1].impulse.z(), 1e5 * kG * kH, 1e-9 * 1e5);
}

TEST(SubspaceSolve, DirectSolvesHoldABlockAMillionTimesHeavierThanTheOneUnderIt) {
  // Gauss–Seidel converges at 1 − 1e-6 per sweep here; the direct step's regularisation (1e-12 of
  // the light block's scale) perturbs the heavy one's by 1e-6 and its refinements take that out
  // (at 1e8 the velocities are left at 5e-11 m/s).
  constexpr double kHeavy = 1e6;
  HeavyOnLight stack(kHeavy);
  const PersistentContactReport report = solvePersistentContacts(
      stack.bodies, stack.contacts, withSubspace(8, SubspaceMethod::kDirect));
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LE(report.iterations, 40);
  for (const ContactBody& block : stack.bodies)
    EXPECT_LE(block.linearVelocity.norm(), 1e-11);
  EXPECT_NEAR(stack.contacts[0].impulse.z(), (1.0 + kHeavy) * kG * kH, 1e-9 * kHeavy);
  EXPECT_NEAR(stack.contacts[1].impulse.z(), kHeavy * kG * kH, 1e-9 * kHeavy);
}

TEST(SubspaceSolve, SlidingAndTurningCornersKeepCoulombsLaw) {
  // A box sliding and turning on four corners, its corners on the ground: the solution the
  // subspace solves reach stops the fall and slides every corner against its own slip at μ times
  // its load (the redundant corners' loads need not be Gauss–Seidel's, nor the velocities then).
  constexpr double kMu = 0.4;
  BoxOnGround box(Vec3(0.4, -0.2, -kG * kH), Vec3(0.1, 0.0, 0.3), kMu);
  const PersistentContactReport report =
      solvePersistentContacts(box.bodies, box.contacts, withSubspace());
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LE(report.energyChange, 0.0);
  const ContactBody& body = box.bodies[0];
  for (const PersistentContact& c : box.contacts) {
    const Vec3 u = body.linearVelocity + body.angularVelocity.cross(c.point - body.centerOfMass);
    const double un = u.dot(c.normal), pn = c.impulse.dot(c.normal);
    const Vec3 slip = u - un * c.normal, friction = c.impulse - pn * c.normal;
    EXPECT_GE(un, -1e-12);
    EXPECT_LE(std::abs(un * pn), 1e-12);
    if (slip.norm() > 1e-9)
      EXPECT_LE((friction + kMu * pn * slip.normalized()).norm(), 1e-9);
    else
      EXPECT_LE(friction.norm(), kMu * pn + 1e-12);
  }
}

TEST(SubspaceSolve, RandomStacksSatisfyTheContactConditionsWithoutGainingEnergy) {
  // Random bodies pressed into each other and the ground at random points, as the plain solver's
  // test has them: at the solution no contact approaches, impulses lie in their cones, energy does
  // not rise; and at least as many converge as with Gauss–Seidel alone in the same sweeps.
  test::Random random(77);
  int converged = 0, convergedPlain = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomStack stack(random);
    std::vector<ContactBody>& bodies = stack.bodies;
    std::vector<PersistentContact>& contacts = stack.contacts;
    std::vector<ContactBody> plainBodies = bodies;
    std::vector<PersistentContact> plainContacts = contacts;
    convergedPlain += solvePersistentContacts(plainBodies, plainContacts).ok();
    PersistentContactSettings settings;  // the default 200 sweeps, as the plain solve's
    settings.subspaceSolves = 8;
    const PersistentContactReport report = solvePersistentContacts(bodies, contacts, settings);
    if (!report.ok()) continue;
    ++converged;
    expectContactConditions(report, contacts, trial);
  }
  std::printf("random stacks converged: %d with subspace solves, %d without\n", converged,
              convergedPlain);
  EXPECT_GE(converged, convergedPlain);
}

TEST(SubspaceSolve, AWarmStartFromTheSolutionTakesNone) {
  Tower cold(5);
  ASSERT_TRUE(solvePersistentContacts(cold.bodies, cold.contacts, withSubspace()).ok());
  Tower warm(5);
  for (std::size_t i = 0; i < warm.contacts.size(); ++i)
    warm.contacts[i].impulse = cold.contacts[i].impulse;
  const PersistentContactReport report =
      solvePersistentContacts(warm.bodies, warm.contacts, withSubspace());
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LE(report.iterations, 2);
  EXPECT_EQ(report.subspaceSolves, 0);
}

TEST(SubspaceSolve, RefusesANegativeBudget) {
  Tower tower(1);
  PersistentContactSettings settings;
  settings.subspaceSolves = -1;
  const std::vector<ContactBody> before = tower.bodies;
  EXPECT_THROW(solvePersistentContacts(tower.bodies, tower.contacts, settings), Error);
  EXPECT_EQ(tower.bodies[0].linearVelocity, before[0].linearVelocity);
}

}  // namespace
}  // namespace carom::core::contact
