// Bullet's joints in the variational step: btPoint2PointConstraint, btHingeConstraint,
// btSliderConstraint, btFixedConstraint, btConeTwistConstraint (a point joint, its swing and
// twist limits drives of variational_limits.h) and btGeneric6DofSpring2Constraint (its locked axes
// a core 6dof joint, its limited ones drives) as holonomic joints of the constrained LGVI
// (core::joints), each side's frame in its body's centre-of-mass frame (Bullet's rigid body frame)
// or, on a static body (btTypedConstraint::getFixedBody() among them), in the world. Internal to
// the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/ConstraintSolver/btTypedConstraint.h>
#include <BulletDynamics/Dynamics/btDynamicsWorld.h>

#include <string>
#include <vector>

#include "carom/core/contact/joint_rows.h"
#include "carom/core/joints/system.h"
#include "variational_limits.h"

namespace carom::detail {

// Throws carom::Error, starting with `where` and naming what it refuses, unless the variational
// step holds `joint` exactly: a point-to-point, hinge, slider, cone-twist, fixed or 6dof joint; a
// hinge's limit and motor as requireJointDrive allows them, a cone-twist's limits as
// requireConeTwistLimits does, a 6dof's axes as requireSixDofAxes does (variational_limits.h),
// without angularOnly; a slider with its rotation about its axis
// locked (as Bullet's default angular limits [0, 0] lock it) and without an angular motor; not on
// a kinematic body (a moving frame the step cannot flow). Breaking thresholds and feedback are held
// (writeJointImpulses).
void requireVariationalJoint(btTypedConstraint& joint, const std::string& where);

// Step bodies joined by joints (through each other; the world joins nothing): flowed together by
// the constrained LGVI wherever the step flows one of them.
struct JointGroup {
  std::vector<int> bodies;  // step-body indices, the system's body i being bodies[i]
  core::joints::JointedSystem system;
  // its hinges', sliders' and 6dofs' limits and motors, cone-twists' limits, where they have any
  std::vector<JointDrive> drives;
  std::vector<btTypedConstraint*> sources;  // per joint of the system: its Bullet joint
};

// The joint groups of the world's enabled joints between `bodies` (the step's active dynamic
// bodies, with their mass properties) and static objects, and each body's group (−1 for none), a
// slider motor's impulse for steps of `timeStep` (s).
// A joint whose bodies are all outside the step (asleep) is left out. Throws carom::Error as
// requireVariationalJoint does, and for a joint between a step body and a dynamic body outside
// the step (asleep while its partner is awake).
struct StepJoints {
  std::vector<JointGroup> groups;
  std::vector<int> groupOf;  // per step body
};
StepJoints stepJointsOf(btDynamicsWorld& world, const std::vector<btRigidBody*>& bodies,
                        const std::vector<core::MassProperties>& masses, double timeStep);

// The group's joint rows at `states` (the group's bodies' states, in its order) as velocity-level
// equality rows (core::contact::JointRow) between list indices `slots[i]` (group body i's place
// in the caller's body list): ∇g's rows, the angular columns turned from the body frame
// (core::joints::ConstraintEvaluation) into the world's.
std::vector<core::contact::JointRow> jointRowsOf(const JointGroup& group,
                                                 const std::vector<core::BodyState>& states,
                                                 const std::vector<int>& slots);
// The same of a system's joints.
std::vector<core::contact::JointRow> jointRowsOf(const core::joints::JointedSystem& system,
                                                 const std::vector<core::BodyState>& states,
                                                 const std::vector<int>& slots);

// Writes a step's joint impulses (`impulses`, the group's joints') to Bullet as its solver does
// (btSequentialImpulseConstraintSolver::writeBackJoints): each joint's btJointFeedback, the force
// and torque on each body averaged over the step of h (s), impulse / h, times the body's linear and
// angular factors; its row impulses, the step's impulses in the joint's rows at `states` (the end
// of the step) by least squares, exact for the point rows (their Jacobian on x is constant), a
// row's λ the impulse on A along its A side (Bullet's sign), a driven hinge or slider's last row
// its position's (Bullet's limit and motor row); getAppliedImpulse the last row's λ, as Bullet's;
// and the joint disabled (it holds nothing from the next step on) where a row's |λ| reached its
// breaking threshold.
void writeJointImpulses(const JointGroup& group, const std::vector<core::BodyState>& states,
                        const JointImpulses& impulses, double h);

}  // namespace carom::detail
