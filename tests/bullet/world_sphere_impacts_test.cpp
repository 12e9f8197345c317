// Impact instants of two free spheres (world_sphere_impacts.cpp): under gravity alone their
// centres' separation is linear in time, and the instant their gap closes is found in closed form,
// with no location probe; with a force on one of them it is not, and the root search finds it.
// Each instant is checked against the meeting of the two centres' parabolas, solved here.
#include <gtest/gtest.h>

#include <cmath>

#include "bullet/world_scene.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;
constexpr double kRadius = 0.1;

using Scene = test::Scene<DynamicsWorld>;

btRigidBody* addBall(Scene& scene, const btVector3& at, const btVector3& velocity) {
  btRigidBody* ball = scene.add(new btSphereShape(kRadius), 1.0, at, velocity);
  scene.world().setMaterial(ball, "test");
  return ball;
}

// The first instant (s) at which |d + t w + ½ t² a| = 2 r, by bisection on a bracket found by
// scanning the step (long double, to far below the tolerances checked).
double meetingOf(const btVector3& d, const btVector3& w, const btVector3& a) {
  const auto apart = [&](long double t) {
    long double sum = 0;
    for (int i = 0; i < 3; ++i) {
      const long double x = d[i] + t * w[i] + 0.5L * t * t * a[i];
      sum += x * x;
    }
    return std::sqrt(sum) - 2.0L * kRadius;
  };
  long double lo = 0, hi = 0;
  for (int k = 1; k <= 1000; ++k) {
    hi = kH * k / 1000.0L;
    if (apart(hi) < 0) break;
    lo = hi;
  }
  EXPECT_LT(apart(hi), 0) << "no meeting within the step";
  for (int i = 0; i < 200; ++i) {
    const long double mid = 0.5L * (lo + hi);
    (apart(mid) < 0 ? hi : lo) = mid;
  }
  return static_cast<double>(lo);
}

// Oblique, both moving, under gravity: the instant in closed form, no location probe; equal
// elastic frictionless balls exchange the components of their velocities along the line of
// centres, keeping momentum and energy.
TEST(SphereImpacts, TwoFreeBallsUnderGravityMeetAtTheirInstantWithoutProbes) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  const btVector3 atA(0, 1, 0), atB(0.26, 1.05, 0.02);
  const btVector3 vA(3, 0.5, 0), vB(-2, 0, 0.1);
  btRigidBody* a = addBall(scene, atA, vA);
  btRigidBody* b = addBall(scene, atB, vB);
  const double e0 = test::totalEnergy(scene.world());
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  const double t = meetingOf(atB - atA, vB - vA, btVector3(0, 0, 0));
  EXPECT_NEAR(events[0].time, t, 1e-12);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().locationProbes, 0);
  const btVector3 normal = ((atB + t * vB) - (atA + t * vA)).normalized();
  const btVector3 exchange = (vA - vB).dot(normal) * normal;
  const btVector3 g = scene.world().getGravity();
  EXPECT_NEAR((a->getLinearVelocity() - (vA - exchange + kH * g)).length(), 0.0, 1e-9);
  EXPECT_NEAR((b->getLinearVelocity() - (vB + exchange + kH * g)).length(), 0.0, 1e-9);
  EXPECT_NEAR(test::totalEnergy(scene.world()), e0, 1e-12 * e0);
}

// A force on one ball: their accelerations differ, the separation is quadratic in time, and the
// root search locates the instant.
TEST(SphereImpacts, ABallPushedByAForceIsLocatedByTheSearch) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  scene.world().setGravity(btVector3(0, 0, 0));
  const btVector3 atA(0, 0, 0), atB(0.26, 0.05, 0);
  const btVector3 vA(0, 0, 0), vB(-2, 0, 0);
  const btVector3 force(-500, 0, 0);  // N, on B for the step (mass 1 kg)
  addBall(scene, atA, vA);
  btRigidBody* b = addBall(scene, atB, vB);
  b->applyCentralForce(force);
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NEAR(events[0].time, meetingOf(atB - atA, vB - vA, force), 1e-9);
  EXPECT_GT(scene.world().getLastStepDiagnostics().locationProbes, 0);
}

}  // namespace
}  // namespace carom
