// Impact instants of two free spheres (world_sphere_impacts.cpp): under gravity alone their
// centres' separation is linear in time, and the instant their gap closes is found in closed form,
// with no location probe, and so is their touch inside the step where their paths cross (the swept
// search); with a force on one of them it is not, and the root search finds it.
// Each instant is checked against the meeting of the two centres' parabolas, solved here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

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

// The first instant (s) within the step at which `gap` reaches zero from above, by bisection on a
// bracket found by scanning the step (long double, far below the tolerances checked).
long double firstZero(const std::function<long double(long double)>& gap) {
  long double lo = 0, hi = 0;
  for (int k = 1; k <= 1000; ++k) {
    hi = kH * k / 1000.0L;
    if (gap(hi) < 0) break;
    lo = hi;
  }
  EXPECT_LT(gap(hi), 0) << "no touch within the step";
  for (int i = 0; i < 200; ++i) {
    const long double mid = 0.5L * (lo + hi);
    (gap(mid) < 0 ? hi : lo) = mid;
  }
  return lo;
}

// Where a centre at x moving at v under acceleration a is after t (s).
btVector3 at(const btVector3& x, const btVector3& v, const btVector3& a, long double t) {
  return x + static_cast<double>(t) * v + static_cast<double>(0.5L * t * t) * a;
}

// The first instant at which |d + t w + ½ t² a| = 2 r: two balls' centres meeting.
double meetingOf(const btVector3& d, const btVector3& w, const btVector3& a) {
  return static_cast<double>(firstZero([&](long double t) {
    long double sum = 0;
    for (int i = 0; i < 3; ++i) {
      const long double x = d[i] + t * w[i] + 0.5L * t * t * a[i];
      sum += x * x;
    }
    return std::sqrt(sum) - 2.0L * kRadius;
  }));
}

// The first instant at which a ball's centre, moving as x + t v + ½ t² g, comes within the radius
// of a box centred at the origin, unturned: its core box (half extents less the margin) rounded by
// the margin, as Bullet's GJK sees it.
double boxTouchOf(const btVector3& x, const btVector3& v, const btVector3& g,
                  const btBoxShape& box) {
  const btVector3 core = box.getHalfExtentsWithoutMargin();
  return static_cast<double>(firstZero([&](long double t) {
    long double sum = 0;
    for (int i = 0; i < 3; ++i) {
      const long double c = x[i] + t * v[i] + 0.5L * t * t * g[i];
      const long double beyond = std::max(0.0L, std::fabs(c) - core[i]);
      sum += beyond * beyond;
    }
    return std::sqrt(sum) - box.getMargin() - kRadius;
  }));
}

// One step of two balls at `atA`, `atB` moving at `vA`, `vB` under gravity, which meet within it:
// one impact at the centres' meeting, located in closed form with no probe; equal elastic
// frictionless balls exchange the components of their velocities along the line of centres (to
// `velocityTolerance`, m/s), keeping momentum and energy.
void expectToMeetWithoutProbes(const btVector3& atA, const btVector3& atB, const btVector3& vA,
                               const btVector3& vB, double velocityTolerance) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
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
  EXPECT_NEAR((a->getLinearVelocity() - (vA - exchange + kH * g)).length(), 0.0, velocityTolerance);
  EXPECT_NEAR((b->getLinearVelocity() - (vB + exchange + kH * g)).length(), 0.0, velocityTolerance);
  EXPECT_NEAR(test::totalEnergy(scene.world()), e0, 1e-12 * e0);
}

// Oblique, both moving.
TEST(SphereImpacts, TwoFreeBallsUnderGravityMeetAtTheirInstantWithoutProbes) {
  expectToMeetWithoutProbes(btVector3(0, 1, 0), btVector3(0.26, 1.05, 0.02), btVector3(3, 0.5, 0),
                            btVector3(-2, 0, 0.1), 1e-9);
}

// Two fast balls whose paths cross within the step, apart at its start and at its trial end (they
// would pass through each other): the swept search's touch is the same closed form.
TEST(SphereImpacts, TwoBallsThatWouldPassThroughEachOtherMeetAtTheirInstantWithoutProbes) {
  // 1.67 m each in the step.
  expectToMeetWithoutProbes(btVector3(-0.9, 1, 0), btVector3(0.9, 1.05, 0), btVector3(100, 0, 0),
                            btVector3(-100, 0, 0), 1e-7);
}

// A ball thrown down at the ground against an upward push: its centre's height dips below the
// radius inside the step and is back above it at the trial end. The swept search's touch is the
// height's first root, found with no probe.
TEST(SphereImpacts, ABallWhoseHeightDipsInsideTheStepStrikesTheGroundAtItsInstant) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  scene.world().setMaterial(scene.addGround(), "test");
  const btVector3 x(0, 0.125, 0), v(0.5, -6, 0);
  btRigidBody* ball = addBall(scene, x, v);
  const btVector3 push(0, 610, 0);  // N on the 1 kg ball: 600 m/s² up with gravity's −9.8
  ball->applyCentralForce(push);
  const btVector3 a = scene.world().getGravity() + push;
  ASSERT_GT(at(x, v, a, kH).y(), kRadius);  // apart at the trial end
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  const double t =
      static_cast<double>(firstZero([&](long double s) { return at(x, v, a, s).y() - kRadius; }));
  EXPECT_NEAR(events[0].time, t, 1e-12);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().locationProbes, 0);
  EXPECT_GT(events[0].normalVelocityAfter, 0.0);
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

// A ball thrown down onto the ground plane: its centre's height is a parabola, and the instant it
// comes within the radius is a quadratic's root, found with no probe.
TEST(SphereImpacts, ABallThrownOntoTheGroundPlaneStrikesAtItsInstant) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  scene.world().setMaterial(scene.addGround(), "test");
  const btVector3 x(0, 0.15, 0), v(1, -4, 0);
  const btVector3 g = scene.world().getGravity();
  addBall(scene, x, v);
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  const double t =
      static_cast<double>(firstZero([&](long double s) { return at(x, v, g, s).y() - kRadius; }));
  EXPECT_NEAR(events[0].time, t, 1e-12);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().locationProbes, 0);
}

// A ball thrown at a static box's face, over the face when it strikes: found in closed form.
TEST(SphereImpacts, ABallStrikesAStaticBoxsFaceAtItsInstant) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  auto* shape = new btBoxShape(btVector3(0.5, 0.5, 0.5));
  scene.world().setMaterial(scene.add(shape, 0, btVector3(0, 0, 0)), "test");
  const btVector3 x(0.65, 0.2, 0.1), v(-5, 1, 0.5);
  const btVector3 g = scene.world().getGravity();
  addBall(scene, x, v);
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NEAR(events[0].time, boxTouchOf(x, v, g, *shape), 1e-12);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().locationProbes, 0);
}

// A fast spinning ball flying past a static box, parallel to its nearest face and 2 cm from
// touching it: the face's plane stays as far, which rules out a touch for the swept search with
// no probe (a sphere's gap does not turn with it).
TEST(SphereImpacts, ASpinningBallFlyingPastAStaticBoxsFaceStrikesNothingWithoutProbes) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  scene.world().setGravity(btVector3(0, 0, 0));
  auto* shape = new btBoxShape(btVector3(0.5, 0.5, 0.5));
  scene.world().setMaterial(scene.add(shape, 0, btVector3(0, 0, 0)), "test");
  const btVector3 x(0.5 + kRadius + 0.02, -0.3, 0), v(0, 50, 20);  // 0.9 m in the step
  btRigidBody* ball = addBall(scene, x, v);
  ball->setAngularVelocity(btVector3(300, 0, 0));  // rad/s
  scene.world().stepSimulation(kH, 1, kH);
  EXPECT_TRUE(scene.world().getImpactEvents().empty());
  EXPECT_EQ(scene.world().getLastStepDiagnostics().locationProbes, 0);
  EXPECT_NEAR((ball->getCenterOfMassPosition() - (x + kH * v)).length(), 0.0, 1e-12);
}

// A ball flying at a static box's rounded edge: it crosses two faces' planes beside the faces
// (at 4.4 ms), the closed form does not apply, and the root search finds the instant.
TEST(SphereImpacts, ABallStrikingABoxsEdgeIsLocatedByTheSearch) {
  Scene scene(test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 1.0));
  scene.world().setGravity(btVector3(0, 0, 0));
  auto* shape = new btBoxShape(btVector3(0.5, 0.5, 0.5));
  scene.world().setMaterial(scene.add(shape, 0, btVector3(0, 0, 0)), "test");
  // 8 cm beyond touching the rounded edge along x = y, moving straight at it at 6 m/s.
  const btVector3 toward = btVector3(-1, -1, 0).normalized();
  const double core = 0.5 - shape->getMargin();
  const btVector3 x = btVector3(core, core, 0) - (shape->getMargin() + kRadius + 0.08) * toward;
  const btVector3 v = 6.0 * toward;
  addBall(scene, x, v);
  scene.world().stepSimulation(kH, 1, kH);
  const auto& events = scene.world().getImpactEvents();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NEAR(events[0].time, boxTouchOf(x, v, btVector3(0, 0, 0), *shape), 1e-9);
  EXPECT_NEAR(events[0].time, 0.08 / 6.0, 1e-9);
  EXPECT_GT(scene.world().getLastStepDiagnostics().locationProbes, 0);
}

}  // namespace
}  // namespace carom
