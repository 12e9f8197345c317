#include "variational_joints.h"

#include <BulletDynamics/ConstraintSolver/btConeTwistConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>
#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>

#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "bt_eigen.h"
#include "carom/core/joints/constraint.h"
#include "carom/error.h"
#include "disjoint_sets.h"
#include "joint_feedback.h"
#include "joint_names.h"

namespace carom::detail {
namespace {

using core::joints::Joint;
using core::joints::JointFrame;
using core::joints::JointType;

constexpr const char* kSupported =
    "supported in variational mode: btPoint2PointConstraint, btHingeConstraint, "
    "btSliderConstraint, btConeTwistConstraint, btFixedConstraint and "
    "btGeneric6DofSpring2Constraint, hinges and sliders with their limits and motors, cone-twists "
    "with their swing and twist limits and no motor, 6dofs with linear axes locked, free or "
    "limited and rotations all locked, all free, or all but one locked (that one free or limited), "
    "with motors on those, no servo and no spring; use solver.kind = \"lcp\" for the others";

JointFrame frameOf(int body, const btTransform& frame) {
  return {body, toEigen(frame.getOrigin()), toEigen(frame.getBasis())};
}

// One side of a joint: its step body's index and its frame there, or the world (a static body's
// frame carried into the world).
JointFrame sideOf(const btRigidBody& body, const btTransform& frame,
                  const std::unordered_map<const btRigidBody*, int>& indexOf,
                  const std::string& name) {
  const auto found = indexOf.find(&body);
  if (found != indexOf.end()) return frameOf(found->second, frame);
  if (body.isStaticObject()) {
    return frameOf(core::joints::kWorld, body.getCenterOfMassTransform() * frame);
  }
  throw Error("variational step: " + name +
              " joins an awake body to a sleeping one; the step cannot flow one without the "
              "other (wake both, or disable deactivation)");
}

// Bullet's joint as the core's: its kind and its two frames (btPoint2PointConstraint's pivots with
// any axes: its rows read the pivots only).
Joint jointOf(btTypedConstraint& joint,
              const std::unordered_map<const btRigidBody*, int>& indexOf) {
  const std::string name = jointTypeName(joint);
  btTransform frameA = btTransform::getIdentity(), frameB = btTransform::getIdentity();
  JointType type = JointType::kPoint;
  switch (joint.getConstraintType()) {
    case POINT2POINT_CONSTRAINT_TYPE: {
      auto& point = static_cast<btPoint2PointConstraint&>(joint);
      frameA.setOrigin(point.getPivotInA());
      frameB.setOrigin(point.getPivotInB());
      break;
    }
    case HINGE_CONSTRAINT_TYPE: {
      auto& hinge = static_cast<btHingeConstraint&>(joint);
      type = JointType::kHinge;
      frameA = hinge.getAFrame();
      frameB = hinge.getBFrame();
      break;
    }
    case CONETWIST_CONSTRAINT_TYPE: {  // a ball joint; its limits are drives (variational_limits.h)
      auto& cone = static_cast<btConeTwistConstraint&>(joint);
      frameA = cone.getAFrame();
      frameB = cone.getBFrame();
      break;
    }
    case SLIDER_CONSTRAINT_TYPE: {
      auto& slider = static_cast<btSliderConstraint&>(joint);
      type = JointType::kSlider;
      frameA = slider.getFrameOffsetA();
      frameB = slider.getFrameOffsetB();
      break;
    }
    default: {  // a btGeneric6DofSpring2Constraint: requireVariationalJoint refused the rest
      auto& sixDof = static_cast<btGeneric6DofSpring2Constraint&>(joint);
      frameA = sixDof.getFrameOffsetA();
      frameB = sixDof.getFrameOffsetB();
      std::array<bool, 6> locked{};
      btVector3 at(0, 0, 0);  // the locked linear coordinates (rotations lock at 0 only)
      for (int axis = 0; axis < 6; ++axis) {
        const SixDofRange range = sixDofRange(sixDof, axis);
        locked[axis] = range.locked();
        if (axis < 3 && range.locked()) at[axis] = range.lo;
      }
      // A's origin moved to the locks' coordinates, p_B − p_A = E_A at, so that the rows hold 0.
      frameA.setOrigin(frameA.getOrigin() + frameA.getBasis() * at);
      const JointFrame a = sideOf(joint.getRigidBodyA(), frameA, indexOf, name);
      const JointFrame b = sideOf(joint.getRigidBodyB(), frameB, indexOf, name);
      // Every axis locked is btFixedConstraint's weld, held by the fixed joint's rows.
      if (std::count(locked.begin(), locked.end(), true) == 6)
        return core::joints::fixedJoint(a, b);
      return core::joints::sixDofJoint(a, b, locked);
    }
  }
  return {type, sideOf(joint.getRigidBodyA(), frameA, indexOf, name),
          sideOf(joint.getRigidBodyB(), frameB, indexOf, name)};
}

}  // namespace

void requireVariationalJoint(btTypedConstraint& joint, const std::string& where) {
  const std::string name = jointTypeName(joint);
  const auto refuse = [&](const std::string& what) {
    throw Error(where + ": " + name + what + " is not supported in variational mode (" +
                kSupported + ")");
  };
  // A limit's or motor's check (variational_limits.h), its refusal followed by what is supported.
  const auto requireDrive = [&](const auto& check) {
    try {
      check(where + ": " + name);
    } catch (const Error& refused) {
      throw Error(refused.what() + std::string(" (") + kSupported + ")");
    }
  };
  switch (joint.getConstraintType()) {
    case POINT2POINT_CONSTRAINT_TYPE:
      break;
    case HINGE_CONSTRAINT_TYPE: {
      auto& hinge = static_cast<btHingeConstraint&>(joint);
      if (hinge.getAngularOnly()) refuse(" with angularOnly set");
      requireDrive([&](const std::string& what) { requireHingeDrive(hinge, what); });
      break;
    }
    case CONETWIST_CONSTRAINT_TYPE: {
      auto& cone = static_cast<btConeTwistConstraint&>(joint);
      if (cone.getAngularOnly()) refuse(" with angularOnly set");
      requireDrive([&](const std::string& what) { requireConeTwistLimits(cone, what); });
      break;
    }
    case SLIDER_CONSTRAINT_TYPE: {
      auto& slider = static_cast<btSliderConstraint&>(joint);
      if (slider.getLowerAngLimit() != 0 || slider.getUpperAngLimit() != 0)
        refuse(
            " with its rotation about the axis free or limited (angular limits other than [0, 0])");
      if (slider.getPoweredAngMotor()) refuse(" with its angular motor enabled");
      requireDrive([&](const std::string& what) { requireSliderDrive(slider, what); });
      break;
    }
    default:
      // btFixedConstraint reports D6_SPRING_2_CONSTRAINT_TYPE; no class of this Bullet reports
      // FIXED_CONSTRAINT_TYPE, which is refused with the other types.
      if (joint.getConstraintType() != D6_SPRING_2_CONSTRAINT_TYPE) refuse("");
      requireDrive([&](const std::string& what) {
        requireSixDofAxes(static_cast<btGeneric6DofSpring2Constraint&>(joint), what);
      });
  }
  if (std::isnan(joint.getBreakingImpulseThreshold()))
    refuse(" with a breaking threshold that is not a number");
  if (joint.getRigidBodyA().isKinematicObject() || joint.getRigidBodyB().isKinematicObject())
    refuse(" on a kinematic body");
}

StepJoints stepJointsOf(btDynamicsWorld& world, const std::vector<btRigidBody*>& bodies,
                        const std::vector<core::MassProperties>& masses, double timeStep) {
  StepJoints out{{}, std::vector<int>(bodies.size(), -1)};
  if (world.getNumConstraints() == 0) return out;  // no body map to build
  std::unordered_map<const btRigidBody*, int> indexOf;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    indexOf[bodies[i]] = static_cast<int>(i);
  std::vector<Joint> joints;
  std::vector<btTypedConstraint*> sources;  // each joint's Bullet joint
  DisjointSets joined(bodies.size());
  for (int c = 0; c < world.getNumConstraints(); ++c) {
    btTypedConstraint& constraint = *world.getConstraint(c);
    if (!constraint.isEnabled()) continue;  // as Bullet's solver leaves it out
    requireVariationalJoint(constraint, "variational step");
    const bool awakeA = indexOf.count(&constraint.getRigidBodyA()) > 0;
    const bool awakeB = indexOf.count(&constraint.getRigidBodyB()) > 0;
    if (!awakeA && !awakeB) continue;  // asleep, or between static objects
    joints.push_back(jointOf(constraint, indexOf));
    sources.push_back(&constraint);
    const Joint& joint = joints.back();
    if (joint.a.body != core::joints::kWorld && joint.b.body != core::joints::kWorld)
      joined.join(joint.a.body, joint.b.body);
  }
  if (joints.empty()) return out;
  std::vector<std::vector<JointDrive>> drivesOf;
  std::vector<int> groupOfRoot(bodies.size(), -1);
  std::vector<std::vector<Joint>> jointsOf;
  std::vector<std::vector<int>> bodiesOf;
  std::vector<std::vector<btTypedConstraint*>> sourcesOf;
  std::vector<int> localIndex(bodies.size(), -1);
  const auto groupFor = [&](int body) {
    int& group = groupOfRoot[joined.root(body)];
    if (group < 0) {
      group = static_cast<int>(jointsOf.size());
      jointsOf.emplace_back();
      bodiesOf.emplace_back();
      drivesOf.emplace_back();
      sourcesOf.emplace_back();
    }
    if (out.groupOf[body] < 0) {
      out.groupOf[body] = group;
      localIndex[body] = static_cast<int>(bodiesOf[group].size());
      bodiesOf[group].push_back(body);
    }
    return group;
  };
  for (std::size_t j = 0; j < joints.size(); ++j) {
    Joint joint = joints[j];
    const int group = groupFor(joint.a.body != core::joints::kWorld ? joint.a.body : joint.b.body);
    for (JointFrame* side : {&joint.a, &joint.b}) {
      if (side->body == core::joints::kWorld) continue;
      groupFor(side->body);
      side->body = localIndex[side->body];
    }
    const int index = static_cast<int>(jointsOf[group].size());
    if (sources[j]->getConstraintType() == HINGE_CONSTRAINT_TYPE) {
      const JointDrive drive = hingeDriveOf(static_cast<btHingeConstraint&>(*sources[j]), index);
      if (drive.driven()) drivesOf[group].push_back(drive);
    } else if (sources[j]->getConstraintType() == SLIDER_CONSTRAINT_TYPE) {
      const JointDrive drive =
          sliderDriveOf(static_cast<btSliderConstraint&>(*sources[j]), index, timeStep);
      if (drive.driven()) drivesOf[group].push_back(drive);
    } else if (sources[j]->getConstraintType() == D6_SPRING_2_CONSTRAINT_TYPE) {
      auto& sixDof = static_cast<btGeneric6DofSpring2Constraint&>(*sources[j]);
      for (const JointDrive& drive : sixDofDrivesOf(sixDof, index, timeStep))
        drivesOf[group].push_back(drive);
    } else if (sources[j]->getConstraintType() == CONETWIST_CONSTRAINT_TYPE) {
      auto& cone = static_cast<btConeTwistConstraint&>(*sources[j]);
      for (const JointDrive& drive : coneTwistDrivesOf(cone, index))
        drivesOf[group].push_back(drive);
      // A twist span of 0 locks the twist (Bullet's rows then hold τ = 0 both ways): one more row.
      if (cone.getTwistSpan() == 0) {
        jointsOf[group].push_back(joint);
        sourcesOf[group].push_back(sources[j]);
        joint = core::joints::twistJoint(joint.a, joint.b, 0.0);
      }
    }
    jointsOf[group].push_back(joint);
    sourcesOf[group].push_back(sources[j]);
  }
  for (std::size_t g = 0; g < jointsOf.size(); ++g) {
    std::vector<core::MassProperties> groupMasses;
    for (const int body : bodiesOf[g])
      groupMasses.push_back(masses[body]);
    out.groups.push_back(
        {bodiesOf[g], core::joints::JointedSystem(std::move(groupMasses), std::move(jointsOf[g])),
         std::move(drivesOf[g]), std::move(sourcesOf[g])});
  }
  return out;
}

std::vector<core::contact::JointRow> jointRowsOf(const JointGroup& group,
                                                 const std::vector<core::BodyState>& states,
                                                 const std::vector<int>& slots) {
  return jointRowsOf(group.system, states, slots);
}

std::vector<core::contact::JointRow> jointRowsOf(const core::joints::JointedSystem& system,
                                                 const std::vector<core::BodyState>& states,
                                                 const std::vector<int>& slots) {
  const core::joints::ConstraintEvaluation g = core::joints::evaluateConstraints(system, states);
  std::vector<core::contact::JointRow> rows;
  Eigen::Index r = 0;
  for (const Joint& joint : system.joints()) {
    for (int k = 0; k < core::joints::rowCount(joint); ++k, ++r) {
      core::contact::JointRow row;
      const auto side = [&](int body, int& index, core::Vec3& linear, core::Vec3& angular) {
        if (body == core::joints::kWorld) return;
        index = slots[body];
        linear = g.gradient.row(r).segment<3>(6 * body).transpose();
        // ∂g/∂η is body-frame: a world angular velocity ω = Rη.
        angular = states[body].R * g.gradient.row(r).segment<3>(6 * body + 3).transpose();
      };
      side(joint.a.body, row.bodyA, row.linearA, row.angularA);
      side(joint.b.body, row.bodyB, row.linearB, row.angularB);
      rows.push_back(row);
    }
  }
  return rows;
}

void addImpulses(const JointImpulses& from, JointImpulses& into) {
  for (std::size_t j = 0; j < into.size(); ++j)
    into[j] += from[j];
}

void addRowImpulses(const core::joints::JointedSystem& system,
                    const std::vector<core::BodyState>& states, const Eigen::VectorXd& lambda,
                    JointImpulses& into) {
  std::vector<int> slots(states.size());
  std::iota(slots.begin(), slots.end(), 0);
  addRowImpulses(system, jointRowsOf(system, states, slots), lambda, 0, into);
}

void addRowImpulses(const core::joints::JointedSystem& system,
                    const std::vector<core::contact::JointRow>& rows, const Eigen::VectorXd& lambda,
                    std::size_t first, JointImpulses& into) {
  std::size_t r = first;
  for (std::size_t j = 0; j < system.joints().size(); ++j) {
    for (int k = 0; k < core::joints::rowCount(system.joints()[j]); ++k, ++r) {
      // A row's impulse λ gives each side Jᵀλ (jointed_flow.h (1), (4)); a world side's part is 0.
      const core::contact::JointRow& row = rows[r];
      const double l = lambda(static_cast<Eigen::Index>(r));
      into[j].linearA += l * row.linearA;
      into[j].angularA += l * row.angularA;
      into[j].linearB += l * row.linearB;
      into[j].angularB += l * row.angularB;
    }
  }
}

void writeJointImpulses(const JointGroup& group, const std::vector<core::BodyState>& states,
                        const JointImpulses& impulses, double h) {
  std::vector<int> slots(states.size());
  std::iota(slots.begin(), slots.end(), 0);
  const std::vector<core::contact::JointRow> rows = jointRowsOf(group.system, states, slots);
  std::size_t r = 0;
  for (std::size_t j = 0; j < group.sources.size();) {
    btTypedConstraint& joint = *group.sources[j];
    // The system's joints of one Bullet joint are adjacent (a cone-twist with its twist locked is
    // two): their impulses and rows are the Bullet joint's.
    JointImpulse impulse;
    std::vector<core::contact::JointRow> own;
    for (; j < group.sources.size() && group.sources[j] == &joint; ++j) {
      impulse += impulses[j];
      const std::size_t count = core::joints::rowCount(group.system.joints()[j]);
      own.insert(own.end(), rows.begin() + static_cast<std::ptrdiff_t>(r),
                 rows.begin() + static_cast<std::ptrdiff_t>(r + count));
      r += count;
    }
    // The core's rows are ∇g of g = p_B − p_A (joint.h): Bullet's point rows are their opposites,
    // +1 on A.
    for (core::contact::JointRow& row : own) {
      row.linearA = -row.linearA;
      row.angularA = -row.angularA;
      row.linearB = -row.linearB;
      row.angularB = -row.angularB;
    }
    for (const JointDrive& drive : group.drives) {
      if (group.sources[static_cast<std::size_t>(drive.joint)] == &joint)
        own.push_back(driveRowOf(group.system, drive, states));
    }
    // The least squares of Σ λ_r J_r = the step's impulse on (A, B), 12 equations in the rows.
    Eigen::MatrixXd jacobian(12, static_cast<Eigen::Index>(own.size()));
    for (std::size_t k = 0; k < own.size(); ++k) {
      const core::contact::JointRow& row = own[k];
      const core::Vec3 zero = core::Vec3::Zero();  // a side on the world takes nothing
      jacobian.col(static_cast<Eigen::Index>(k)) << (row.bodyA < 0 ? zero : row.linearA),
          (row.bodyA < 0 ? zero : row.angularA), (row.bodyB < 0 ? zero : row.linearB),
          (row.bodyB < 0 ? zero : row.angularB);
    }
    Eigen::VectorXd total(12);
    total << impulse.linearA, impulse.angularA, impulse.linearB, impulse.angularB;
    // A 6dof with every axis free and unlimited has no row: it gives no impulse and cannot break
    // (and a QR of no columns is not one Eigen computes).
    const Eigen::VectorXd lambda =
        own.empty() ? Eigen::VectorXd()
                    : Eigen::VectorXd(jacobian.colPivHouseholderQr().solve(total));
    if (btJointFeedback* feedback = joint.getJointFeedback()) {
      clearJointFeedback(*feedback);
      addJointFeedback(*feedback, joint, impulse.linearA, impulse.angularA, impulse.linearB,
                       impulse.angularB, h);
    }
    joint.internalSetAppliedImpulse(lambda.size() > 0 ? lambda(lambda.size() - 1) : 0.0);
    if (lambda.size() > 0 && lambda.cwiseAbs().maxCoeff() >= joint.getBreakingImpulseThreshold())
      joint.setEnabled(false);
  }
}

}  // namespace carom::detail
