// Joints in lcp mode (carom::ImpactSolver, through carom::DynamicsWorld): Bullet's joints as rows
// of the velocity-level problem, their drift removed on positions only, impacts on jointed bodies
// resolved on the jointed system. Expected values are closed forms (the pendulum's elliptic
// period, energy conservation, momentum exchange of equal pendulums), never this code's output.
#include <gtest/gtest.h>

#include <BulletDynamics/ConstraintSolver/btFixedConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGearConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>

#include <cmath>
#include <memory>
#include <vector>

#include "carom/carom.h"
#include "joint_scenes.h"
#include "support/errors.h"
#include "world_scene.h"

namespace carom {
namespace {

using test::Scene;

constexpr double kPi = test::kPi;
constexpr double kG = test::kG;
using test::Pendulum;

Config lcp() {
  return test::configWith(SolverKind::lcp);
}

double measuredPeriod(double h, int periods) {
  return test::measuredPeriod(lcp(), h, periods);
}

TEST(JointsLcp, PendulumPeriodConvergesToTheEllipticPeriod) {
  // Bullet's semi-implicit Euler with the joint held on positions (SHAKE) is second order: halving
  // h quarters the error (measured 7.8e-5, 1.9e-5, 4.9e-6, 1.2e-6). Held at velocity level only,
  // the pendulum loses energy and the period error stays first order (5.1e-2 at 1/120).
  const double exact = Pendulum::exactPeriod();
  std::vector<double> errors;
  for (const double h : {1.0 / 120, 1.0 / 240, 1.0 / 480, 1.0 / 960}) {
    const double error = std::abs(measuredPeriod(h, 3) - exact) / exact;
    errors.push_back(error);
  }
  for (std::size_t i = 1; i < errors.size(); ++i)
    EXPECT_LT(errors[i], 0.3 * errors[i - 1]) << "h = 1/" << (120 << i);
  EXPECT_LT(errors.front(), 2e-4);
  EXPECT_LT(errors.back(), 2e-6);
}

TEST(JointsLcp, PendulumJointErrorBoundedAndEnergyNotGained) {
  Pendulum pendulum(lcp());
  const double h = 1.0 / 240;
  const double energy0 = pendulum.energy();
  const int steps = 20000;  // 83 s, 40 swings
  const int window = 1000;  // steps compared at the start and the end
  double largestError = 0, lastLargestError = 0;
  double firstLow = energy0, firstHigh = energy0, lastLow = energy0, lastHigh = energy0;
  for (int i = 0; i < steps; ++i) {
    pendulum.scene.world().stepSimulation(h, 1, h);
    const double error = pendulum.jointError();
    const double energy = pendulum.energy();
    largestError = std::max(largestError, error);
    if (i < window) {
      firstLow = std::min(firstLow, energy);
      firstHigh = std::max(firstHigh, energy);
    }
    if (i >= steps - window) {
      lastLargestError = std::max(lastLargestError, error);
      lastLow = std::min(lastLow, energy);
      lastHigh = std::max(lastHigh, energy);
    }
  }
  // The joint is held to its position tolerance (1e-10 m) every step, at the end as at the start.
  EXPECT_LT(largestError, 2e-10);
  EXPECT_LT(lastLargestError, 2e-10);
  // The energy oscillates within a band of O(h) (a symplectic method's), measured ±0.29 % of E0,
  // and the band neither grows nor moves: no gain, no drift.
  EXPECT_LT(firstHigh - energy0, 5e-3 * energy0);
  EXPECT_LT(energy0 - firstLow, 5e-3 * energy0);
  EXPECT_LE(lastHigh, firstHigh + 1e-4 * energy0);
  EXPECT_GE(lastLow, firstLow - 1e-4 * energy0);
}

// A double pendulum of two 1 m rods on hinges, released level: chaotic, and its energy stays in a
// band of O(h) (measured ±0.21 % at 240 Hz over 83 s) with no drift (the last 8 s' mean within
// 5e-5 of E0), its joints within 1.4e-10 m.
TEST(JointsLcp, DoublePendulumKeepsItsEnergyBounded) {
  Scene<DynamicsWorld> scene(lcp());
  const test::DoublePendulum pendulum(scene);
  const double h = 1.0 / 240, energy0 = test::totalEnergy(scene.world());
  const int steps = 20000, window = 2000;
  double band = 0, lastMean = 0, gap = 0;
  for (int i = 0; i < steps; ++i) {
    scene.world().stepSimulation(h, 1, h);
    const double energy = test::totalEnergy(scene.world());
    band = std::max(band, std::abs(energy - energy0));
    if (i >= steps - window) lastMean += energy / window;
    gap = std::max(gap, pendulum.elbowGap());
  }
  EXPECT_LT(band, 1e-2 * energy0);
  EXPECT_LT(std::abs(lastMean - energy0), 1e-3 * energy0);
  EXPECT_LT(gap, 1e-9);
}

// A rod (a 1 kg box 1 m long) on a hinge to the world at one end, axis z, released level.
struct Rod {
  static constexpr double kHalfLength = 0.5;  // m
  explicit Rod(const Config& config = lcp()) : scene(config) {
    rod = scene.add(new btBoxShape(btVector3(kHalfLength, 0.05, 0.05)), 1.0,
                    btVector3(kHalfLength, 2, 0));
    hinge = std::make_unique<btHingeConstraint>(*rod, btVector3(-kHalfLength, 0, 0),
                                                btVector3(0, 0, 1));
    scene.world().addConstraint(hinge.get(), true);
  }
  // The rod's moment of inertia about the hinge (kg m²): m (4a² + b²)/3 with a, b the half sides.
  static double pivotInertia() { return (4 * kHalfLength * kHalfLength + 0.05 * 0.05) / 3.0; }
  double spin() const { return rod->getAngularVelocity().z(); }
  Scene<DynamicsWorld> scene;
  btRigidBody* rod;
  std::unique_ptr<btHingeConstraint> hinge;
};

// A welded rod landing flat is struck as the one box of its shape (variational_joints_test.cpp's
// twin): one simultaneous impact with the weld's rows held, not its corners in turn.
TEST(JointsLcp, AWeldedRodLandingFlatIsStruckAsTheOneBoxOfItsShape) {
  test::expectWeldedRodStruckAsItsBox(SolverKind::lcp);
}

// The rod falls 45° onto its stop. Its speed there is the closed form of energy conservation,
// ω² = 2 m g a sin 45° / I_p; an elastic stop (Bullet's relaxation factor 1 with bias factor 1)
// sends it back at that speed, an inelastic one (relaxation 0) holds it there.
TEST(JointsLcp, HingeLimitStopsTheRodElasticallyOrNot) {
  const double h = 1.0 / 480;
  const double stop = kPi / 4;
  const double impactSpeed =
      std::sqrt(2 * kG * Rod::kHalfLength * std::sin(stop) / Rod::pivotInertia());
  for (const double relaxation : {1.0, 0.0}) {
    Rod rod;
    rod.hinge->setLimit(-stop, stop, 0.9, 1.0, relaxation);
    double fastest = 0, beyond = 0, returned = -stop;  // returned: the highest angle once back up
    int reversed = -1;                                 // the step where the stop turned it
    for (int i = 0; i < 800; ++i) {  // 1.7 s: the fall takes 0.45 s, the way back as long
      rod.scene.world().stepSimulation(h, 1, h);
      const double angle = std::abs(rod.hinge->getHingeAngle());
      beyond = std::max(beyond, angle - stop);
      // Falling, the rod turns one way (by gravity, clockwise about z); the stop ends that.
      if (reversed < 0 && rod.spin() < 0) fastest = std::max(fastest, -rod.spin());
      if (reversed < 0 && fastest > 0 && rod.spin() >= -1e-9) reversed = i;
      if (reversed >= 0) returned = std::max(returned, rod.hinge->getHingeAngle());
    }
    SCOPED_TRACE(relaxation);
    ASSERT_GE(reversed, 0) << "never stopped";
    EXPECT_NEAR(fastest, impactSpeed, 0.005 * impactSpeed);
    EXPECT_LT(beyond, 0.02);  // at most a couple of steps' turn past the stop (ω h = 0.009 rad)
    if (relaxation == 1.0) {
      // Back up to level, as released: the stop kept its energy and gave none.
      EXPECT_NEAR(returned, 0.0, 0.02);
    } else {
      EXPECT_LT(std::abs(rod.spin()), 1e-3);  // at rest on its stop
      EXPECT_NEAR(std::abs(rod.hinge->getHingeAngle()), stop, 0.01);
    }
  }
}

// A hinge about the vertical (gravity does not turn it) driven by its motor: the rod's speed rises
// at the motor's largest impulse per step over its moment of inertia about the hinge, then holds
// the target speed.
TEST(JointsLcp, MotorisedHingeReachesItsTargetSpeed) {
  const double h = 1.0 / 240, target = 3.0, maxImpulse = 0.004;  // rad/s, N m s per step
  Rod rod;
  rod.scene.world().setGravity(btVector3(0, 0, 0));
  rod.hinge->enableAngularMotor(true, target, maxImpulse);
  const double rate = maxImpulse / (h * Rod::pivotInertia());  // rad/s², while the motor is capped
  const double reached = target / rate;                        // s
  for (int i = 1; i <= 480; ++i) {
    rod.scene.world().stepSimulation(h, 1, h);
    const double t = i * h;
    if (t < reached - 2 * h) {
      EXPECT_NEAR(rod.spin(), rate * t, 1e-4 * target) << "t = " << t;
    } else if (t > reached + 2 * h) {
      EXPECT_NEAR(rod.spin(), target, 1e-4 * target) << "t = " << t;
    }
  }
  EXPECT_LT(reached, 1.5);  // the test sees both phases
}

// Ten capsules joined end to end by hinges, dropped level onto the ground: nothing blows up, the
// chain gains no energy, and its links stay joined.
TEST(JointsLcp, ChainOfTenFallsOntoTheGround) {
  Scene<DynamicsWorld> scene(lcp());
  scene.useMultipointManifolds();
  scene.addGround();
  const test::HingedChain chain(scene, 10, 0.5);
  const std::vector<btRigidBody*>& links = chain.links;
  const double radius = test::HingedChain::kRadius;
  const double h = 1.0 / 240;
  const double energy0 = test::totalEnergy(scene.world());
  double largestGain = 0, largestGap = 0, fastest = 0;
  for (int i = 0; i < 720; ++i) {  // 3 s
    scene.world().stepSimulation(h, 1, h);
    largestGain = std::max(largestGain, test::totalEnergy(scene.world()) - energy0);
    largestGap = std::max(largestGap, chain.largestGap());
    for (const btRigidBody* body : links)
      fastest = std::max(fastest, body->getLinearVelocity().length());
  }
  EXPECT_LT(largestGain, 1e-3 * std::abs(energy0));
  EXPECT_LT(largestGap, 5e-4);  // held to 1e-10 m in flight, within 0.1 mm while it lands
  EXPECT_LT(fastest, 10.0);     // the whipping end outruns a free fall (4.6 m/s), never more
  for (const btRigidBody* body : links) {
    EXPECT_LT(body->getLinearVelocity().length(), 0.05);  // at rest on the ground
    EXPECT_GT(body->getCenterOfMassPosition().y(), radius - 2e-3);
  }
}

// Newton's cradle on strings: five 0.1 m balls, each on a point-to-point joint 0.3 m below its
// pivot, 1 mm apart; the first released from 30°. Equal pendulums exchange their velocities
// exactly under an elastic impact on the jointed system (each ball's inverse mass at the contact
// with its string held is the same), so the last ball leaves with the first one's speed and the
// others stop. Resolved on free balls and then pulled back onto their strings, each exchange would
// lose I_c / (m L² + I_c) = 4.3 % of the energy.
TEST(JointsLcp, NewtonsCradleOnStringsPassesTheSwingAlong) {
  Config config = test::configWithMaterial(SolverKind::lcp, ImpactLawKind::kNewton, 1.0);
  Scene<DynamicsWorld> scene(config);
  const std::vector<btRigidBody*> balls = test::CradleOnStrings(scene).balls;
  const double h = 1.0 / 480;
  const double speed = test::CradleOnStrings::bottomSpeed();
  double lastFastest = 0, lastHighest = -1;
  for (int i = 0; i < 320; ++i) {  // 0.67 s: the first ball strikes at 0.28 s, the last swings out
    scene.world().stepSimulation(h, 1, h);
    lastFastest = std::max(lastFastest, balls[4]->getLinearVelocity().length());
    lastHighest = std::max(lastHighest, balls[4]->getCenterOfMassPosition().y());
  }
  EXPECT_NEAR(lastFastest, speed, 2e-3 * speed);
  // The others nearly still: the strikes happen at the steps' instants, a little before the
  // bottom, so a little of the swing stays behind (measured 1.1 to 1.4 %).
  for (int i = 0; i < 4; ++i)
    EXPECT_LT(balls[i]->getLinearVelocity().length(), 2e-2 * speed) << i;
  // It swings out as high as the first ball was released (to the step's 0.2 %).
  EXPECT_NEAR(lastHighest, test::CradleOnStrings::releaseHeight(),
              2e-3 * test::CradleOnStrings::drop());
}

TEST(JointsLcp, UnsupportedJointsAreRefusedByName) {
  Scene<DynamicsWorld> scene(lcp());
  btRigidBody* a = scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 1, 0));
  btRigidBody* b = scene.add(new btSphereShape(0.1), 1.0, btVector3(1, 1, 0));
  btGeneric6DofConstraint sixDof(*a, *b, btTransform::getIdentity(), btTransform::getIdentity(),
                                 true);
  test::expectErrorNaming([&] { scene.world().addConstraint(&sixDof); }, "btGeneric6DofConstraint");
  btGearConstraint gear(*a, *b, btVector3(0, 0, 1), btVector3(0, 0, 1));
  test::expectErrorNaming([&] { scene.world().addConstraint(&gear); }, "btGearConstraint");
  btGeneric6DofSpring2Constraint spring(*a, *b, btTransform::getIdentity(),
                                        btTransform::getIdentity());
  spring.enableSpring(0, true);
  test::expectErrorNaming([&] { scene.world().addConstraint(&spring); }, "spring");
  EXPECT_EQ(scene.world().getNumConstraints(), 0);
}

// A step refused in an island with a joint lcp mode does not take (a spring enabled after
// addConstraint) leaves every body and every joint exactly as it was, another island's pendulum
// included (its feedback, applied impulse and breaking state).
TEST(JointsLcp, RefusedStepLeavesTheWorldExactlyUnchanged) {
  Pendulum pendulum(lcp());
  btJointFeedback feedback;
  pendulum.joint->setJointFeedback(&feedback);
  pendulum.joint->enableFeedback(true);
  btRigidBody* box =
      pendulum.scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(5, 2, 0));
  btGeneric6DofSpring2Constraint held(*box, btTransform::getIdentity());
  pendulum.scene.world().addConstraint(&held);
  const double h = 1.0 / 240;
  for (int i = 0; i < 30; ++i)
    pendulum.scene.world().stepSimulation(h, 1, h);
  const btTransform pose = pendulum.bob->getCenterOfMassTransform();
  const btVector3 velocity = pendulum.bob->getLinearVelocity(),
                  spin = pendulum.bob->getAngularVelocity();
  const btTransform boxPose = box->getCenterOfMassTransform();
  const btJointFeedback before = feedback;
  const double impulse = pendulum.joint->getAppliedImpulse();
  held.enableSpring(2, true);
  test::expectErrorNaming([&] { pendulum.scene.world().stepSimulation(h, 1, h); }, "spring");
  EXPECT_EQ(pendulum.bob->getCenterOfMassTransform(), pose);
  EXPECT_EQ(pendulum.bob->getLinearVelocity(), velocity);
  EXPECT_EQ(pendulum.bob->getAngularVelocity(), spin);
  EXPECT_EQ(box->getCenterOfMassTransform(), boxPose);
  EXPECT_EQ(feedback.m_appliedForceBodyA, before.m_appliedForceBodyA);
  EXPECT_EQ(feedback.m_appliedTorqueBodyA, before.m_appliedTorqueBodyA);
  EXPECT_EQ(pendulum.joint->getAppliedImpulse(), impulse);
  EXPECT_TRUE(pendulum.joint->isEnabled());
  pendulum.scene.world().removeConstraint(&held);
}

// The bob hanging at rest: its string's feedback is the force holding it up, m g, as Bullet fills
// it (the joint's force on body A over the step).
TEST(JointsLcp, FeedbackIsTheJointsForce) {
  Scene<DynamicsWorld> scene(lcp());
  btRigidBody* bob = scene.add(new btSphereShape(0.05), 2.0, btVector3(0, 1, 0));
  btPoint2PointConstraint joint(*bob, btVector3(0, 1, 0));
  btJointFeedback feedback;
  joint.setJointFeedback(&feedback);
  joint.enableFeedback(true);
  scene.world().addConstraint(&joint);
  for (int i = 0; i < 10; ++i)
    scene.world().stepSimulation(1.0 / 240, 1, 1.0 / 240);
  EXPECT_NEAR(feedback.m_appliedForceBodyA.y(), 2.0 * kG, 1e-9);
  EXPECT_NEAR(feedback.m_appliedForceBodyA.x(), 0.0, 1e-9);
  scene.world().removeConstraint(&joint);
}

// A pendulum released level whose string breaks at twice its weight's impulse per step: the
// tension of a pendulum released from 90° is 3 m g cos θ (θ from the vertical; a point mass, the
// 5 cm ball changes it by 0.1 %), and Bullet breaks a joint when one row's impulse reaches the
// threshold: a point-to-point joint's rows are the world's axes, the vertical one takes
// 3 m g cos² θ h, so it breaks where cos² θ = 2/3, at 35.3°, and the bob flies off.
TEST(JointsLcp, JointBreaksAtItsThreshold) {
  Pendulum pendulum(lcp());
  const double h = 1.0 / 960;
  pendulum.joint->setBreakingImpulseThreshold(2.0 * kG * h);
  double brokeAt = -1;
  for (int i = 0; i < 2000 && brokeAt < 0; ++i) {
    pendulum.scene.world().stepSimulation(h, 1, h);
    if (!pendulum.joint->isEnabled()) {
      const btVector3 arm = pendulum.bob->getCenterOfMassPosition() - pendulum.pivot;
      brokeAt = std::atan2(std::abs(arm.x()), -arm.y());
    }
  }
  ASSERT_GE(brokeAt, 0) << "never broke";
  EXPECT_NEAR(brokeAt, std::acos(std::sqrt(2.0 / 3.0)), 0.02);
  for (int i = 0; i < 100; ++i)
    pendulum.scene.world().stepSimulation(h, 1, h);
  EXPECT_GT(pendulum.jointError(), 1e-3);  // flying free
}

// Two overlapping balls joined with disableCollisionsBetweenLinkedBodies: nothing pushes them
// apart, no impact between them.
TEST(JointsLcp, LinkedBodiesDoNotCollideWhenAsked) {
  Scene<DynamicsWorld> scene(lcp());
  scene.world().setGravity(btVector3(0, 0, 0));
  btRigidBody* a = scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 1, 0));
  btRigidBody* b = scene.add(new btSphereShape(0.1), 1.0, btVector3(0.15, 1, 0));
  btPoint2PointConstraint joint(*a, *b, btVector3(0.075, 0, 0), btVector3(-0.075, 0, 0));
  scene.world().addConstraint(&joint, true);
  for (int i = 0; i < 60; ++i)
    scene.world().stepSimulation(1.0 / 60, 1, 1.0 / 60);
  EXPECT_EQ(a->getCenterOfMassPosition().distance(b->getCenterOfMassPosition()), 0.15);
  EXPECT_TRUE(scene.world().getImpactEvents().empty());
  scene.world().removeConstraint(&joint);
}

// A ball strikes a door (a 1 kg plate on a vertical hinge to the world, no gravity) square on at
// distance d from the hinge, elastically. The hinge takes no torque about its own axis, so the
// angular momentum about it and the energy are kept: with I_p the door's moment about the hinge,
// the ball leaves at v (m − I_p/d²)/(m + I_p/d²) and the door turns at 2 m v d / (I_p + m d²).
// The door's inverse mass at the contact with the hinge held has rank 1.
TEST(JointsLcp, BallStrikesAHingedDoorKeepingMomentAndEnergy) {
  Config config = test::configWithMaterial(SolverKind::lcp, ImpactLawKind::kNewton, 1.0);
  Scene<DynamicsWorld> scene(config);
  scene.world().setGravity(btVector3(0, 0, 0));
  const double width = 0.4, depth = 0.02, mass = 0.5, speed = 2.0, d = 0.6;  // m, kg, m/s, m
  btRigidBody* door =
      scene.add(new btBoxShape(btVector3(width, 0.5, depth)), 1.0, btVector3(width, 1, 0));
  btHingeConstraint hinge(*door, btVector3(-width, 0, 0), btVector3(0, 1, 0));
  scene.world().addConstraint(&hinge, true);
  btRigidBody* ball =
      scene.add(new btSphereShape(0.05), mass, btVector3(d, 1, 0.3), btVector3(0, 0, -speed));
  scene.world().setMaterial(door, "test");
  scene.world().setMaterial(ball, "test");
  const double inertia =
      (4 * width * width + 4 * depth * depth) / 12 + width * width;  // about the hinge
  for (int i = 0; i < 240 && scene.world().getImpactEvents().empty(); ++i)
    scene.world().stepSimulation(1.0 / 240, 1, 1.0 / 240);
  ASSERT_EQ(scene.world().getImpactEvents().size(), 1u);
  const double ratio = inertia / (d * d);
  // The ball's to the law's regularization (1e-9); the door's to the step's position hold on its
  // hinge, which turns its spin by O((ωh)²) (measured 2e-5 relative; free bodies struck and then
  // pulled back onto the hinge would be off by the whole pull).
  EXPECT_NEAR(ball->getLinearVelocity().z(), -speed * (mass - ratio) / (mass + ratio), 1e-7);
  const double spin = 2 * mass * speed * d / (inertia + mass * d * d);
  EXPECT_NEAR(door->getAngularVelocity().y(), spin, 1e-4 * spin);
  EXPECT_NEAR(door->getAngularVelocity().x(), 0.0, 1e-12);
  EXPECT_NEAR(scene.world().getImpactEvents()[0].energyChange, 0.0, 1e-9);
  scene.world().removeConstraint(&hinge);
}

// A box on a slider along a 30° incline (to the world): it slides down it at g sin 30° (Bullet's
// semi-implicit Euler gives a constant acceleration's velocity exactly), does not leave the line
// and does not turn.
TEST(JointsLcp, SliderHoldsTheBoxOnItsLine) {
  Scene<DynamicsWorld> scene(lcp());
  const test::SlopeSlider slider(scene);
  const double h = 1.0 / 240;
  for (int i = 0; i < 240; ++i)
    scene.world().stepSimulation(h, 1, h);
  const btVector3 v = slider.box->getLinearVelocity();
  EXPECT_NEAR(v.dot(slider.along), kG * std::sin(test::SlopeSlider::kSlope), 1e-9);
  EXPECT_LT(slider.across(v).length(), 1e-9);
  EXPECT_LT(slider.box->getAngularVelocity().length(), 1e-9);
  EXPECT_LT(slider.across(slider.box->getCenterOfMassPosition() - slider.start).length(), 1e-9);
}

// A box welded to the world (btFixedConstraint) and a ball on a cone-twist joint: the weld holds
// the box still under gravity; the cone's ball swings about its pivot and stays on it.
TEST(JointsLcp, FixedAndConeTwistJointsHold) {
  Scene<DynamicsWorld> scene(lcp());
  btRigidBody* box = scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(0, 2, 0));
  btFixedConstraint weld(*box, btTypedConstraint::getFixedBody(), btTransform::getIdentity(),
                         box->getCenterOfMassTransform());
  scene.world().addConstraint(&weld);
  btRigidBody* ball = scene.add(new btSphereShape(0.05), 1.0, btVector3(3.5, 2, 0));
  const btTransform pivot(btQuaternion::getIdentity(), btVector3(3, 2, 0));
  btConeTwistConstraint cone(*ball, btTypedConstraint::getFixedBody(),
                             ball->getCenterOfMassTransform().inverse() * pivot, pivot);
  scene.world().addConstraint(&cone);
  const double h = 1.0 / 240;
  double largestError = 0;
  for (int i = 0; i < 480; ++i) {
    scene.world().stepSimulation(h, 1, h);
    const btVector3 end = ball->getCenterOfMassTransform() * btVector3(-0.5, 0, 0);
    largestError = std::max(largestError, (end - pivot.getOrigin()).length());
  }
  EXPECT_LT((box->getCenterOfMassPosition() - btVector3(0, 2, 0)).length(), 1e-9);
  EXPECT_LT(box->getLinearVelocity().length(), 1e-9);
  EXPECT_LT(largestError, 1e-9);
  EXPECT_LT(ball->getCenterOfMassPosition().y(), 2.0 - 0.1);  // it swung down
  scene.world().removeConstraint(&weld);
  scene.world().removeConstraint(&cone);
}

}  // namespace
}  // namespace carom
