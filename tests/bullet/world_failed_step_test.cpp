// A step that throws leaves the world as it was before the call (issue 31): after failed steps, the
// next step that succeeds gives exactly what it gives in a world that never failed. Before, the
// gravity btDiscreteDynamicsWorld adds to the total force at the start of each call stayed there:
// after three failed steps a falling body gained four steps' gravity in the next.
#include <gtest/gtest.h>

#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <btBulletDynamicsCommon.h>

#include <memory>

#include "bullet/world_scene.h"
#include "carom/error.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;

struct Bodies {
  btRigidBody* ball;
  btRigidBody* box;
};

// A ball falling from rest and a box beside it, both in the air.
Bodies addBodies(test::Scene<DynamicsWorld>& scene) {
  return {scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 2, 0)),
          scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(1, 2, 0))};
}

void expectSameState(const btRigidBody& a, const btRigidBody& b) {
  EXPECT_EQ(a.getLinearVelocity(), b.getLinearVelocity());
  EXPECT_EQ(a.getAngularVelocity(), b.getAngularVelocity());
  EXPECT_EQ(a.getCenterOfMassPosition(), b.getCenterOfMassPosition());
}

// `bodies` are where the same bodies are after one step of a world in `kind` that never failed.
void expectAFreshWorldsFirstStep(SolverKind kind, const Bodies& bodies) {
  test::Scene<DynamicsWorld> fresh(test::configWith(kind));
  const Bodies expected = addBodies(fresh);
  fresh.world().stepSimulation(kH, 1, kH);
  expectSameState(*bodies.ball, *expected.ball);
  expectSameState(*bodies.box, *expected.box);
}

TEST(FailedStep, LeavesTheWorldAsItWasInLcpMode) {
  test::Scene<DynamicsWorld> failing(test::configWith(SolverKind::lcp));
  const Bodies bodies = addBodies(failing);
  // A joint lcp mode refuses (a spring, enabled after addConstraint took the joint): refused when
  // the step reaches its island.
  auto joint =
      std::make_unique<btGeneric6DofSpring2Constraint>(*bodies.box, btTransform::getIdentity());
  failing.world().addConstraint(joint.get());
  joint->enableSpring(1, true);
  for (int i = 0; i < 3; ++i)
    EXPECT_THROW(failing.world().stepSimulation(kH, 1, kH), Error);
  EXPECT_EQ(bodies.ball->getLinearVelocity(), btVector3(0, 0, 0));
  failing.world().removeConstraint(joint.get());
  failing.world().stepSimulation(kH, 1, kH);
  expectAFreshWorldsFirstStep(SolverKind::lcp, bodies);
}

TEST(FailedStep, LeavesTheWorldAsItWasInVariationalMode) {
  test::Scene<DynamicsWorld> failing(test::configWith(SolverKind::variational));
  const Bodies bodies = addBodies(failing);
  // A dynamic body with an infinite moment of inertia: refused by the variational step.
  const btVector3 inertia = bodies.box->getLocalInertia();
  bodies.box->setMassProps(1.0, btVector3(0, 0, 0));
  for (int i = 0; i < 3; ++i)
    EXPECT_THROW(failing.world().stepSimulation(kH, 1, kH), Error);
  EXPECT_EQ(bodies.ball->getLinearVelocity(), btVector3(0, 0, 0));
  bodies.box->setMassProps(1.0, inertia);
  failing.world().stepSimulation(kH, 1, kH);
  expectAFreshWorldsFirstStep(SolverKind::variational, bodies);
}

}  // namespace
}  // namespace carom
