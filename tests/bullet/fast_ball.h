// The tunnelling check, on any ground: a 0.1 m ball at 30 m/s moves 0.5 m per 60 Hz step,
// five diameters, and still strikes the ground (its top at y = 0, elastic) once, at the instant it
// reaches it, and leaves at 30 m/s.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>

#include "bullet/world_scene.h"

namespace carom::test {

// `scene` has its ground and the material "test"; the ball starts at `start` without gravity.
inline void expectAFastBallToStrikeTheGroundOnce(Scene<DynamicsWorld>& scene,
                                                 const btVector3& start) {
  constexpr double kH = 1.0 / 60.0, kRadius = 0.05, kSpeed = 30;
  scene.world().setGravity(btVector3(0, 0, 0));
  btRigidBody* ball = scene.add(new btSphereShape(kRadius), 1.0, start, btVector3(0, -kSpeed, 0));
  scene.world().setMaterial(ball, "test");
  double lowest = start.y();
  for (int i = 0; i < 10; ++i) {
    scene.world().stepSimulation(kH, 1, kH);
    lowest = std::min(lowest, double(ball->getCenterOfMassPosition().y()));
  }
  ASSERT_EQ(scene.world().getImpactEvents().size(), 1u);
  EXPECT_NEAR(scene.world().getImpactEvents()[0].time, (start.y() - kRadius) / kSpeed, 1e-12);
  EXPECT_GE(lowest, kRadius - 1e-12);
  EXPECT_NEAR(ball->getLinearVelocity().y(), kSpeed, 1e-9);
}

}  // namespace carom::test
