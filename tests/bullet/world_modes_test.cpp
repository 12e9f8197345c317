// carom::DynamicsWorld's modes and bad input: `bullet` is stock Bullet bit for bit; what a mode
// cannot do is refused with carom::Error and the world left unchanged.
#include <gtest/gtest.h>

#include "bullet/world_scene.h"
#include "support/errors.h"

namespace carom {
namespace {

template <class World>
std::vector<btTransform> runMixedScene(test::Scene<World>& scene) {
  scene.addGround()->setRestitution(0.5);
  btRigidBody* ball = scene.add(new btSphereShape(0.3), 1.0, btVector3(0, 2, 0));
  ball->setRestitution(0.8);
  btRigidBody* box = scene.add(new btBoxShape(btVector3(0.2, 0.3, 0.4)), 2.0,
                               btVector3(0.1, 3, 0.2), btVector3(1, 0, 0));
  box->setAngularVelocity(btVector3(1, 2, 3));
  box->setFriction(0.7);
  std::vector<btTransform> poses;
  for (int i = 0; i < 300; ++i) {
    scene.world().stepSimulation(1.0 / 60.0, 10, 1.0 / 240.0);
    poses.push_back(ball->getWorldTransform());
    poses.push_back(box->getWorldTransform());
  }
  return poses;
}

TEST(DynamicsWorldModes, BulletModeIsStockBulletBitForBit) {
  test::Scene<btDiscreteDynamicsWorld> stock;
  test::Scene<DynamicsWorld> carom(test::configWith(SolverKind::bullet));
  const std::vector<btTransform> expected = runMixedScene(stock);
  const std::vector<btTransform> actual = runMixedScene(carom);
  ASSERT_EQ(expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    for (int r = 0; r < 3; ++r) {
      ASSERT_EQ(expected[i].getOrigin()[r], actual[i].getOrigin()[r]) << "pose " << i;
      for (int c = 0; c < 3; ++c) {
        ASSERT_EQ(expected[i].getBasis()[r][c], actual[i].getBasis()[r][c]) << "pose " << i;
      }
    }
  }
}

// The rebound ratio of a central ball-on-plane impact at velocity level is e for both laws.
void expectLcpRebound(ImpactLawKind law, double e) {
  Config config = test::configWithMaterial(SolverKind::lcp, law, e);
  test::Scene<DynamicsWorld> scene(config);
  EXPECT_NE(dynamic_cast<ImpactSolver*>(scene.world().getConstraintSolver()), nullptr);
  scene.world().setMaterial(scene.addGround(), "test");
  btRigidBody* ball = scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 1.1, 0));
  scene.world().setMaterial(ball, "test");
  int called = 0;
  scene.world().setImpactCallback([&](const ImpactEvent&) { ++called; });
  for (int i = 0; i < 40; ++i)
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(called, 1);
  EXPECT_EQ(events[0].law, core::impact::toString(law));
  EXPECT_NEAR(events[0].normalVelocityAfter / -events[0].normalVelocityBefore, e, 1e-9);
}

TEST(DynamicsWorldModes, LcpKindStepsWithImpactSolverNewtonRestitution) {
  expectLcpRebound(ImpactLawKind::kNewton, 0.5);
}

TEST(DynamicsWorldModes, LcpKindStepsWithImpactSolverStrongeRestitution) {
  expectLcpRebound(ImpactLawKind::kStronge, 0.7);
}

TEST(DynamicsWorldModes, EveryModeIsSelectableByTheConfigFlagAlone) {
  for (const char* kind : {"bullet", "lcp", "variational"}) {
    const Config config = Config::parse(std::string("[solver]\nkind = \"") + kind + "\"");
    test::Scene<DynamicsWorld> scene(config);
    EXPECT_STREQ(toString(scene.world().getSolverKind()), kind);
    scene.addGround();
    btRigidBody* ball = scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 1.1, 0));
    for (int i = 0; i < 60; ++i)
      scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    // The same scene code in every mode: the ball fell onto the ground and stopped above it.
    EXPECT_LT(ball->getCenterOfMassPosition().y(), 1.0) << kind;
    EXPECT_GT(ball->getCenterOfMassPosition().y(), 0.05) << kind;
  }
}

TEST(DynamicsWorldModes, BulletAndVariationalModesUseNoImpactSolver) {
  test::Scene<DynamicsWorld> bullet(test::configWith(SolverKind::bullet));
  test::Scene<DynamicsWorld> variational(test::configWith(SolverKind::variational));
  EXPECT_EQ(dynamic_cast<ImpactSolver*>(bullet.world().getConstraintSolver()), nullptr);
  EXPECT_EQ(dynamic_cast<ImpactSolver*>(variational.world().getConstraintSolver()), nullptr);
}

TEST(DynamicsWorldModes, JointsVariationalModeCannotHoldAreRefused) {
  test::Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  btRigidBody* body = scene.add(new btSphereShape(0.3), 1.0, btVector3(0, 2, 0));
  btConeTwistConstraint cone(*body, btTransform(btQuaternion::getIdentity(), btVector3(0, 1, 0)));
  cone.enableMotor(true);  // a cone-twist's motor: the variational step drives none
  test::expectErrorNaming([&] { scene.world().addConstraint(&cone); }, "addConstraint");
  EXPECT_EQ(scene.world().getNumConstraints(), 0);
  btPoint2PointConstraint point(*body, btVector3(0, 1, 0));
  scene.world().addConstraint(&point);
  EXPECT_EQ(scene.world().getNumConstraints(), 1);
  scene.world().removeConstraint(&point);
}

TEST(DynamicsWorldModes, JointsWorkInBulletMode) {
  test::Scene<DynamicsWorld> scene(test::configWith(SolverKind::bullet));
  btRigidBody* body = scene.add(new btSphereShape(0.3), 1.0, btVector3(0, 2, 0));
  btPoint2PointConstraint joint(*body, btVector3(0, 1, 0));
  scene.world().addConstraint(&joint);
  EXPECT_EQ(scene.world().getNumConstraints(), 1);
  scene.world().removeConstraint(&joint);
}

TEST(DynamicsWorldModes, BodyWithoutInertiaIsRefusedInVariationalModeWorldUnchanged) {
  test::Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  btRigidBody* ball =
      scene.add(new btSphereShape(0.3), 1.0, btVector3(0, 2, 0), btVector3(1, 0, 0));
  ball->setMassProps(1.0, btVector3(0, 0, 0));  // infinite moments: nothing carom can rotate
  test::expectErrorNaming([&] { scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0); },
                          "inertia");
  EXPECT_EQ(ball->getCenterOfMassPosition(), btVector3(0, 2, 0));
  EXPECT_EQ(ball->getLinearVelocity(), btVector3(1, 0, 0));
}

TEST(DynamicsWorldModes, UndefinedMaterialIsRefused) {
  test::Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  btRigidBody* body = scene.add(new btSphereShape(0.3), 1.0, btVector3(0, 2, 0));
  test::expectErrorNaming([&] { scene.world().setMaterial(body, "unobtainium"); }, "unobtainium");
  EXPECT_EQ(scene.world().getMaterial(body), nullptr);
  scene.world().setMaterial(body, "default");
  ASSERT_NE(scene.world().getMaterial(body), nullptr);
  EXPECT_EQ(*scene.world().getMaterial(body), "default");
}

}  // namespace
}  // namespace carom
