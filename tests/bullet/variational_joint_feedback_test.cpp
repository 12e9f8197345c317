// Joint feedback, applied impulses and breaking thresholds in variational mode
// (plugin/bullet/joint_impulses.h, variational_joints.h writeJointImpulses): what a joint gave its
// bodies over a step, as Bullet's solver writes it back. Expected values are closed forms (a
// hanging body's weight, a pendulum's tension at the bottom, free fall), the bodies' own momentum
// balance, or stock Bullet's solver on the same scene, never this code's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "carom/carom.h"
#include "joint_scenes.h"
#include "world_scene.h"

namespace carom {
namespace {

using test::kG;
using test::kPi;
using test::Scene;

Config variational() {
  return test::configWith(SolverKind::variational);
}

// A 2 kg ball (radius 0.05 m) hanging at rest 0.5 m below a point joint to the world at
// (0, 1, 0), its feedback enabled; gravity −y, or −z where `alongZ`.
struct HangingBall {
  static constexpr double kMass = 2.0, kLength = 0.5;  // kg, m
  explicit HangingBall(const Config& config, bool alongZ = false) : scene(config) {
    const btVector3 down = alongZ ? btVector3(0, 0, -1) : btVector3(0, -1, 0);
    scene.world().setGravity(kG * down);
    ball = scene.add(new btSphereShape(0.05), kMass, pivot + kLength * down);
    joint = std::make_unique<btPoint2PointConstraint>(*ball, -kLength * down);
    joint->setJointFeedback(&feedback);
    joint->enableFeedback(true);
    scene.world().addConstraint(joint.get());
  }
  Scene<DynamicsWorld> scene;
  btVector3 pivot{0, 1, 0};
  btRigidBody* ball;
  std::unique_ptr<btPoint2PointConstraint> joint;
  btJointFeedback feedback;
};

// At rest the string holds the weight: Λ = N = m g h / 2 each step (jointed_flow.h (1), (4)), so
// the feedback is m g up on the ball to round-off, nothing on the world, and no torque about the
// ball's centre (the string's line passes through it).
TEST(JointFeedbackVariational, HangingBallFeedsBackItsWeight) {
  HangingBall hanging(variational());
  const double h = 1.0 / 240;
  for (int i = 0; i < 10; ++i)
    hanging.scene.world().stepSimulation(h, 1, h);
  const btVector3 weight(0, HangingBall::kMass * kG, 0);
  const btJointFeedback& f = hanging.feedback;
  RecordProperty("forceError", test::scientific((f.m_appliedForceBodyA - weight).length()));
  EXPECT_LT((f.m_appliedForceBodyA - weight).length(), 1e-12 * weight.length());
  EXPECT_LT(f.m_appliedTorqueBodyA.length(), 1e-12);
  EXPECT_EQ(f.m_appliedForceBodyB.length(), 0.0);
  EXPECT_EQ(f.m_appliedTorqueBodyB.length(), 0.0);
  EXPECT_LT((hanging.ball->getCenterOfMassPosition() - btVector3(0, 0.5, 0)).length(), 1e-14);
}

// A rod (a 1 kg box 1 m long) on a point joint to the world at one end, released level: between
// impacts the LGVI changes a body's momentum by −m g h and its world angular momentum about its
// centre by nothing but the joint's impulses (Tran & Leok (5.9), exact), so each step's feedback is
// (Δγ/h − m g, ΔL/h) to round-off: the force and, about the centre, the torque of the string.
TEST(JointFeedbackVariational, FeedbackIsTheRodsMomentumBalance) {
  Scene<DynamicsWorld> scene(variational());
  btRigidBody* rod =
      scene.add(new btBoxShape(btVector3(0.5, 0.05, 0.05)), 1.0, btVector3(0.5, 2, 0));
  btPoint2PointConstraint joint(*rod, btVector3(-0.5, 0, 0));
  btJointFeedback feedback;
  joint.setJointFeedback(&feedback);
  joint.enableFeedback(true);
  scene.world().addConstraint(&joint);
  const double h = 1.0 / 240;
  const btVector3 gravity(0, -kG, 0);
  double forceError = 0, torqueError = 0, largestTorque = 0;
  for (int i = 0; i < 200; ++i) {  // 0.83 s: past the bottom
    const btVector3 momentum = rod->getLinearVelocity(), spin = test::angularMomentum(*rod);
    scene.world().stepSimulation(h, 1, h);
    const btVector3 force = (rod->getLinearVelocity() - momentum) / h - gravity;
    const btVector3 torque = (test::angularMomentum(*rod) - spin) / h;
    forceError = std::max(forceError, (feedback.m_appliedForceBodyA - force).length());
    torqueError = std::max(torqueError, (feedback.m_appliedTorqueBodyA - torque).length());
    largestTorque = std::max(largestTorque, torque.length());
  }
  RecordProperty("forceError", test::scientific(forceError));
  RecordProperty("torqueError", test::scientific(torqueError));
  // Measured: 8.9e-14 N and 2.0e-14 N m.
  EXPECT_GT(largestTorque, 1.0);
  EXPECT_LT(forceError, 1e-9 * kG);
  EXPECT_LT(torqueError, 1e-9 * kG);
}

// The pendulum of joint_scenes.h (a 1 kg ball, radius 5 cm, 1 m below its pivot) released level:
// at the bottom the string pulls m g + m ω² L on it, ω² L² (m L² + I_c) / L² = 2 m g L by energy
// (I_c = 0.4 m r²). The feedback is the step's mean force, read in the step whose middle is
// nearest the bottom: within ω h / 2 of it, the tension's change there is second order, (ω h)²
// ≈ 3e-4 of it at 240 Hz, and the flow's energy error 6e-5 m g L (variational_joints_test.cpp).
TEST(JointFeedbackVariational, SwingingBallAtTheBottomPullsItsWeightAndItsTurn) {
  test::Pendulum pendulum(variational());
  btJointFeedback feedback;
  pendulum.joint->setJointFeedback(&feedback);
  pendulum.joint->enableFeedback(true);
  const double h = 1.0 / 240;
  const double L = test::Pendulum::kLength, r = test::Pendulum::kRadius;
  const double omega2 = 2 * kG * L / (L * L + 0.4 * r * r);
  const double tension = kG + omega2 * L;  // m = 1 kg
  double previous = pendulum.bob->getCenterOfMassPosition().x() - pendulum.pivot.x();
  double nearest = INFINITY, atBottom = -1;  // the middle of the step, and its feedback there
  while (previous > -0.5) {                  // down through the bottom and on
    pendulum.scene.world().stepSimulation(h, 1, h);
    const double x = pendulum.bob->getCenterOfMassPosition().x() - pendulum.pivot.x();
    if (std::abs(previous + x) < nearest) {
      nearest = std::abs(previous + x);
      atBottom = feedback.m_appliedForceBodyA.y();
    }
    previous = x;
  }
  RecordProperty("relativeError", test::scientific(atBottom / tension - 1));
  // Measured: −5.9e-5 (3 m g = 29.43 N for a point mass; 29.42 N here).
  EXPECT_NEAR(atBottom, tension, 1e-3 * tension);
}

// Two 1 kg balls on strings, the upper hung from the world and the lower from it, swinging: the
// joint between them pulls on each as much as on the other (its point rows' Jacobians are ±1, so
// to round-off), and its torque on each is its force's moment about the ball's centre at the pivot,
// to second order in ω h: Λ acts at the step's start lever and N at its end's (jointed_flow.h),
// each about half the impulse, so the mean of the two levers.
TEST(JointFeedbackVariational, JointBetweenTwoBodiesPullsEachWayEqually) {
  Scene<DynamicsWorld> scene(variational());
  btRigidBody* upper = scene.add(new btSphereShape(0.05), 1.0, btVector3(0.5, 2, 0));
  btRigidBody* lower = scene.add(new btSphereShape(0.05), 1.0, btVector3(1.0, 2, 0));
  scene.addJoint(new btPoint2PointConstraint(*upper, btVector3(-0.5, 0, 0)), false);
  btPoint2PointConstraint link(*upper, *lower, btVector3(0.25, 0, 0), btVector3(-0.25, 0, 0));
  btJointFeedback feedback;
  link.setJointFeedback(&feedback);
  link.enableFeedback(true);
  scene.world().addConstraint(&link, true);
  const double h = 1.0 / 240;
  double imbalance = 0, largest = 0, leverError = 0;
  const btVector3 pivotInB(-0.25, 0, 0);
  for (int i = 0; i < 240; ++i) {
    const btVector3 leverBefore = lower->getCenterOfMassTransform().getBasis() * pivotInB;
    scene.world().stepSimulation(h, 1, h);
    imbalance =
        std::max(imbalance, (feedback.m_appliedForceBodyA + feedback.m_appliedForceBodyB).length());
    largest = std::max(largest, feedback.m_appliedForceBodyA.length());
    const btVector3 leverB =
        0.5 * (leverBefore + lower->getCenterOfMassTransform().getBasis() * pivotInB);
    leverError = std::max(
        leverError,
        (feedback.m_appliedTorqueBodyB - leverB.cross(feedback.m_appliedForceBodyB)).length());
  }
  RecordProperty("imbalance", test::scientific(imbalance));
  RecordProperty("largestForce", test::scientific(largest));
  RecordProperty("leverError", test::scientific(leverError));
  EXPECT_GT(largest, kG);
  EXPECT_LT(imbalance, 1e-12 * largest);
  // Measured: 5.5e-3 N m, 4e-4 of the largest moment (a lever at the step's end alone: 0.39).
  EXPECT_LT(leverError, 2e-3 * 0.25 * largest);
}

// getAppliedImpulse is, as Bullet writes it back, the impulse of the joint's last row: for a
// point-to-point joint the world's z axis, on A. Hanging along −z the string's impulse over a step
// is m g h, as stock Bullet's solver gives it on the same scene; hanging along −y the z row holds
// nothing.
TEST(JointFeedbackVariational, AppliedImpulseIsTheLastRowsAsBullets) {
  const double h = 1.0 / 240;
  const double weight = HangingBall::kMass * kG * h;
  HangingBall variationalZ(variational(), true),
      bulletZ(test::configWith(SolverKind::bullet), true);
  HangingBall variationalY(variational());
  for (int i = 0; i < 10; ++i) {
    for (HangingBall* hanging : {&variationalZ, &bulletZ, &variationalY})
      hanging->scene.world().stepSimulation(h, 1, h);
  }
  RecordProperty("variational", test::scientific(variationalZ.joint->getAppliedImpulse()));
  RecordProperty("bullet", test::scientific(bulletZ.joint->getAppliedImpulse()));
  EXPECT_NEAR(bulletZ.joint->getAppliedImpulse(), weight, 1e-6 * weight);  // the peer's
  EXPECT_NEAR(variationalZ.joint->getAppliedImpulse(), weight, 1e-12 * weight);
  EXPECT_NEAR(variationalY.joint->getAppliedImpulse(), 0.0, 1e-12 * weight);
}

// A rod (1 kg, 1 m) on a hinge at its end, resting level on its low stop (plastic): the stop holds
// the weight's moment about the pivot, m g a (a = 0.5 m), and is the hinge's last row (Bullet's
// limit row): getAppliedImpulse is m g a h in size.
TEST(JointFeedbackVariational, HingeOnItsStopAppliesTheStopsImpulse) {
  Scene<DynamicsWorld> scene(variational());
  btRigidBody* rod =
      scene.add(new btBoxShape(btVector3(0.5, 0.05, 0.05)), 1.0, btVector3(0.5, 2, 0));
  btHingeConstraint hinge(*rod, btVector3(-0.5, 0, 0), btVector3(0, 0, 1));
  hinge.setLimit(0, kPi / 2, 0.9, 0.3, 0.0);  // level is its low stop; plastic
  hinge.enableFeedback(true);
  scene.world().addConstraint(&hinge, true);
  const double h = 1.0 / 240;
  for (int i = 0; i < 20; ++i)
    scene.world().stepSimulation(h, 1, h);
  const double moment = kG * 0.5 * h;
  RecordProperty("appliedImpulse", test::scientific(hinge.getAppliedImpulse()));
  EXPECT_NEAR(std::abs(hinge.getAppliedImpulse()), moment, 1e-9 * moment);
  EXPECT_LT(rod->getLinearVelocity().length(), 1e-9);
}

// A joint breaks in the step in which one of its rows' impulses reaches its threshold, as Bullet's
// (btSequentialImpulseConstraintSolver::writeBackJoints): the hanging ball's string, whose vertical
// row takes m g h each step, set to break at half of it, holds through the first step (the ball
// still at rest) and is disabled after it; from then on the ball falls freely, v = −g t and
// y = y₀ − g t²/2 exactly (the LGVI's free flight under gravity). Set at twice m g h it holds.
TEST(JointBreakingVariational, StringBelowTheWeightBreaksInTheFirstStepThenTheBallFalls) {
  const double h = 1.0 / 240;
  HangingBall weak(variational());
  weak.joint->setBreakingImpulseThreshold(0.5 * HangingBall::kMass * kG * h);
  weak.scene.world().stepSimulation(h, 1, h);
  EXPECT_FALSE(weak.joint->isEnabled());
  const double y0 = weak.ball->getCenterOfMassPosition().y();
  EXPECT_NEAR(y0, 0.5, 1e-14);
  EXPECT_LT(weak.ball->getLinearVelocity().length(), 1e-14);
  const int steps = 100;
  for (int i = 0; i < steps; ++i)
    weak.scene.world().stepSimulation(h, 1, h);
  const double t = steps * h;
  EXPECT_NEAR(weak.ball->getLinearVelocity().y(), -kG * t, 1e-12);
  EXPECT_NEAR(weak.ball->getCenterOfMassPosition().y(), y0 - 0.5 * kG * t * t, 1e-12);
  EXPECT_EQ(weak.joint->getAppliedImpulse(), 0.0);  // disabled: nothing applied since
  EXPECT_EQ(weak.feedback.m_appliedForceBodyA.length(), 0.0);

  HangingBall strong(variational());
  strong.joint->setBreakingImpulseThreshold(2 * HangingBall::kMass * kG * h);
  for (int i = 0; i < 1000; ++i)
    strong.scene.world().stepSimulation(h, 1, h);
  EXPECT_TRUE(strong.joint->isEnabled());
  EXPECT_LT((strong.ball->getCenterOfMassPosition() - btVector3(0, 0.5, 0)).length(), 1e-13);
}

// A 1 kg ball held at its centre by a point joint to the world, without gravity, struck square by
// a free 1 kg ball at v (Newton's law, e = 1): the joint holds the struck ball still, so the
// striker leaves at −v and the joint takes the whole 2 m v, −x on the struck ball, in the strike's
// step (the impact's impulse passed through the joints, core::contact::applyHeldLaw). Set to break
// at 1 N s: a strike at 1 m/s (2 N s) breaks it, one at 0.25 m/s (0.5 N s) does not.
TEST(JointBreakingVariational, HardStrikeBreaksTheJointSoftStrikeDoesNot) {
  for (const double speed : {1.0, 0.25}) {
    SCOPED_TRACE(speed);
    Scene<DynamicsWorld> scene(
        test::configWithMaterial(SolverKind::variational, ImpactLawKind::kNewton, 1.0));
    scene.world().setGravity(btVector3(0, 0, 0));
    btRigidBody* held = scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 1, 0));
    btRigidBody* striker =
        scene.add(new btSphereShape(0.1), 1.0, btVector3(-0.5, 1, 0), btVector3(speed, 0, 0));
    scene.world().setMaterial(held, "test");
    scene.world().setMaterial(striker, "test");
    btPoint2PointConstraint joint(*held, btVector3(0, 0, 0));
    joint.setBreakingImpulseThreshold(1.0);
    btJointFeedback feedback;
    joint.setJointFeedback(&feedback);
    joint.enableFeedback(true);
    scene.world().addConstraint(&joint);
    const double h = 1.0 / 240;
    int steps = 0;
    while (striker->getLinearVelocity().x() > 0 && steps < 600) {
      scene.world().stepSimulation(h, 1, h);
      ++steps;
    }
    ASSERT_LT(steps, 600) << "no strike";
    const btVector3 expected(-2 * speed / h, 0, 0);  // N: 2 m v over the step
    RecordProperty(speed == 1.0 ? "hardForceError" : "softForceError",
                   test::scientific((feedback.m_appliedForceBodyA - expected).length()));
    EXPECT_NEAR(striker->getLinearVelocity().x(), -speed, 1e-12);
    EXPECT_LT((feedback.m_appliedForceBodyA - expected).length(), 1e-9 * expected.length());
    EXPECT_EQ(joint.isEnabled(), speed < 0.5);
    EXPECT_LT(held->getLinearVelocity().length(), 1e-12);  // held through the strike's step
    scene.world().removeConstraint(&joint);
  }
}

}  // namespace
}  // namespace carom
