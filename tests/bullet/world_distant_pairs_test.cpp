// Distant pairs in variational mode (world_distant_pairs.cpp): two bodies whose swept AABBs
// overlap but whose bounding spheres stay more than 4 cm apart over the step join no island, and a
// struck body that turns towards a distant partner wakes their pair: the partner joins its island,
// or its island runs again with it. A body and a static plane or box whose face planes it stays
// beyond over the step are distant too.
// Equal elastic balls struck head on exchange their velocities.
#include <gtest/gtest.h>

#include <cmath>

#include "bullet/world_scene.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;

using Scene = test::Scene<DynamicsWorld>;

Config elastic() {
  return test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0);
}

btRigidBody* addBall(Scene& scene, const btVector3& at, const btVector3& velocity) {
  btRigidBody* ball = scene.add(new btSphereShape(0.1), 1.0, at, velocity);
  scene.world().setMaterial(ball, "test");
  return ball;
}

// Along the diagonal of the x–y plane, 7.2 m/s: C strikes A 1 cm ahead, which strikes B, 5.5 cm
// beyond touching (0.18 m along each axis: their AABBs overlap, their spheres stay apart while A
// is at rest). C's own free flight stops 4 cm short of B's sphere, so at the start of the step
// the pair A–B is distant and B in no island.
struct DiagonalStrike {
  static constexpr double kSpeed = 7.2;                                         // m/s
  static constexpr double kFirstGap = 0.01, kSecondGap = 0.18 * M_SQRT2 - 0.2;  // m
  btVector3 along = btVector3(1, 1, 0).normalized();
  btRigidBody* c;
  btRigidBody* a;
  btRigidBody* b;

  explicit DiagonalStrike(Scene& scene) {
    c = addBall(scene, -(0.2 + kFirstGap) * along, kSpeed * along);
    a = addBall(scene, btVector3(0, 0, 0), btVector3(0, 0, 0));
    b = addBall(scene, btVector3(0.18, 0.18, 0), btVector3(0, 0, 0));
  }

  void expectExchanges(Scene& scene) const {
    const auto& events = scene.world().getImpactEvents();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_NEAR(events[0].time, kFirstGap / kSpeed, 1e-9);
    EXPECT_NEAR(events[1].time, (kFirstGap + kSecondGap) / kSpeed, 1e-9);
    EXPECT_NEAR(c->getLinearVelocity().length(), 0.0, 1e-9);
    EXPECT_NEAR(a->getLinearVelocity().length(), 0.0, 1e-9);
    EXPECT_NEAR((b->getLinearVelocity() - kSpeed * along).length(), 0.0, 1e-9);
    // B leaves at the second instant from where it stood.
    const btVector3 end =
        btVector3(0.18, 0.18, 0) + kSpeed * (kH - (kFirstGap + kSecondGap) / kSpeed) * along;
    EXPECT_NEAR((b->getCenterOfMassPosition() - end).length(), 0.0, 1e-9);
  }
};

TEST(DistantPairs, AStruckBallWakesItsDistantPartnerInFreeFlight) {
  Scene scene(elastic());
  scene.world().setGravity(btVector3(0, 0, 0));
  const DiagonalStrike strike(scene);
  scene.world().stepSimulation(kH, 1, kH);
  strike.expectExchanges(scene);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().islandsJoined, 0);
}

// B touches a fourth ball D across the diagonal, so B and D are an island of their own: A, struck,
// reaches another island's body, and the two islands run again from the start of the step as one.
// D touches B at right angles to the strike and stays.
TEST(DistantPairs, AStruckBallWakesItsDistantPartnersIsland) {
  Scene scene(elastic());
  scene.world().setGravity(btVector3(0, 0, 0));
  const DiagonalStrike strike(scene);
  const btVector3 across = btVector3(1, -1, 0).normalized();
  btRigidBody* d = addBall(scene, btVector3(0.18, 0.18, 0) + 0.2 * across, btVector3(0, 0, 0));
  scene.world().stepSimulation(kH, 1, kH);
  strike.expectExchanges(scene);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().islandsJoined, 1);
  EXPECT_NEAR(d->getLinearVelocity().length(), 0.0, 1e-9);
}

// A and B at rest, 8.3 cm apart along the x–y diagonal (a distant pair), each struck at 14 m/s by a
// ball of its own island, upwards and towards the other: their new paths meet 13.6 ms into the
// step, while neither comes within 4 cm of where the other would have stayed. Each run tests its
// struck ball against the other's free flight, widened by how far the other's own run has taken
// it: the second run links the two islands, and the rerun finds the meeting. Tested against free
// flights alone, A and B ended the step 2 cm into each other.
TEST(DistantPairs, TwoBallsStruckInTheirOwnIslandsMeetWithinTheStep) {
  Scene scene(elastic());
  scene.world().setGravity(btVector3(0, 0, 0));
  constexpr double kSpeed = 14.0, kGap = 0.01;
  const btVector3 upA = btVector3(0.05, 0.05, 0.3).normalized();
  const btVector3 upB = btVector3(-0.05, -0.05, 0.3).normalized();
  const btVector3 atA(0, 0, 0), atB(0.2, 0.2, 0);
  btRigidBody* a = addBall(scene, atA, btVector3(0, 0, 0));
  btRigidBody* b = addBall(scene, atB, btVector3(0, 0, 0));
  addBall(scene, atA - (0.2 + kGap) * upA, kSpeed * upA);
  addBall(scene, atB - (0.2 + kGap) * upB, kSpeed * upB);
  const double e0 = test::totalEnergy(scene.world());
  scene.world().stepSimulation(kH, 1, kH);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().islandsJoined, 1);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 3u);
  // The strikes at kGap / kSpeed, then A and B once their centres are 0.2 m apart.
  const double strike = kGap / kSpeed;
  const double closing = kSpeed * (upA - upB).dot((atB - atA).normalized());  // m/s
  const double meeting = strike + ((atB - atA).length() - 0.2) / closing;
  EXPECT_NEAR(events[2].time, meeting, 1e-9);
  // Equal elastic balls, struck along the line of centres: they exchange its components.
  EXPECT_NEAR((a->getLinearVelocity() - kSpeed * upB).length(), 0.0, 1e-9);
  EXPECT_NEAR((b->getLinearVelocity() - kSpeed * upA).length(), 0.0, 1e-9);
  EXPECT_GE((b->getCenterOfMassPosition() - a->getCenterOfMassPosition()).length(), 0.2 - 1e-9);
  EXPECT_NEAR(test::totalEnergy(scene.world()), e0, 1e-12 * e0);
}

// A ball at rest on the ground while another flies past at 20 m/s, 5.5 cm beyond touching at its
// nearest (their AABBs overlap): joined, the fast pair would make the island's run search the
// step for impacts; apart, the ball on the ground is an island at rest, held once, and the flier
// flies free (its pair with the ground is distant too). Restitution 0.5: an elastic contact is
// held at rest only below 5 cm/s, less than one step's fall under gravity (kRestingSpeed).
TEST(DistantPairs, ABallAtRestBesideAPassingBallIsAnIslandAtRest) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.5));
  scene.world().setMaterial(scene.addGround(), "test");
  btRigidBody* resting = addBall(scene, btVector3(0, 0.1, 0), btVector3(0, 0, 0));
  btRigidBody* passing = addBall(scene, btVector3(-20 * kH / 2, 0.28, 0.18), btVector3(20, 0, 0));
  scene.world().stepSimulation(kH, 1, kH);
  const StepDiagnostics& step = scene.world().getLastStepDiagnostics();
  EXPECT_EQ(step.restingIslands, 1);
  EXPECT_EQ(step.impacts, 0);
  EXPECT_NEAR(resting->getLinearVelocity().length(), 0.0, 1e-12);
  EXPECT_NEAR(resting->getCenterOfMassPosition().y(), 0.1, 1e-12);
  EXPECT_NEAR(passing->getLinearVelocity().x(), 20.0, 1e-12);
}

// A ball flying 30 cm above the ground plane: the plane's AABB is infinite, so stage 3 pairs them,
// but the ball's height over the plane stays beyond its radius and the margin over the step: the
// pair is distant, no gap of it is sought, and the ball flies free.
TEST(DistantPairs, ABallHighAboveTheGroundPlaneHasNoGapSought) {
  Scene scene(elastic());
  scene.world().setMaterial(scene.addGround(), "test");
  btRigidBody* ball = addBall(scene, btVector3(0, 0.4, 0), btVector3(1, 0, 0));
  scene.world().stepSimulation(kH, 1, kH);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().gapQueries, 0);
  EXPECT_NEAR(ball->getLinearVelocity().y(), -9.81 * kH, 1e-12);
}

// A ball at rest 20 cm above the ground (a distant pair with the plane) struck straight down at
// 20 m/s by a ball 1 cm above it, whose own pair with the plane is distant too: the struck ball's
// pair wakes, and it strikes the ground within the step and flies back up.
TEST(DistantPairs, AStruckBallWakesItsDistantPairWithTheGround) {
  Scene scene(elastic());
  scene.world().setGravity(btVector3(0, 0, 0));
  scene.world().setMaterial(scene.addGround(), "test");
  constexpr double kSpeed = 20.0, kGap = 0.01, kHeight = 0.3;
  btRigidBody* a = addBall(scene, btVector3(0, kHeight, 0), btVector3(0, 0, 0));
  btRigidBody* c = addBall(scene, btVector3(0, kHeight + 0.2 + kGap, 0), btVector3(0, -kSpeed, 0));
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 2u);
  const double strike = kGap / kSpeed, landing = strike + (kHeight - 0.1) / kSpeed;
  EXPECT_NEAR(events[0].time, strike, 1e-9);
  EXPECT_NEAR(events[1].time, landing, 1e-9);
  EXPECT_NEAR(c->getLinearVelocity().length(), 0.0, 1e-9);
  EXPECT_NEAR((a->getLinearVelocity() - btVector3(0, kSpeed, 0)).length(), 0.0, 1e-9);
  EXPECT_NEAR(a->getCenterOfMassPosition().y(), 0.1 + kSpeed * (kH - landing), 1e-9);
}

}  // namespace
}  // namespace carom
