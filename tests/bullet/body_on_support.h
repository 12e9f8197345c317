// One body on a static support (the ground unless another is added) in a variational world, both
// of the plastic material "test" (Newton's law, e = 0.3, μ = 0.5): the scene of the tests of
// resting islands and of contact patches, stepped at 60 Hz.
#pragma once

#include <gtest/gtest.h>

#include <functional>

#include "bullet/world_scene.h"
#include "carom/bullet/gap.h"

namespace carom::test {

inline constexpr double kContactTolerance = 1e-6;  // the variational step's (m)

struct BodyOnSupport {
  using World = Scene<DynamicsWorld>;
  static constexpr double kStep = 1.0 / 60.0;  // h (s)

  World scene{configWithMaterial(SolverKind::variational, ImpactLawKind::kNewton, 0.3, 0.5)};
  btRigidBody* support;
  btRigidBody* body;

  // The body (1 kg) at `pose` with `velocity`, on the support `addSupport` adds to the scene.
  BodyOnSupport(btCollisionShape* shape, const btTransform& pose,
                const btVector3& velocity = btVector3(0, 0, 0),
                const std::function<btRigidBody*(World&)>& addSupport = &World::addGround) {
    support = addSupport(scene);
    body = scene.add(shape, 1.0, pose.getOrigin(), velocity);
    body->setWorldTransform(pose);
    body->updateInertiaTensor();
    scene.world().setMaterial(support, "test");
    scene.world().setMaterial(body, "test");
  }
  // The body's signed gap to the support (m).
  double gap() const {
    return carom::gap(*body->getCollisionShape(), body->getWorldTransform(),
                      *support->getCollisionShape(), support->getWorldTransform())
        .distance;
  }
  const StepDiagnostics& step() {
    scene.world().stepSimulation(kStep, 1, kStep);
    return scene.world().getLastStepDiagnostics();
  }
  // `steps` steps lying still: no impact, never deeper than the contact tolerance. Its failures
  // are fatal to it alone: call it inside ASSERT_NO_FATAL_FAILURE.
  void liesStill(int steps) {
    for (int i = 0; i < steps; ++i) {
      ASSERT_EQ(step().impacts, 0) << "step " << i;
      ASSERT_GE(gap(), -kContactTolerance) << "step " << i;
    }
  }
  // At rest where it started, at `at`: within 1e-5 m of it, its velocities 1e-9 or less.
  void expectAtRestAt(const btVector3& at) const {
    EXPECT_LT((body->getCenterOfMassPosition() - at).length(), 1e-5);
    EXPECT_LT(body->getLinearVelocity().length(), 1e-9);
    EXPECT_LT(body->getAngularVelocity().length(), 1e-9);
  }
};

}  // namespace carom::test
