// Gap drift in variational mode, corrected without injecting energy (world_drift.cpp): an overlap
// deeper than 10 µm at the end of a step is pushed open by positions only, a fifth of it per step,
// and the lift's potential energy is taken from the island's kinetic energy; an island with none
// to give keeps its overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bullet/world_scene.h"
#include "carom/bullet/gap.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;
constexpr double kG = 9.81;

struct BallInTheGround {
  test::Scene<DynamicsWorld> scene{
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kNewton, 0.0, 0.0)};
  btRigidBody* ground = scene.addGround();
  btRigidBody* ball;

  // A frictionless 1 kg ball of radius 0.1 m, 2 cm into the ground, sliding at `speed`. A ball
  // added there would be refused (world_overlaps.cpp): it is added touching the ground, and put
  // into it after a first step, as a step that leaves an overlap would.
  explicit BallInTheGround(double speed)
      : ball(scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 0.1, 0), btVector3(speed, 0, 0))) {
    scene.world().setMaterial(ground, "test");
    scene.world().setMaterial(ball, "test");
    scene.world().stepSimulation(kH, 1, kH);
    btTransform sunk = ball->getCenterOfMassTransform();
    sunk.getOrigin().setY(0.08);
    ball->setCenterOfMassTransform(sunk);
    ball->setLinearVelocity(btVector3(speed, 0, 0));
  }
  double energy() const {
    return 0.5 * ball->getLinearVelocity().length2() +
           kG * (ball->getCenterOfMassPosition().y() - 0.1);
  }
  double depth() const { return 0.1 - ball->getCenterOfMassPosition().y(); }
};

// Left alone, it stayed 2 cm deep (measured: its slack kept the overlap as a contact).
TEST(Drift, ASlidingBallIsPushedOutOfTheGroundPayingWithItsSpeed) {
  BallInTheGround sliding(1.0);
  const double initial = sliding.energy();
  double highest = initial;
  int corrected = 0;
  for (int i = 0; i < 120; ++i) {
    sliding.scene.world().stepSimulation(kH, 1, kH);
    highest = std::max(highest, sliding.energy());
    corrected += sliding.scene.world().getLastStepDiagnostics().driftCorrections;
  }
  std::printf("[ measured ] depth %.3e m after 120 steps, %d corrections, speed %.4f m/s\n",
              sliding.depth(), corrected, sliding.ball->getLinearVelocity().length());
  EXPECT_LT(sliding.depth(), 2e-5);
  EXPECT_GT(corrected, 0);
  EXPECT_LE(highest - initial, 1e-12 * std::abs(initial));
  // What the lift cost, 0.196 J of its 0.5 J, came out of its speed: √(2 · 0.304) m/s.
  EXPECT_NEAR(sliding.ball->getLinearVelocity().length(), std::sqrt(2 * (0.5 - kG * 0.02)), 1e-3);
}

TEST(Drift, ABallAtRestInTheGroundKeepsItsOverlap) {
  BallInTheGround resting(0.0);
  const double initial = resting.energy();
  for (int i = 0; i < 60; ++i) {
    resting.scene.world().stepSimulation(kH, 1, kH);
    ASSERT_LE(resting.energy() - initial, 1e-12) << "step " << i;
  }
  EXPECT_NEAR(resting.depth(), 0.02, 1e-6);
}

}  // namespace
}  // namespace carom
