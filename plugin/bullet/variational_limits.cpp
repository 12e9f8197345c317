#include "variational_limits.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "carom/core/contact/joint_rows.h"
#include "carom/core/event.h"
#include "carom/core/joints/cone.h"
#include "carom/error.h"
#include "variational_joints.h"

namespace carom::detail {
namespace {

using core::BodyState;
using core::Vec3;
using core::joints::JointedSystem;

constexpr double kPi = 3.14159265358979323846;

// A stop closer than this to its joint's position counts as reached (rad or m): a weld leaves the
// position there to the joints' tolerance (1e-14), a located strike on the admissible side of the
// root.
constexpr double kAtStop = 1e-12;
// Strikes of one flow before it gives up (then it throws): a Zeno sequence ends in a lock after
// one rebound, so only a group whose stops strike each other in turn comes near it.
constexpr int kMaxStopStrikes = 64;

// An angle brought into (−π, π].
double wrapped(double angle) {
  return std::atan2(std::sin(angle), std::cos(angle));
}

// One stop of a joint: side +1 the low stop (φ = s − low), −1 the high one (φ = high − s).
struct Stop {
  int drive;
  double side;
};

// The frames' axes in the world (E = RC; C on the world) of a joint's side.
core::Mat3 axesOf(const core::joints::JointFrame& frame, const std::vector<BodyState>& states) {
  if (frame.body == core::joints::kWorld) return frame.basis;
  return states[frame.body].R * frame.basis;
}

// A joint's side's pivot in the world (p = x + Rρ), and its lever p − x (zero on the world).
Vec3 pivotOf(const core::joints::JointFrame& frame, const std::vector<BodyState>& states) {
  if (frame.body == core::joints::kWorld) return frame.pivot;
  return states[frame.body].x + states[frame.body].R * frame.pivot;
}
Vec3 leverOf(const core::joints::JointFrame& frame, const std::vector<BodyState>& states) {
  if (frame.body == core::joints::kWorld) return Vec3::Zero();
  return states[frame.body].R * frame.pivot;
}

// x_A in B's frame, c = E_Bᵀx_A, of a cone-twist's frames.
Vec3 swingDirection(const core::joints::Joint& joint, const std::vector<BodyState>& states) {
  return axesOf(joint.b, states).transpose() * axesOf(joint.a, states).col(0);
}

// φ of a stop: the distance of s from the stop on the admissible side (rad or m), an angle taken
// within π of the range's centre; a swing's, its gap to the cone (its one stop, either side).
double gapOf(const JointedSystem& system, const JointDrive& drive, double side,
             const std::vector<BodyState>& states) {
  if (drive.kind == DriveKind::kSwing) {
    return core::joints::swingGap(swingDirection(system.joints()[drive.joint], states),
                                  drive.swingSpan1, drive.swingSpan2)
        .value;
  }
  const double position = jointPosition(system, drive, states);
  const double offset = drive.linear() ? position - drive.center : wrapped(position - drive.center);
  return drive.halfRange + side * offset;
}

// The stops a drive has: none where it has no limit or its range is the whole turn; one for a
// swing (its cone), two for the others.
std::vector<double> sidesOf(const JointDrive& drive) {
  if (!drive.limited()) return {};
  if (drive.kind == DriveKind::kSwing) return {1.0};
  if (!drive.linear() && drive.halfRange >= kPi) return {};
  return {1.0, -1.0};
}

// Body i of the group as the core's velocity-level solvers take it.
core::impact::ContactBody contactBodyOf(const core::MassProperties& mass, const BodyState& state) {
  core::impact::ContactBody body;
  body.inverseMass = mass.inverseMass();
  body.inverseInertiaWorld = state.R * mass.inverseInertia() * state.R.transpose();
  body.centerOfMass = state.x;
  body.linearVelocity = core::linearVelocity(mass, state);
  body.angularVelocity = core::angularVelocityWorld(mass, state);
  return body;
}

// The row ṡ · side of a joint (φ̇ of its stop on `side`; ṡ itself for side 1) between its bodies:
// a hinge's sign·side·(ω_A − ω_B)·z_A (a 6dof's about E_A e_axis); a twist's side·(ω_A − ω_B)·rate
// (core::joints::twistOf); a swing's φ̇ = Σ_k ∂φ/∂c_k ċ_k with ċ_k = d(x_A·E_B e_k)/dt = (ω_A −
// ω_B)·(x_A × E_B e_k); a slider's d/dt of sign·side·(p_B − p_A)·x_A (a 6dof's along x = E_A
// e_axis), which with d = p_B − p_A, levers r and ẋ_A = ω_A × x_A is (v_B − v_A)·x + ω_B·(r_B × x)
// + ω_A·(x × (r_A + d)).
core::contact::JointRow positionRowOf(const JointedSystem& system, const JointDrive& drive,
                                      double side, const std::vector<BodyState>& states) {
  const core::joints::Joint& joint = system.joints()[drive.joint];
  const double scale = drive.sign * side;
  core::contact::JointRow row;
  row.bodyA = joint.a.body == core::joints::kWorld ? core::contact::kWorld : joint.a.body;
  row.bodyB = joint.b.body == core::joints::kWorld ? core::contact::kWorld : joint.b.body;
  if (drive.kind == DriveKind::kSwing || drive.kind == DriveKind::kTwist) {
    const core::Mat3 a = axesOf(joint.a, states), b = axesOf(joint.b, states);
    Vec3 axis = Vec3::Zero();
    if (drive.kind == DriveKind::kTwist) {
      axis = core::joints::twistOf(a, b).rate * side;
    } else {
      const core::joints::SwingGap gap =
          core::joints::swingGap(swingDirection(joint, states), drive.swingSpan1, drive.swingSpan2);
      for (int k = 0; k < 3; ++k)
        axis += gap.gradient(k) * a.col(0).cross(b.col(k));
    }
    row.angularA = axis;
    row.angularB = -axis;
    return row;
  }
  if (!drive.linear()) {
    const Vec3 axis = axesOf(joint.a, states).col(drive.axis) * scale;
    row.angularA = axis;
    row.angularB = -axis;
    return row;
  }
  const Vec3 x = axesOf(joint.a, states).col(drive.axis) * scale;
  const Vec3 d = pivotOf(joint.b, states) - pivotOf(joint.a, states);
  row.linearA = -x;
  row.angularA = x.cross(leverOf(joint.a, states) + d);
  row.linearB = x;
  row.angularB = leverOf(joint.b, states).cross(x);
  return row;
}

// Applies along `row`, joint `joint`'s, the impulse `impulseFor(v, w)` (v the row's velocity now,
// w its change per unit impulse with the system's joint rows held at their velocities) to the
// states' momenta, through the joints, and adds the impulses of the row and of the joint rows to
// `into`. Nothing where no motion of the group changes the row (w ≈ 0).
void strikeRow(const JointedSystem& system, std::vector<BodyState>& states, int joint,
               const core::contact::JointRow& row,
               const std::function<double(double, double)>& impulseFor, JointImpulses& into) {
  std::vector<core::impact::ContactBody> bodies;
  for (std::size_t i = 0; i < states.size(); ++i)
    bodies.push_back(contactBodyOf(system.bodies()[i], states[i]));
  std::vector<int> slots(states.size());
  std::iota(slots.begin(), slots.end(), 0);
  const core::contact::JointSystem joints(bodies, jointRowsOf(system, states, slots));
  std::vector<Vec3> linear, angular;
  for (const core::impact::ContactBody& body : bodies) {
    linear.push_back(body.linearVelocity);
    angular.push_back(body.angularVelocity);
  }
  const Eigen::VectorXd held = joints.velocities(linear, angular);
  const auto rowVelocity = [&](const std::vector<Vec3>& v, const std::vector<Vec3>& w) {
    double u = 0;
    if (row.bodyA >= 0) u += row.linearA.dot(v[row.bodyA]) + row.angularA.dot(w[row.bodyA]);
    if (row.bodyB >= 0) u += row.linearB.dot(v[row.bodyB]) + row.angularB.dot(w[row.bodyB]);
    return u;
  };
  // The response to a unit impulse along the row, the joint rows then brought back to their
  // velocities: linear in the impulse, so any impulse λ moves the velocities by λ times it.
  std::vector<Vec3> unitLinear = linear, unitAngular = angular;
  const auto push = [&](int b, const Vec3& l, const Vec3& a) {
    if (b < 0) return;
    unitLinear[b] += bodies[b].inverseMass * l;
    unitAngular[b] += bodies[b].inverseInertiaWorld * a;
  };
  push(row.bodyA, row.linearA, row.angularA);
  push(row.bodyB, row.linearB, row.angularB);
  Eigen::VectorXd unitHold;  // the joint rows' impulses per unit impulse along the row
  if (!joints.empty()) unitHold = joints.hold(unitLinear, unitAngular, held);
  const double v = rowVelocity(linear, angular);
  const double w = rowVelocity(unitLinear, unitAngular) - v;
  // Below this a stop's row is one no motion of the group turns (1/(kg m²), far below any body's).
  constexpr double kRigidRow = 1e-12;
  if (!(w > kRigidRow)) return;
  const double lambda = impulseFor(v, w);
  if (!joints.empty()) addRowImpulses(system, states, lambda * unitHold, into);
  JointImpulse& own = into[joint];
  if (row.bodyA >= 0) {
    own.linearA += lambda * row.linearA;
    own.angularA += lambda * row.angularA;
  }
  if (row.bodyB >= 0) {
    own.linearB += lambda * row.linearB;
    own.angularB += lambda * row.angularB;
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    const core::MassProperties& mass = system.bodies()[i];
    const Vec3 velocity = linear[i] + lambda * (unitLinear[i] - linear[i]);
    const Vec3 omega = angular[i] + lambda * (unitAngular[i] - angular[i]);
    states[i].gamma = mass.mass() * velocity;  // γ = m v, Π = J Rᵀ ω (Tran & Leok (4.11))
    states[i].Pi = mass.inertia() * (states[i].R.transpose() * omega);
  }
}

// Newton's restitution at a stop: an approaching φ̇ = v < 0 leaves at −e v.
void strikeStop(const JointedSystem& system, std::vector<BodyState>& states,
                const JointDrive& drive, double side, double restitution, JointImpulses& into) {
  strikeRow(
      system, states, drive.joint, positionRowOf(system, drive, side, states),
      [&](double v, double w) { return v < 0 ? -(1 + restitution) * v / w : 0.0; }, into);
}

// The system with the joints of `locked` stops welded at those stops: a hinge or slider a fixed
// joint (its rows hold the frames aligned and their origins together), a 6dof's axis locked, a
// cone-twist's swing or twist one more joint holding it on the cone or at the stop (its point
// joint stays). A hinge's B frame is turned about its z axis (a 6dof's about its axis) by the
// stop's raw angle θ/sign, so that the weld's x_A·y_B = 0 holds θ at the stop (for the turned frame
// y_B·x_A = sin(θ/sign − raw)); a slider's A origin is moved along x_A (a 6dof's along its axis)
// by the stop's s/sign, so that the weld's p_B = p_A holds s at the stop.
JointedSystem lockedSystem(const JointedSystem& system, const std::vector<JointDrive>& drives,
                           const std::vector<Stop>& stops, const std::vector<bool>& locked) {
  std::vector<core::joints::Joint> joints = system.joints();
  for (std::size_t k = 0; k < stops.size(); ++k) {
    if (!locked[k]) continue;
    const JointDrive& drive = drives[stops[k].drive];
    const double raw = drive.sign * (drive.center - stops[k].side * drive.halfRange);
    const core::joints::Joint base = joints[drive.joint];
    if (drive.kind == DriveKind::kSwing) {
      joints.push_back(
          core::joints::coneSwingJoint(base.a, base.b, drive.swingSpan1, drive.swingSpan2));
      continue;
    }
    if (drive.kind == DriveKind::kTwist) {
      joints.push_back(core::joints::twistJoint(base.a, base.b, raw));
      continue;
    }
    core::joints::Joint& joint = joints[drive.joint];
    if (joint.type == core::joints::JointType::kSixDof) {
      // A rotation locked with the others locks all three (joint.h, kSixDof).
      joint.locked[drive.linear() ? drive.axis : 3 + drive.axis] = true;
    } else {
      joint.type = core::joints::JointType::kFixed;
    }
    if (drive.linear()) {
      joint.a.pivot += joint.a.basis.col(drive.axis) * raw;
    } else {
      joint.b.basis =
          joint.b.basis * Eigen::AngleAxisd(raw, Vec3::Unit(drive.axis)).toRotationMatrix();
    }
  }
  return JointedSystem(system.bodies(), std::move(joints));
}

// `impulses` of lockedSystem(system, …)'s joints folded onto the joints of `system`: a weld
// appended for a swing or twist stop (in the stops' order) is its cone-twist's.
JointImpulses foldedOnto(const JointedSystem& system, const std::vector<JointDrive>& drives,
                         const std::vector<Stop>& stops, const std::vector<bool>& locked,
                         JointImpulses impulses) {
  std::size_t appended = system.joints().size();
  for (std::size_t k = 0; k < stops.size() && appended < impulses.size(); ++k) {
    const JointDrive& drive = drives[stops[k].drive];
    if (!locked[k] || (drive.kind != DriveKind::kSwing && drive.kind != DriveKind::kTwist))
      continue;
    impulses[static_cast<std::size_t>(drive.joint)] += impulses[appended++];
  }
  impulses.resize(system.joints().size());
  return impulses;
}

// An axis' spring, motor and bounce as Bullet keeps them: btTranslationalLimitMotor2's arrays for
// axes 0–2, a btRotationalLimitMotor2 for 3–5.
struct SixDofMotor {
  bool spring = false, enabled = false, servo = false;
  double target = 0, maxForce = 0, bounce = 0;  // m/s or rad/s, N or N m, 1
};
SixDofMotor sixDofMotor(btGeneric6DofSpring2Constraint& joint, int axis) {
  if (axis < 3) {
    const btTranslationalLimitMotor2& m = *joint.getTranslationalLimitMotor();
    return {m.m_enableSpring[axis],   m.m_enableMotor[axis],   m.m_servoMotor[axis],
            m.m_targetVelocity[axis], m.m_maxMotorForce[axis], m.m_bounce[axis]};
  }
  const btRotationalLimitMotor2& m = *joint.getRotationalLimitMotor(axis - 3);
  return {m.m_enableSpring,   m.m_enableMotor,   m.m_servoMotor,
          m.m_targetVelocity, m.m_maxMotorForce, m.m_bounce};
}

}  // namespace

void requireHingeDrive(btHingeConstraint& hinge, const std::string& what) {
  const auto refuse = [&](const std::string& why) {
    throw Error(what + " with " + why + " is not supported in variational mode");
  };
  if (hinge.hasLimit()) {
    const double relaxation = hinge.getLimitRelaxationFactor();
    const double bias = hinge.getLimitBiasFactor();
    if (!(relaxation >= 0 && relaxation <= 1) || !(bias >= 0 && bias <= 1)) {
      std::ostringstream why;
      why << "a limit whose bounce factors are outside [0, 1] (relaxationFactor " << relaxation
          << ", biasFactor " << bias << "; the stop's restitution is their product)";
      refuse(why.str());
    }
  } else if (hinge.getLowerLimit() == hinge.getUpperLimit()) {
    refuse(
        "a limit whose low equals its high (Bullet locks the hinge there; use btFixedConstraint)");
  }
  if (hinge.getEnableAngularMotor()) {
    if (!std::isfinite(hinge.getMotorTargetVelocity()))
      refuse("a motor whose target velocity is not finite");
    if (!(hinge.getMaxMotorImpulse() >= 0 && std::isfinite(hinge.getMaxMotorImpulse())))
      refuse("a motor whose maxMotorImpulse is negative or not finite");
  }
}

JointDrive hingeDriveOf(btHingeConstraint& hinge, int joint) {
  JointDrive drive;
  drive.joint = joint;
  drive.sign = hinge.getUseReferenceFrameA() ? -1.0 : 1.0;  // m_referenceSign
  drive.axis = 2;
  if (hinge.hasLimit()) {
    // Bullet keeps the range as its centre and half-range and gives its ends brought into
    // (−π, π]: the half-range is half the turn from low to high. A whole turn comes back as 0.
    const double low = hinge.getLowerLimit(), high = hinge.getUpperLimit();
    double turn = std::fmod(high - low, 2 * kPi);
    if (turn <= 0) turn += 2 * kPi;
    drive.halfRange = 0.5 * turn;
    drive.center = wrapped(low + drive.halfRange);
    drive.bounce = hinge.getLimitRelaxationFactor() * hinge.getLimitBiasFactor();
  }
  drive.motor = hinge.getEnableAngularMotor();
  drive.targetSpeed = hinge.getMotorTargetVelocity();
  drive.maxImpulse = hinge.getMaxMotorImpulse();
  return drive;
}

void requireSliderDrive(btSliderConstraint& slider, const std::string& what) {
  const auto refuse = [&](const std::string& why) {
    throw Error(what + " with " + why + " is not supported in variational mode");
  };
  const double low = slider.getLowerLinLimit(), high = slider.getUpperLinLimit();
  if (low == high) {
    refuse(
        "a linear limit whose lower equals its upper (Bullet locks the slider there; use "
        "btFixedConstraint)");
  }
  if (low < high) {
    if (!std::isfinite(low) || !std::isfinite(high)) refuse("a linear limit that is not finite");
    const double damping = slider.getDampingLimLin(), softness = slider.getSoftnessLimLin();
    if (!(damping >= 0 && damping <= 2) || !(softness >= 0 && softness <= 1)) {
      std::ostringstream why;
      why << "a linear limit whose bounce is outside [0, 1] (dampingLimLin " << damping
          << " outside [0, 2] or softnessLimLin " << softness
          << " outside [0, 1]; the stop's restitution is |1 − dampingLimLin| × softnessLimLin)";
      refuse(why.str());
    }
  }
  if (slider.getPoweredLinMotor()) {
    if (!std::isfinite(slider.getTargetLinMotorVelocity()))
      refuse("a linear motor whose target velocity is not finite");
    if (!(slider.getMaxLinMotorForce() >= 0 && std::isfinite(slider.getMaxLinMotorForce())))
      refuse("a linear motor whose maxLinMotorForce is negative or not finite");
  }
}

JointDrive sliderDriveOf(btSliderConstraint& slider, int joint, double timeStep) {
  JointDrive drive;
  drive.joint = joint;
  drive.kind = DriveKind::kSliderPosition;
  drive.sign = slider.getUseLinearReferenceFrameA() ? 1.0 : -1.0;
  const double low = slider.getLowerLinLimit(), high = slider.getUpperLinLimit();
  if (low < high) {
    drive.center = 0.5 * (low + high);
    drive.halfRange = 0.5 * (high - low);
    drive.bounce = std::abs(1 - slider.getDampingLimLin()) * slider.getSoftnessLimLin();
  }
  drive.motor = slider.getPoweredLinMotor();
  drive.targetSpeed = slider.getTargetLinMotorVelocity();
  // Bullet bounds the motor row's impulse by the force over the solver's rate (getInfo2).
  drive.maxImpulse = slider.getMaxLinMotorForce() * timeStep;
  return drive;
}

void requireConeTwistLimits(btConeTwistConstraint& cone, const std::string& what) {
  const auto refuse = [&](const std::string& why) {
    throw Error(what + " with " + why + " is not supported in variational mode");
  };
  if (cone.isMotorEnabled()) refuse("its motor enabled (enableMotor)");
  if (cone.getFlags() & (BT_CONETWIST_FLAGS_LIN_CFM | BT_CONETWIST_FLAGS_ANG_CFM))
    refuse("a CFM set (setParam BT_CONSTRAINT_CFM: a soft joint)");
  std::ostringstream why;
  const double span1 = cone.getSwingSpan1(), span2 = cone.getSwingSpan2();
  const double twist = cone.getTwistSpan();
  if (!(span1 >= cone.getFixThresh() && span2 >= cone.getFixThresh())) {
    why << "a swing span below its fixThresh " << cone.getFixThresh() << " rad (swingSpan1 "
        << span1 << ", swingSpan2 " << span2
        << "; Bullet then holds a hinge or a weld instead of a cone)";
    refuse(why.str());
  }
  if (std::isnan(twist)) refuse("a twistSpan that is NaN");
  if (cone.getLimitSoftness() != 1) {
    why << "a limit softness " << cone.getLimitSoftness()
        << " other than 1 (Bullet's rows then start short of the limit)";
    refuse(why.str());
  }
  // Bullet scales its limit rows by relaxationFactor²: at 0 they hold nothing.
  if (!(std::abs(cone.getRelaxationFactor()) > 0))
    refuse("a relaxationFactor of 0 or NaN (Bullet's limit rows then hold nothing)");
}

std::vector<JointDrive> coneTwistDrivesOf(btConeTwistConstraint& cone, int joint) {
  std::vector<JointDrive> drives;
  JointDrive swing;
  swing.joint = joint;
  swing.kind = DriveKind::kSwing;
  swing.swingSpan1 = cone.getSwingSpan1();
  swing.swingSpan2 = cone.getSwingSpan2();
  // A cone whose half-angles are both a half turn or more is never reached (θ ≤ π).
  if (swing.swingSpan1 < kPi || swing.swingSpan2 < kPi) {
    swing.halfRange = 0;
    drives.push_back(swing);
  }
  const double twist = cone.getTwistSpan();
  // Bullet's twist τ lies in [−π, π]: a span of π or more is never reached, a negative one is no
  // limit (calcAngleInfo2), 0 a lock (stepJointsOf).
  if (twist > 0 && twist < kPi) {
    JointDrive stops;
    stops.joint = joint;
    stops.kind = DriveKind::kTwist;
    stops.halfRange = twist;  // ±twistSpan about 0
    drives.push_back(stops);
  }
  return drives;
}

SixDofRange sixDofRange(btGeneric6DofSpring2Constraint& joint, int axis) {
  if (axis < 3) {
    const btTranslationalLimitMotor2& linear = *joint.getTranslationalLimitMotor();
    return {linear.m_lowerLimit[axis], linear.m_upperLimit[axis]};
  }
  const btRotationalLimitMotor2& angular = *joint.getRotationalLimitMotor(axis - 3);
  return {angular.m_loLimit, angular.m_hiLimit};
}

void requireSixDofAxes(btGeneric6DofSpring2Constraint& joint, const std::string& what) {
  const auto refuse = [&](int axis, const std::string& why) {
    throw Error(what + " with axis " + std::to_string(axis) + " " + why +
                " is not supported in variational mode");
  };
  std::vector<int> unlocked;  // the rotations not locked, 3–5
  for (int axis = 0; axis < 6; ++axis) {
    const SixDofMotor motor = sixDofMotor(joint, axis);
    if (motor.spring)
      refuse(axis, "sprung (a spring is an explicit force of the stretch, which gains energy)");
    if (motor.enabled) {
      if (motor.servo) refuse(axis, "motorised as a servo (setServo)");
      if (!std::isfinite(motor.target))
        refuse(axis, "motorised with a target velocity that is not finite");
      if (!(motor.maxForce >= 0 && std::isfinite(motor.maxForce)))
        refuse(axis, "motorised with a maxMotorForce that is negative or not finite");
    }
    const SixDofRange range = sixDofRange(joint, axis);
    if (range.limited()) {
      if (!std::isfinite(range.lo) || !std::isfinite(range.hi))
        refuse(axis, "limited at a bound that is not finite");
      if (!(motor.bounce >= 0 && motor.bounce <= 1)) {
        std::ostringstream why;
        why << "limited with a bounce " << motor.bounce
            << " outside [0, 1] (the stop's restitution)";
        refuse(axis, why.str());
      }
    }
    if (axis < 3) continue;
    if (range.locked() && range.lo != 0) {
      std::ostringstream why;
      why << "locked at " << range.lo << " rad (a rotation is held locked at 0 only)";
      refuse(axis, why.str());
    }
    if (!range.locked()) unlocked.push_back(axis);
  }
  if (unlocked.size() == 2) {
    refuse(unlocked[1], "unlocked with axis " + std::to_string(unlocked[0]) +
                            " (two rotations unlocked: all, all but one, or none are held)");
  }
  for (const int axis : unlocked) {
    if (unlocked.size() == 3 && sixDofRange(joint, axis).limited())
      refuse(axis,
             "limited with all three rotations unlocked (an angular limit is held on a "
             "6dof's one unlocked rotation only)");
    if (unlocked.size() == 3 && sixDofMotor(joint, axis).enabled)
      refuse(axis,
             "motorised with all three rotations unlocked (an angular motor is held on a "
             "6dof's one unlocked rotation only)");
  }
  if (unlocked.size() != 1 || !sixDofRange(joint, unlocked[0]).limited()) return;
  // The rotate order's middle axis: Bullet reads its Euler angle by asin, within [−π/2, π/2].
  constexpr int kMiddle[] = {1, 2, 0, 2, 0, 1};  // RO_XYZ, RO_XZY, RO_YXZ, RO_YZX, RO_ZXY, RO_ZYX
  const SixDofRange range = sixDofRange(joint, unlocked[0]);
  if (unlocked[0] - 3 == kMiddle[joint.getRotationOrder()] &&
      !(range.lo >= -kPi / 2 && range.hi <= kPi / 2)) {
    refuse(unlocked[0],
           "limited beyond [−π/2, π/2] on the rotate order's middle axis (Bullet "
           "reads that Euler angle by asin)");
  }
}

std::vector<JointDrive> sixDofDrivesOf(btGeneric6DofSpring2Constraint& sixDof, int joint,
                                       double timeStep) {
  std::vector<JointDrive> drives;
  for (int axis = 0; axis < 6; ++axis) {
    const SixDofRange range = sixDofRange(sixDof, axis);
    const SixDofMotor motor = sixDofMotor(sixDof, axis);
    // A locked axis' motor moves nothing: the lock's rows hold the axis, as Bullet's lock row does.
    if (!range.limited() && !(motor.enabled && !range.locked())) continue;
    JointDrive drive;
    drive.joint = joint;
    drive.axis = axis % 3;
    // Bullet's angle s turns B to A, E_A = E_B R_axis(s) (matrixToEulerXYZ reads E_Aᵀ E_B by
    // columns: its transpose's angles), the hinge angle's sense: sign 1.
    drive.kind = axis < 3 ? DriveKind::kSliderPosition : DriveKind::kHingeAngle;
    if (range.limited()) {
      drive.center = 0.5 * (range.lo + range.hi);
      drive.halfRange = 0.5 * (range.hi - range.lo);
      drive.bounce = motor.bounce;
    }
    drive.motor = motor.enabled;
    // Bullet's motor row (get_limit_motor_info2) drives its row velocity to the target: on a
    // rotation (ω_A − ω_B)·axis, which is ṡ; on a linear axis the pivots' (v_A − v_B)·axis, −ṡ.
    drive.targetSpeed = axis < 3 ? -motor.target : motor.target;
    // Its impulse bounded by maxMotorForce over the solver's rate, as a slider's.
    drive.maxImpulse = motor.maxForce * timeStep;
    drives.push_back(drive);
  }
  return drives;
}

double jointPosition(const JointedSystem& system, const JointDrive& drive,
                     const std::vector<BodyState>& states) {
  const core::joints::Joint& joint = system.joints()[drive.joint];
  const core::Mat3 a = axesOf(joint.a, states);
  if (drive.linear()) {
    return drive.sign *
           (pivotOf(joint.b, states) - pivotOf(joint.a, states)).dot(a.col(drive.axis));
  }
  const core::Mat3 b = axesOf(joint.b, states);
  if (drive.kind == DriveKind::kTwist) return core::joints::twistOf(a, b).angle;
  if (drive.kind == DriveKind::kSwing) {
    const Vec3 c = swingDirection(joint, states);
    return std::atan2(std::hypot(c.y(), c.z()), c.x());
  }
  // About e_i, (i, j, k) cyclic: a hinge's atan2(y_B·x_A, y_B·y_A) for i = z.
  const int j = (drive.axis + 1) % 3, k = (drive.axis + 2) % 3;
  return drive.sign * std::atan2(b.col(k).dot(a.col(j)), b.col(k).dot(a.col(k)));
}

GroupStep flowWithStops(const JointedSystem& system, const std::vector<JointDrive>& drives,
                        const std::vector<BodyState>& states, double h, const GroupFlow& flow) {
  std::vector<Stop> stops;
  for (std::size_t d = 0; d < drives.size(); ++d) {
    for (const double side : sidesOf(drives[d]))
      stops.push_back({static_cast<int>(d), side});
  }
  if (stops.empty()) return flow(system, states, h);
  std::vector<bool> locked(stops.size(), false);
  const auto welded = [&](int drive) {
    for (std::size_t k = 0; k < stops.size(); ++k) {
      if (locked[k] && stops[k].drive == drive) return true;
    }
    return false;
  };
  JointedSystem held = system;  // the system with the stops locked so far
  GroupStep now{states, JointImpulses(system.joints().size())};  // the flow so far
  GroupStep end = flow(held, now.states, h);                     // from now to its end
  double rest = h;
  for (int strikes = 0;; ++strikes) {
    // The stop the flow crosses first, and the fraction of `rest` at which it does.
    int first = -1;
    double alpha = 1;
    for (std::size_t k = 0; k < stops.size(); ++k) {
      const Stop& stop = stops[k];
      const JointDrive& drive = drives[stop.drive];
      if (welded(stop.drive)) continue;
      const double phiEnd = gapOf(held, drive, stop.side, end.states);
      if (!(phiEnd < 0)) continue;
      const double phiNow = gapOf(held, drive, stop.side, now.states);
      double at = 0;
      if (phiNow > kAtStop) {
        const auto phiAt = [&](double fraction) {
          return gapOf(held, drive, stop.side, flow(held, now.states, fraction * rest).states);
        };
        const core::RootResult root = core::locateRoot(phiAt, 0, phiNow, 1, phiEnd);
        if (root.status != core::RootStatus::kConverged) {
          throw Error("variational step: a joint stop's instant could not be located (" +
                      std::string(core::toString(root.status)) + ")");
        }
        at = root.alpha;
      }
      if (first < 0 || at < alpha) {
        first = static_cast<int>(k);
        alpha = at;
      }
    }
    // The impulses so far, of `held`'s joints, as the step's joints took them.
    const auto folded = [&](GroupStep step) {
      step.impulses = foldedOnto(system, drives, stops, locked, std::move(step.impulses));
      return step;
    };
    if (first < 0) {
      addImpulses(now.impulses, end.impulses);
      return folded(std::move(end));
    }
    if (strikes == kMaxStopStrikes) {
      throw Error("variational step: joint stops struck " + std::to_string(kMaxStopStrikes) +
                  " times in one flow of their joint group; take a smaller timestep");
    }
    if (alpha > 0) {
      GroupStep to = flow(held, now.states, alpha * rest);
      addImpulses(now.impulses, to.impulses);
      now = std::move(to);
    }
    rest *= 1 - alpha;
    const Stop& stop = stops[first];
    const JointDrive& drive = drives[stop.drive];
    strikeStop(held, now.states, drive, stop.side, drive.bounce, now.impulses);
    if (!(rest > 0)) return folded(std::move(now));
    end = flow(held, now.states, rest);
    // A rebound that reaches the stop again within the flow: plastic (φ̇ = 0, whichever way the
    // strike left it), and the stop held.
    if (gapOf(held, drive, stop.side, end.states) < 0) {
      strikeRow(
          held, now.states, drive.joint, positionRowOf(held, drive, stop.side, now.states),
          [](double v, double w) { return -v / w; }, now.impulses);
      // Folded before the lock: lockedSystem appends the welds in the stops' order.
      now.impulses = foldedOnto(system, drives, stops, locked, std::move(now.impulses));
      locked[first] = true;
      held = lockedSystem(system, drives, stops, locked);
      now.impulses.resize(held.joints().size());  // a welded swing or twist adds a joint
      end = flow(held, now.states, rest);
    }
  }
}

std::vector<core::contact::JointRow> touchingStopRows(const JointedSystem& system,
                                                      const std::vector<JointDrive>& drives,
                                                      const std::vector<BodyState>& states,
                                                      const std::vector<int>& slots) {
  std::vector<core::contact::JointRow> rows;
  for (const JointDrive& drive : drives) {
    for (const double side : sidesOf(drive)) {
      if (gapOf(system, drive, side, states) > kTouchingStop) continue;
      core::contact::JointRow row = positionRowOf(system, drive, side, states);
      if (row.bodyA >= 0) row.bodyA = slots[row.bodyA];
      if (row.bodyB >= 0) row.bodyB = slots[row.bodyB];
      row.lower = 0;  // the stop pushes only, to keep φ̇ ≥ 0
      rows.push_back(row);
    }
  }
  return rows;
}

JointImpulses kickMotors(const JointedSystem& system, const std::vector<JointDrive>& drives,
                         std::vector<BodyState>& states) {
  JointImpulses impulses(system.joints().size());
  for (const JointDrive& drive : drives) {
    if (!drive.motor) continue;
    strikeRow(
        system, states, drive.joint, positionRowOf(system, drive, 1.0, states),
        [&](double v, double w) {
          return std::clamp((drive.targetSpeed - v) / w, -drive.maxImpulse, drive.maxImpulse);
        },
        impulses);
  }
  return impulses;
}

core::contact::JointRow driveRowOf(const JointedSystem& system, const JointDrive& drive,
                                   const std::vector<BodyState>& states) {
  return positionRowOf(system, drive, 1.0, states);
}

}  // namespace carom::detail
