// Swept detection in variational mode: a body fast enough to pass through a thin one within a step
// (both apart at the step's start and at its trial end) strikes it at the instant they touch.
// Issue 31's case: a 1 cm ball at 300 m/s (5 m per 60 Hz step) and at 1e4 m/s against a 1 cm wall.
// And a pair whose gap dips below touching inside the step and comes back: a turning box's corner
// through a ball beside it.
#include <gtest/gtest.h>

#include <cmath>

#include "bullet/world_scene.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;
constexpr double kRadius = 0.005;    // m: a 1 cm ball
constexpr double kHalfWall = 0.005;  // m: a 1 cm wall, its faces at x = ±kHalfWall
constexpr double kStart = -0.5;      // m: the ball's centre at the start

// A scene without gravity whose contacts are elastic and frictionless, with the wall.
class WallScene : public test::Scene<DynamicsWorld> {
 public:
  WallScene()
      : test::Scene<DynamicsWorld>(
            test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0, 0.0)) {
    world().setGravity(btVector3(0, 0, 0));
    world().setMaterial(add(new btBoxShape(btVector3(kHalfWall, 1, 1)), 0, btVector3(0, 0, 0)),
                        "test");
  }
  btRigidBody* addBall(const btVector3& position, const btVector3& velocity) {
    btRigidBody* ball = add(new btSphereShape(kRadius), 1.0, position, velocity);
    world().setMaterial(ball, "test");
    return ball;
  }
};

// One step of the ball at `speed` (m/s, towards +x) against the wall.
void expectTheBallToBounceOffTheWall(double speed) {
  WallScene scene;
  btRigidBody* ball = scene.addBall(btVector3(kStart, 0, 0), btVector3(speed, 0, 0));
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
  WallScene scene;
  // 1 mm beside the wall's edge at y = 1.
  const btVector3 start(kStart, 1 + kRadius + 1e-3, 0);
  btRigidBody* ball = scene.addBall(start, btVector3(300, 0, 0));
  scene.world().stepSimulation(kH, 1, kH);
  EXPECT_TRUE(scene.world().getImpactEvents().empty());
  EXPECT_NEAR(ball->getCenterOfMassPosition().x(), kStart + 300 * kH, 1e-9);
}

// Two balls joined by a point joint, flying at 300 m/s as a dumbbell turning at 500 rad/s (50 m/s
// more or less at the balls): the swept search bounds each ball's travel by the pair's centre of
// mass and the energy about it (jointedMotion). With the centre's part alone, the leading ball
// would pass through the wall within the first advance and the trailing one strike it first.
TEST(DynamicsWorldSwept, AFastTurningJointedPairStrikesAThinWall) {
  WallScene scene;
  constexpr double kArm = 0.1, kSpin = 500;  // m from the joint to each ball, rad/s about z
  btRigidBody* balls[2];
  for (int i = 0; i < 2; ++i) {
    const double side = i == 0 ? -1 : 1;  // below or above the joint
    balls[i] = scene.addBall(btVector3(kStart, side * kArm, 0),
                             btVector3(300 - side * kSpin * kArm, 0, 0));
    balls[i]->setAngularVelocity(btVector3(0, 0, kSpin));
  }
  scene.addJoint(new btPoint2PointConstraint(*balls[0], *balls[1], btVector3(0, kArm, 0),
                                             btVector3(0, -kArm, 0)),
                 true);
  scene.world().stepSimulation(kH, 1, kH);
  // Where each ball meets the wall's face turning as a rigid dumbbell: the leading one's touch
  // first; the flow's rotation (0.7 rad in one probe) puts it a little off.
  const auto touch = [&](double side) {
    double early = 0, late = kH;
    for (int i = 0; i < 60; ++i) {
      const double t = 0.5 * (early + late);
      const bool met = kStart + 300 * t + side * kArm * std::sin(kSpin * t) >= -kHalfWall - kRadius;
      (met ? late : early) = t;
    }
    return early;
  };
  const double leading = touch(1), trailing = touch(-1);
  ASSERT_EQ(scene.world().getImpactEvents().size(), 1u);
  EXPECT_NEAR(scene.world().getImpactEvents()[0].time, leading, 0.1 * (trailing - leading));
  for (const btRigidBody* ball : balls)
    EXPECT_LT(ball->getCenterOfMassPosition().x(), -kHalfWall - kRadius);
}

// A ball flying 1 mm over the wall's top is struck from above within the step and sent down into
// the wall's face: the swept search that found it clear of the wall at the step's start no longer
// holds once its path has moved by far more than that millimetre, and the wall is struck at the
// instant the new path reaches it.
TEST(DynamicsWorldSwept, ABallStruckTowardsTheWallItWasPassingStrikesIt) {
  WallScene scene;
  constexpr double kSpeed = 30, kDrop = 2;  // m/s: the ball's along x, the striker's down y
  constexpr double kStruck = 0.005;         // s: when the striker meets it
  const double over = 1 + kRadius + 1e-3;   // m: the ball's height, 1 mm over the wall's top
  btRigidBody* ball = scene.addBall(btVector3(kStart, over, 0), btVector3(kSpeed, 0, 0));
  // The striker straight above the ball at kStruck, touching it then.
  const double x = kStart + kSpeed * kStruck;
  btRigidBody* striker =
      scene.addBall(btVector3(x, over + 2 * kRadius + kDrop * kStruck, 0), btVector3(0, -kDrop, 0));
  scene.world().stepSimulation(kH, 1, kH);

  // Equal balls, elastic and frictionless, struck along y: they trade their velocities along y.
  // The ball, now falling at kDrop, meets the wall's face when it has covered the way along x.
  const double meets = (-kHalfWall - kRadius - kStart) / kSpeed;  // s
  ASSERT_LT(meets, kH);
  ASSERT_LT(over - kDrop * (meets - kStruck), 1 - kRadius);  // below the top edge by then
  const std::vector<ImpactEvent>& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_NEAR(events[0].time, kStruck, 1e-9);
  EXPECT_TRUE(events[1].bodyA == ball || events[1].bodyB == ball);
  EXPECT_NE(events[1].bodyA, striker);
  EXPECT_NE(events[1].bodyB, striker);
  EXPECT_NEAR(events[1].time, meets, 1e-9);
  EXPECT_NEAR(ball->getLinearVelocity().x(), -kSpeed, 1e-6);
  EXPECT_NEAR(ball->getLinearVelocity().y(), -kDrop, 1e-6);
  EXPECT_NEAR(striker->getLinearVelocity().length(), 0, 1e-6);
}

// A cube turning at 18 rad/s about z sweeps its corner past a ball at rest beside it: 6.7 mm apart
// at the step's start and at its end, the corner 2 mm into the ball half a step in. The ball is
// struck when the corner reaches it. (A move of less than half the shapes' widths, which the
// swept search once took for a graze at most.)
TEST(DynamicsWorldSwept, ATurningCubesCornerStrikesABallItWouldDipInto) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0, 0.0));
  scene.world().setGravity(btVector3(0, 0, 0));
  constexpr double kSpin = 18, kHalf = 0.2, kBall = 0.1;  // rad/s; m
  const double before = 0.5 * kSpin * kH;                 // rad: the corner's turn to the x axis
  auto* cubeShape = new btBoxShape(btVector3(kHalf, kHalf, kHalf));
  btRigidBody* cube = scene.add(cubeShape, 1.0, btVector3(0, 0, 0));
  scene.world().setMaterial(cube, "test");
  // Its core's corner in the xy plane turns on a circle of radius `corner`, rounded by the margin;
  // the ball's centre is on the x axis, `centre` from the cube's.
  const double margin = cubeShape->getMargin();
  const double corner = std::sqrt(2.0) * (kHalf - margin);
  const double centre = corner + margin + kBall - 2e-3;
  const auto gapAt = [&](double theta) {  // the corner θ from the x axis
    return std::sqrt(corner * corner + centre * centre - 2 * corner * centre * std::cos(theta)) -
           margin - kBall;
  };
  btTransform turned = cube->getWorldTransform();
  turned.setRotation(btQuaternion(btVector3(0, 0, 1), M_PI / 4 - before));
  cube->setWorldTransform(turned);
  cube->setAngularVelocity(btVector3(0, 0, kSpin));
  btRigidBody* ball = scene.add(new btSphereShape(kBall), 1.0, btVector3(centre, 0, 0));
  scene.world().setMaterial(ball, "test");
  ASSERT_GT(gapAt(before), 5e-3);  // apart at both ends of the step
  scene.world().stepSimulation(kH, 1, kH);

  // The flow turns an isotropic body by asin(τ|ω|) in τ (Tran & Leok (D.1) with J = jI).
  const double reach = margin + kBall;
  const double touching =
      std::acos((corner * corner + centre * centre - reach * reach) / (2 * corner * centre));
  const double touch = std::sin(before - touching) / kSpin;
  ASSERT_FALSE(scene.world().getImpactEvents().empty());
  EXPECT_NEAR(scene.world().getImpactEvents()[0].time, touch, 1e-5);
  EXPECT_GT(ball->getLinearVelocity().x(), 0.1);
}

}  // namespace
}  // namespace carom
