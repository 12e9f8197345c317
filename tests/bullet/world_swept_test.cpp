// Swept detection in variational mode: a body fast enough to pass through a thin one within a step
// (both apart at the step's start and at its trial end) strikes it at the instant they touch.
// Issue 31's case: a 1 cm ball at 300 m/s (5 m per 60 Hz step) and at 1e4 m/s against a 1 cm wall.
#include <gtest/gtest.h>

#include "bullet/world_scene.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;
constexpr double kRadius = 0.005;    // m: a 1 cm ball
constexpr double kHalfWall = 0.005;  // m: a 1 cm wall, its faces at x = ±kHalfWall
constexpr double kStart = -0.5;      // m: the ball's centre at the start

// One step of the ball at `speed` (m/s, towards +x) against the wall, elastic and frictionless.
void expectTheBallToBounceOffTheWall(double speed) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0, 0.0));
  scene.world().setGravity(btVector3(0, 0, 0));
  btRigidBody* wall = scene.add(new btBoxShape(btVector3(kHalfWall, 1, 1)), 0, btVector3(0, 0, 0));
  scene.world().setMaterial(wall, "test");
  btRigidBody* ball =
      scene.add(new btSphereShape(kRadius), 1.0, btVector3(kStart, 0, 0), btVector3(speed, 0, 0));
  scene.world().setMaterial(ball, "test");
  scene.world().stepSimulation(kH, 1, kH);

  // It meets the wall's face when it has covered the distance between them, and comes back at the
  // same speed over the rest of the step.
  const double meets = (-kHalfWall - kRadius - kStart) / speed;  // s
  ASSERT_EQ(scene.world().getImpactEvents().size(), 1u);
  EXPECT_NEAR(scene.world().getImpactEvents()[0].time, meets, 1e-12);
  EXPECT_NEAR(ball->getLinearVelocity().x(), -speed, 1e-9 * speed);
  EXPECT_NEAR(ball->getCenterOfMassPosition().x(), -kHalfWall - kRadius - speed * (kH - meets),
              1e-9 * speed);
}

TEST(DynamicsWorldSwept, AFastBallBouncesOffAThinWall) {
  expectTheBallToBounceOffTheWall(300);
}

TEST(DynamicsWorldSwept, AFasterBallBouncesOffAThinWall) {
  expectTheBallToBounceOffTheWall(1e4);
}

// Passing a thin wall at the side, as fast, strikes nothing: the swept search finds no touch.
TEST(DynamicsWorldSwept, AFastBallPassingBesideAThinWallFliesOn) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0, 0.0));
  scene.world().setGravity(btVector3(0, 0, 0));
  scene.world().setMaterial(
      scene.add(new btBoxShape(btVector3(kHalfWall, 1, 1)), 0, btVector3(0, 0, 0)), "test");
  // 1 mm beside the wall's edge at y = 1.
  const btVector3 start(kStart, 1 + kRadius + 1e-3, 0);
  btRigidBody* ball = scene.add(new btSphereShape(kRadius), 1.0, start, btVector3(300, 0, 0));
  scene.world().setMaterial(ball, "test");
  scene.world().stepSimulation(kH, 1, kH);
  EXPECT_TRUE(scene.world().getImpactEvents().empty());
  EXPECT_NEAR(ball->getCenterOfMassPosition().x(), kStart + 300 * kH, 1e-9);
}

}  // namespace
}  // namespace carom
