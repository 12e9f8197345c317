// btGeneric6DofSpring2Constraint in variational mode (plugin/bullet/variational_joints.h): its
// locked axes held as holonomic rows, its limited ones as stops struck inside the step
// (variational_limits.h). References: a btHingeConstraint pendulum of the same axis, closed forms
// of a free slide between stops, and Bullet's own reading of the joint's coordinates
// (calculateTransforms, getRelativePivotPosition, getAngle), never this code's output.
#include <gtest/gtest.h>

#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "carom/carom.h"
#include "joint_scenes.h"
#include "support/errors.h"
#include "world_scene.h"

namespace carom {
namespace {

using test::Band;
using test::kG;
using test::kPi;
using test::Scene;

// A basis whose x axis is `x` (unit), y the unit `y` ⟂ x.
btMatrix3x3 basisAlong(const btVector3& x, const btVector3& y) {
  const btVector3 z = x.cross(y);
  return btMatrix3x3(x.x(), y.x(), z.x(), x.y(), y.y(), z.y(), x.z(), y.z(), z.z());
}

// The largest |coordinate| of Bullet's reading of `joint` over the axes `locked` (m or rad).
double lockedDrift(btGeneric6DofSpring2Constraint& joint, const bool (&locked)[6]) {
  joint.calculateTransforms();
  double worst = 0;
  for (int axis = 0; axis < 6; ++axis) {
    if (!locked[axis]) continue;
    const double value = axis < 3 ? joint.getRelativePivotPosition(axis) : joint.getAngle(axis - 3);
    worst = std::max(worst, std::abs(value));
  }
  return worst;
}

// A rod (a 1 kg box 1 m long, 0.1 m square) level along x, hung from the world at its end on an
// axis n ⟂ x tilted out of the vertical plane, released at rest: by a btHingeConstraint about n,
// or by a 6dof whose frame's x is n, every axis locked but the rotation about x (a hinge-like 6dof
// about its first axis). Gravity pulls along n too: the locked axes carry load.
struct TiltedRod {
  static constexpr double kHalf = 0.5;  // m
  explicit TiltedRod(bool sixDof) : scene(test::configWith(SolverKind::variational)) {
    rod = scene.add(new btBoxShape(btVector3(kHalf, 0.05, 0.05)), 1.0, btVector3(kHalf, 2, 0));
    const btVector3 n = btVector3(0, 0.6, 0.8), pivot(-kHalf, 0, 0);
    if (!sixDof) {
      scene.addJoint(new btHingeConstraint(*rod, pivot, n), true);
      return;
    }
    joint = new btGeneric6DofSpring2Constraint(
        *rod, btTransform(basisAlong(n, btVector3(1, 0, 0)), pivot));
    for (int axis = 0; axis < 6; ++axis)
      joint->setLimit(axis, 0, 0);
    joint->setLimit(3, 1, -1);  // lower above upper: free
    scene.addJoint(joint, true);
  }
  Scene<DynamicsWorld> scene;
  btRigidBody* rod;
  btGeneric6DofSpring2Constraint* joint = nullptr;
};

// The hinge-like 6dof and the hinge hold the same manifold by different rows: the same
// trajectory to the joints' tolerance, the 6dof's energy in a band that does not drift, and
// Bullet's reading of its locked axes at 0 to round-off.
TEST(SixDofVariational, HingeLikeSixDofSwingsAsTheHinge) {
  const double h = 1.0 / 240;
  TiltedRod hinge(false), sixDof(true);
  const double energy0 = test::totalEnergy(sixDof.scene.world());
  const int steps = 2400, window = 600;  // 10 s, about 7 swings
  Band first, last;
  double apart = 0, turned = 0, drift = 0;
  const bool locked[6] = {true, true, true, false, true, true};
  for (int i = 0; i < steps; ++i) {
    hinge.scene.world().stepSimulation(h, 1, h);
    sixDof.scene.world().stepSimulation(h, 1, h);
    const btTransform a = hinge.rod->getCenterOfMassTransform();
    const btTransform b = sixDof.rod->getCenterOfMassTransform();
    apart = std::max(apart, (a.getOrigin() - b.getOrigin()).length());
    // The bases' largest entry apart: an angle from a quaternion's dot product (acos near 1) would
    // read round-off as 3e-8 rad.
    for (int row = 0; row < 3; ++row)
      turned = std::max(turned, double((a.getBasis()[row] - b.getBasis()[row]).length()));
    drift = std::max(drift, lockedDrift(*sixDof.joint, locked));
    const double energy = test::totalEnergy(sixDof.scene.world());
    if (i < window) first.add(energy);
    if (i >= steps - window) last.add(energy);
  }
  const double mga = kG * TiltedRod::kHalf;  // J
  RecordProperty("apart", test::scientific(apart));
  RecordProperty("turned", test::scientific(turned));
  RecordProperty("lockedDrift", test::scientific(drift));
  RecordProperty("firstBand", test::scientific(first.width() / mga));
  RecordProperty("lastBand", test::scientific(last.width() / mga));
  // It swings: the rod's far end moved off level.
  EXPECT_LT(sixDof.rod->getCenterOfMassPosition().y(), 2 - 0.05);
  EXPECT_LT(apart, 1e-10);
  EXPECT_LT(turned, 1e-10);
  EXPECT_LT(drift, 1e-12);
  test::expectBandWithoutDrift(first, last, energy0, mga, 0.05);
}

// A 0.2 m box (1 kg) on a 6dof to the world whose only unlocked axis is linear x, limited to
// [−0.3, 0.5], the frame's x at `slope` (rad) from the world's x in the xy plane.
struct BoxOnRail {
  static constexpr double kLow = -0.3, kHigh = 0.5;  // m
  BoxOnRail(double slope, double bounce) : scene(test::configWith(SolverKind::variational)) {
    box = scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(0, 2, 0));
    along = btVector3(std::cos(slope), std::sin(slope), 0);
    joint = new btGeneric6DofSpring2Constraint(
        *box, btTransform(basisAlong(along, btVector3(-along.y(), along.x(), 0)), btVector3()));
    for (int axis = 0; axis < 6; ++axis)
      joint->setLimit(axis, 0, 0);
    joint->setLimit(0, kLow, kHigh);
    joint->setBounce(0, bounce);
    scene.addJoint(joint, true);
  }
  // Bullet's coordinate of the slide (m).
  double position() {
    joint->calculateTransforms();
    return joint->getRelativePivotPosition(0);
  }
  Scene<DynamicsWorld> scene;
  btRigidBody* box;
  btVector3 along;
  btGeneric6DofSpring2Constraint* joint;
};

// Sliding at v without gravity, elastic (bounce 1): the LGVI carries the box exactly v h a step,
// so it reaches the high stop at t* = 0.5 / v; the step that holds t* ends at 0.5 − v (t − t*).
// Every strike reverses the velocity and keeps the energy.
TEST(SixDofVariational, ElasticLinearStopStrikesAtItsInstantAndKeepsTheEnergy) {
  const double h = 1.0 / 60, v = 0.7;
  BoxOnRail rail(0.5, 1.0);
  rail.scene.world().setGravity(btVector3(0, 0, 0));
  rail.box->setLinearVelocity(v * rail.along);
  const double energy0 = 0.5 * v * v;
  const double instant = BoxOnRail::kHigh / v;
  const int strikeStep = static_cast<int>(std::ceil(instant / h));
  const bool locked[6] = {false, true, true, true, true, true};
  double worstEnergy = 0, beyond = 0, drift = 0, lastSpeed = v;
  int reversals = 0;
  for (int i = 1; i <= 600; ++i) {  // 10 s: 7 m of travel, strikes every 0.8 m after the first
    rail.scene.world().stepSimulation(h, 1, h);
    const double s = rail.position();
    const double speed = rail.box->getLinearVelocity().dot(rail.along);
    beyond = std::max({beyond, BoxOnRail::kLow - s, s - BoxOnRail::kHigh});
    const double kinetic = 0.5 * rail.box->getLinearVelocity().length2() +
                           0.5 * rail.box->getAngularVelocity().length2() * (0.2 * 0.2 / 6);
    worstEnergy = std::max(worstEnergy, std::abs(kinetic - energy0) / energy0);
    drift = std::max(drift, lockedDrift(*rail.joint, locked));
    if (speed * lastSpeed < 0) ++reversals;
    lastSpeed = speed;
    if (i == strikeStep) {
      ASSERT_LT(speed, 0) << "no strike in the step of the instant";
      const double struck = i * h - (BoxOnRail::kHigh - s) / v;
      RecordProperty("instantError", test::scientific(struck - instant));
      EXPECT_NEAR(struck, instant, 1e-9);
      EXPECT_NEAR(speed, -v, 1e-12 * v);
    }
  }
  RecordProperty("energyError", test::scientific(worstEnergy));
  RecordProperty("beyond", test::scientific(beyond));
  RecordProperty("lockedDrift", test::scientific(drift));
  EXPECT_EQ(reversals, 9);
  EXPECT_LT(worstEnergy, 1e-12);
  EXPECT_LT(beyond, 1e-12);
  EXPECT_LT(drift, 1e-12);
}

// The rail tilted 60° down, bounce 0: the box slides from rest under gravity onto the high stop and
// rests on it exactly, the rail's locked axes carrying gravity's part across it.
TEST(SixDofVariational, PlasticLinearStopHoldsTheBoxOnIt) {
  const double h = 1.0 / 240;
  BoxOnRail rail(-kPi / 3, 0.0);
  const bool locked[6] = {false, true, true, true, true, true};
  // From rest at g sin 60° along the rail: s = ½ g sin 60° t² reaches 0.5 m at t = √(1/(g sin
  // 60°)).
  const double arrival = std::sqrt(2 * BoxOnRail::kHigh / (kG * std::sin(kPi / 3)));
  double offStop = 0, fastest = 0, drift = 0, beyond = 0;
  int struck = -1;
  for (int i = 1; i <= 720; ++i) {  // 3 s
    rail.scene.world().stepSimulation(h, 1, h);
    const double s = rail.position();
    beyond = std::max(beyond, s - BoxOnRail::kHigh);
    drift = std::max(drift, lockedDrift(*rail.joint, locked));
    if (struck < 0 && s > BoxOnRail::kHigh - 1e-9) struck = i;
    if (struck >= 0) {
      offStop = std::max(offStop, std::abs(s - BoxOnRail::kHigh));
      fastest = std::max(fastest, double(rail.box->getLinearVelocity().length() +
                                         rail.box->getAngularVelocity().length()));
    }
  }
  RecordProperty("struck", struck);
  RecordProperty("offStop", test::scientific(offStop));
  RecordProperty("speed", test::scientific(fastest));
  RecordProperty("lockedDrift", test::scientific(drift));
  ASSERT_GE(struck, 0) << "never reached its stop";
  EXPECT_EQ(struck, static_cast<int>(std::ceil(arrival / h)));
  EXPECT_LT(offStop, 1e-12);
  EXPECT_LT(beyond, 1e-12);
  EXPECT_LT(fastest, 1e-9);
  EXPECT_LT(drift, 1e-12);
}

// A rod spinning at ω about its centre without gravity on a 6dof whose one unlocked axis is the
// rotation about z, limited to [−0.8, 0.5] rad, elastic: the LGVI turns it by asin(h ω) a step
// (Tran & Leok (5.9c) about a principal axis), so it strikes the high stop at the discrete flow's
// instant, read from Bullet's angle at the end of that step, and reverses keeping the energy.
// Bullet's angle turns B (the rod) to A (the world): spinning at −ω about z raises it.
TEST(SixDofVariational, ElasticAngularStopStrikesAtTheFlowsInstant) {
  const double h = 1.0 / 60, omega = 2.0, stop = 0.5;
  Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  scene.world().setGravity(btVector3(0, 0, 0));
  btRigidBody* rod = scene.add(new btBoxShape(btVector3(0.5, 0.05, 0.05)), 1.0, btVector3(0, 2, 0));
  auto* joint = new btGeneric6DofSpring2Constraint(*rod, btTransform::getIdentity());
  for (int axis = 0; axis < 6; ++axis)
    joint->setLimit(axis, 0, 0);
  joint->setLimit(5, -0.8, stop);
  joint->setBounce(5, 1.0);
  scene.addJoint(joint, true);
  rod->setAngularVelocity(btVector3(0, 0, -omega));
  const double perStep = std::asin(h * omega);
  const int before = static_cast<int>(std::floor(stop / perStep));
  const double instant = (before + std::sin(stop - before * perStep) / (h * omega)) * h;
  const bool locked[6] = {true, true, true, true, true, false};
  double beyond = 0, drift = 0;
  for (int i = 1; i <= before + 1; ++i) {
    scene.world().stepSimulation(h, 1, h);
    joint->calculateTransforms();
    beyond = std::max(beyond, joint->getAngle(2) - stop);
    drift = std::max(drift, lockedDrift(*joint, locked));
  }
  ASSERT_GT(rod->getAngularVelocity().z(), 0) << "no strike in the step of the instant";
  const double struck = (before + 1 - std::sin(stop - joint->getAngle(2)) / (h * omega)) * h;
  RecordProperty("instantError", test::scientific(struck - instant));
  EXPECT_NEAR(struck, instant, 1e-9);
  EXPECT_NEAR(rod->getAngularVelocity().z(), omega, 1e-12 * omega);
  EXPECT_LT(beyond, 1e-12);
  EXPECT_LT(drift, 1e-12);
}

// A 1 kg ball (0.05 m) 1 m from a pivot at 60° below level, thrown sideways about the pivot: hung
// by a btPoint2PointConstraint, or by a ball-like 6dof (every rotation free, x and z locked) whose
// y may rise from its low stop at −0.1 m (the ball starting on it, bounce 0) to 0. The string's
// pull holds the 6dof on its stop (never above level, the ball never pushes the pivot up): welded
// there, it swings as the point joint's pendulum, Bullet's y on the stop to round-off.
TEST(SixDofVariational, BallLikeSixDofOnItsLinearStopSwingsAsAPointJoint) {
  const double h = 1.0 / 240, drop = 0.1, length = 1.0;
  const btVector3 pivot(0, 2, 0);
  const btVector3 out = length * btVector3(std::cos(kPi / 3), -std::sin(kPi / 3), 0);
  const btVector3 v(0, 0, 1.0);                            // m/s, across the plane of the rod
  const btVector3 omega = out.cross(v) / length / length;  // the pivot's point at rest
  const auto hung = [&](Scene<DynamicsWorld>& scene) {
    btRigidBody* ball = scene.add(new btSphereShape(0.05), 1.0, pivot + out, v);
    ball->setAngularVelocity(omega);
    return ball;
  };
  Scene<DynamicsWorld> point(test::configWith(SolverKind::variational));
  btRigidBody* pointBall = hung(point);
  point.addJoint(new btPoint2PointConstraint(*pointBall, -out), true);
  Scene<DynamicsWorld> sixDof(test::configWith(SolverKind::variational));
  btRigidBody* ball = hung(sixDof);
  auto* joint = new btGeneric6DofSpring2Constraint(
      btTypedConstraint::getFixedBody(), *ball,
      btTransform(btMatrix3x3::getIdentity(), pivot + btVector3(0, drop, 0)),
      btTransform(btMatrix3x3::getIdentity(), -out));
  joint->setLimit(1, -drop, 0);  // x and z stay locked at 0, the rotations free (the defaults)
  sixDof.addJoint(joint, true);
  const bool locked[6] = {true, false, true, false, false, false};
  double apart = 0, offStop = 0, drift = 0;
  for (int i = 0; i < 2400; ++i) {  // 10 s
    point.world().stepSimulation(h, 1, h);
    sixDof.world().stepSimulation(h, 1, h);
    apart = std::max(
        apart,
        double((pointBall->getCenterOfMassPosition() - ball->getCenterOfMassPosition()).length()));
    joint->calculateTransforms();
    offStop = std::max(offStop, std::abs(joint->getRelativePivotPosition(1) + drop));
    drift = std::max(drift, lockedDrift(*joint, locked));
  }
  RecordProperty("apart", test::scientific(apart));
  RecordProperty("offStop", test::scientific(offStop));
  RecordProperty("lockedDrift", test::scientific(drift));
  EXPECT_GT(std::abs(ball->getCenterOfMassPosition().z()), 0.1);  // it swung out of the plane
  EXPECT_LT(apart, 1e-10);
  EXPECT_LT(offStop, 1e-12);
  EXPECT_LT(drift, 1e-12);
}

// A 1 kg box on the rail (BoxOnRail, no gravity) or a rod (1 kg, 1 m) about its centre on a
// hinge-like 6dof free about z, each axis' motor at target `kTarget` with at most kForce: each
// step's kick adds kForce h to the momentum along the axis until the speed reaches the target,
// where it stays. Bullet's own solver (bullet mode) drives the same scene to the same speed, its
// sense included: Bullet's linear motor row drives −ṡ (the pivots' (v_A − v_B)·axis) to the
// target, its angular one ṡ.
TEST(SixDofVariational, MotorsRampAtTheirForceToBulletsTargetSpeed) {
  constexpr double kTarget = 1.5, kForce = 3.0, h = 1.0 / 60;
  for (const int axis : {0, 5}) {
    SCOPED_TRACE(axis);
    const auto speedAfter = [&](SolverKind kind, int steps, std::vector<double>* speeds) {
      Scene<DynamicsWorld> scene(test::configWith(kind));
      scene.world().setGravity(btVector3(0, 0, 0));
      btRigidBody* body =
          scene.add(new btBoxShape(btVector3(0.5, 0.05, 0.05)), 1.0, btVector3(0, 2, 0));
      auto* joint = new btGeneric6DofSpring2Constraint(*body, btTransform::getIdentity());
      for (int other = 0; other < 6; ++other)
        joint->setLimit(other, 0, 0);
      joint->setLimit(axis, 1, -1);  // free
      joint->enableMotor(axis, true);
      joint->setTargetVelocity(axis, kTarget);
      joint->setMaxMotorForce(axis, kForce);
      scene.addJoint(joint, true);
      // ṡ: B (the body) against the world, Bullet's s = (p_B − p_A)·x_A linear, and E_A = E_B
      // R_z(s) turning: ṡ = −ω_z.
      const auto rate = [&] {
        return axis < 3 ? double(body->getLinearVelocity().x())
                        : -double(body->getAngularVelocity().z());
      };
      for (int i = 0; i < steps; ++i) {
        scene.world().stepSimulation(h, 1, h);
        if (speeds) speeds->push_back(rate());
      }
      return rate();
    };
    std::vector<double> speeds;
    speedAfter(SolverKind::variational, 60, &speeds);
    const double inertia = axis < 3 ? 1.0 : (1.0 + 0.1 * 0.1) / 12;  // kg or kg m² about z
    const double perStep = kForce * h / inertia;
    // Bullet's motor sense: the speed it drives ṡ to.
    const double target = axis < 3 ? -kTarget : kTarget;
    double worst = 0;
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      const double expected = std::copysign(std::min((i + 1) * perStep, std::abs(target)), target);
      worst = std::max(worst, std::abs(speeds[i] - expected));
    }
    RecordProperty(axis < 3 ? "linearRampError" : "angularRampError", test::scientific(worst));
    EXPECT_LT(worst, 1e-12);
    const double bullet = speedAfter(SolverKind::bullet, 60, nullptr);
    RecordProperty(axis < 3 ? "linearBullet" : "angularBullet", test::scientific(bullet));
    EXPECT_NEAR(bullet, target, 1e-3 * kTarget);
  }
}

// A 6dof with every axis free and unlimited holds nothing: two boxes thrown apart spinning move as
// free bodies (a constant velocity without gravity, to round-off), the joint giving no impulse.
TEST(SixDofVariational, EveryAxisFreeHoldsNothing) {
  const double h = 1.0 / 60;
  Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  scene.world().setGravity(btVector3(0, 0, 0));
  const btVector3 va(0.3, -0.2, 0.1), vb(-0.4, 0.5, 0.2);
  btRigidBody* a = scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(0, 2, 0), va);
  btRigidBody* b = scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(1, 2, 0), vb);
  b->setAngularVelocity(btVector3(0, 0, 2));  // about a principal axis: a steady spin
  auto* joint = new btGeneric6DofSpring2Constraint(*a, *b, btTransform::getIdentity(),
                                                   btTransform::getIdentity());
  for (int axis = 0; axis < 6; ++axis)
    joint->setLimit(axis, 1, -1);
  btJointFeedback feedback;
  joint->setJointFeedback(&feedback);
  scene.addJoint(joint, true);
  for (int i = 0; i < 120; ++i)
    scene.world().stepSimulation(h, 1, h);
  EXPECT_LT((a->getCenterOfMassPosition() - btVector3(0, 2, 0) - 2.0 * va).length(), 1e-12);
  EXPECT_LT((b->getCenterOfMassPosition() - btVector3(1, 2, 0) - 2.0 * vb).length(), 1e-12);
  EXPECT_EQ(joint->getAppliedImpulse(), 0.0);
  EXPECT_EQ(feedback.m_appliedForceBodyA.length(), 0.0);
}

// What the step cannot hold of a 6dof is refused by name, the axis with it.
TEST(SixDofVariational, WhatItCannotHoldIsRefusedByAxis) {
  Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  btRigidBody* a = scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 1, 0));
  btRigidBody* b = scene.add(new btSphereShape(0.1), 1.0, btVector3(1, 1, 0));
  const btTransform identity = btTransform::getIdentity();
  const auto refused = [&](const auto& change, const std::string& name) {
    btGeneric6DofSpring2Constraint joint(*a, *b, identity, identity);  // a ball: rotations free
    change(joint);
    test::expectErrorNaming([&] { scene.world().addConstraint(&joint); }, name);
  };
  refused(
      [](auto& j) {
        j.enableMotor(1, true);
        j.setServo(1, true);
      },
      "axis 1 motorised as a servo");
  refused([](auto& j) { j.enableMotor(4, true); }, "axis 4 motorised with all three rotations");
  refused([](auto& j) { j.enableSpring(4, true); }, "axis 4 sprung");
  refused([](auto& j) { j.setLimit(3, 0, 0); }, "axis 5 unlocked with axis 4");
  refused([](auto& j) { j.setLimit(4, -0.5, 0.5); }, "axis 4 limited with all three rotations");
  refused(
      [](auto& j) {
        j.setLimit(3, 0.3, 0.3);
        j.setLimit(4, 0, 0);
      },
      "axis 3 locked at 0.3");
  refused(
      [](auto& j) {  // XYZ: y is the middle axis
        j.setLimit(3, 0, 0);
        j.setLimit(5, 0, 0);
        j.setLimit(4, -2, 1);
      },
      "axis 4 limited beyond");
  refused(
      [](auto& j) {
        j.setLimit(2, -1, 1);
        j.setBounce(2, 1.5);
      },
      "axis 2 limited with a bounce 1.5");
  EXPECT_EQ(scene.world().getNumConstraints(), 0);
}

}  // namespace
}  // namespace carom
