// A btHingeConstraint's or btSliderConstraint's limit and motor, a btConeTwistConstraint's swing
// and twist limits, and a btGeneric6DofSpring2Constraint's axis limits, in the variational step
// (issue 29). Internal to the plugin.
//
// A stop is a unilateral position constraint φ(q) ≥ 0 on the joint's position s: a hinge's angle
// θ (Bullet's getHingeAngle), a slider's linear position (getLinearPos), a cone-twist's twist τ
// (core::joints::twistOf), a 6dof's coordinate on a limited axis (a linear one, or the one rotation
// its locked axes leave: the hinge angle about that axis); φ = s − low at the low stop, high − s at
// the high one. A cone-twist's swing has one stop, its elliptic cone: φ = r(ψ) − θ
// (core::joints::swingGap). Between stops the joint group flows by the constrained LGVI as without
// them. Where a flow would carry a position past a stop, the instant is located inside the flow by
// root search on φ along it (core::locateRoot, the impacts' search), the group is flowed to it and
// struck there: Newton's restitution on the stop's row φ̇ = J u with the group's joint rows held
// (the whole group moves at once), then flowed on. A rebound that would reach the stop again within
// the same flow (a Zeno sequence: a bounce slower than the loads can turn back in the flow) ends
// plastically and the stop is held for the rest of the flow as an equality: the joint welded at the
// stop (a btFixedConstraint's rows there), so a joint resting on its stop under a load stays on it
// to the joints' tolerance. The weld is let go at the start of the next flow where the free flow no
// longer presses into the stop. The strikes are not ImpactEvents (those are contacts of two
// collision objects, with a point and a normal); they happen inside the flow, wherever the step
// flows the group.
//
// A motor drives ṡ toward its target: once per step, at its start, an impulse along ṡ's row with
// the joints held, at most Bullet's largest impulse per step (a hinge's maxMotorImpulse, a
// slider's maxLinMotorForce × h), the kick of a kick–flow step. Its work is the only energy it
// changes.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/ConstraintSolver/btConeTwistConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>

#include <functional>
#include <string>
#include <vector>

#include "carom/core/body.h"
#include "carom/core/contact/joint_rows.h"
#include "carom/core/joints/system.h"
#include "joint_impulses.h"

namespace carom::detail {

// What a drive's position s is.
enum class DriveKind {
  kHingeAngle,      // a hinge's angle (rad), or a 6dof's about its one unlocked rotation axis
  kSliderPosition,  // a slider's position (m), or a 6dof's along one of its linear axes
  kSwing,           // a cone-twist's swing θ (rad), its one stop the elliptic cone
  kTwist,           // a cone-twist's twist τ (rad)
};

// A hinge's or slider's limit and motor, a cone-twist's swing or twist limit, as the step holds
// them.
struct JointDrive {
  int joint = -1;  // its joint's index in its group's system (core::joints::JointedSystem)
  DriveKind kind = DriveKind::kHingeAngle;
  // Bullet's sign of the position: a hinge's m_referenceSign, θ = sign · atan2(y_B·x_A, y_B·y_A)
  // (getHingeAngle), so θ̇ = sign · (ω_A − ω_B)·z_A; a slider's, s = sign · (p_B − p_A)·x_A, +1
  // with useLinearReferenceFrameA (btSliderConstraint::calculateTransforms).
  double sign = 1;
  // The axis of the joint's frames the position is about or along: a hinge's z (2), a slider's x
  // (0), a 6dof's axis (its Bullet coordinate s = (p_B − p_A)·E_A e_axis, or the angle of
  // E_A = E_B R_axis(s), the hinge angle's sense: sign 1).
  int axis = 0;
  // The stops at center ∓ halfRange (rad or m); none where halfRange < 0. A hinge's range is
  // Bullet's btAngularLimit, none in effect where halfRange ≥ π (the whole turn), as a twist's.
  // A swing's one stop is its cone, its half-angles swingSpan1 toward y_B and swingSpan2 toward
  // z_B (rad), halfRange 0 where it has one.
  double center = 0, halfRange = -1;
  double swingSpan1 = 0, swingSpan2 = 0;
  // Newton's restitution at a stop, as Bullet's rows make their bounce speed (and lcp mode, reading
  // those rows, applies it): a hinge's relaxationFactor × biasFactor of setLimit, a slider's
  // |1 − dampingLimLin| × softnessLimLin, a 6dof axis's m_bounce (its limit row's target speed is
  // −m_bounce times the approach's, get_limit_motor_info2); a cone-twist's 0 whatever its factors:
  // getInfo2's limit row is relaxationFactor² · axis with target fps · biasFactor · the error, no
  // velocity term, so at the stop it ends the approach (plastic), and relaxationFactor only scales
  // the row (the old solveConstraintObsolete took relaxationFactor of the approach speed away:
  // never a rebound).
  double bounce = 0;
  bool motor = false;
  double targetSpeed = 0;  // of s (rad/s or m/s)
  double maxImpulse = 0;   // per step (N m s or N s)
  bool limited() const { return halfRange >= 0; }
  bool linear() const { return kind == DriveKind::kSliderPosition; }
  bool driven() const { return limited() || motor; }
};

// Throw carom::Error, starting with `what` (the refusal's start: where and the joint's name), for
// a limit or motor the step cannot hold: a bounce outside [0, 1], a limit with low equal to high
// (Bullet's lock), a motor's non-finite target or negative or non-finite largest impulse (force).
void requireHingeDrive(btHingeConstraint& hinge, const std::string& what);
void requireSliderDrive(btSliderConstraint& slider, const std::string& what);

// A cone-twist's limits as requireConeTwistLimits allows them: swing spans at least Bullet's
// fixThresh (below it Bullet holds a hinge or a weld instead of a cone), a twist span that is a
// number (0 locks the twist, a negative one frees it), a limit softness of 1 (Bullet's rows start
// short of the limit below it), a relaxationFactor other than 0 (at 0 its rows hold nothing), no
// motor and no CFM (setParam).
void requireConeTwistLimits(btConeTwistConstraint& cone, const std::string& what);

// A 6dof's axis (0–2 linear, 3–5 angular) as Bullet reads its range [lo, hi]: free where lo > hi,
// locked where lo = hi, limited between.
struct SixDofRange {
  double lo = 0, hi = 0;
  bool locked() const { return lo == hi; }
  bool limited() const { return lo < hi; }
};
SixDofRange sixDofRange(btGeneric6DofSpring2Constraint& joint, int axis);

// A btGeneric6DofSpring2Constraint as the step holds it: linear axes locked (at any value), free
// or limited; rotations all locked, all free (no limit), or all but one locked with that one free
// or limited (a hinge about it; on the rotate order's middle axis, whose Euler angle Bullet reads
// by asin, a limit within [−π/2, π/2]); a rotation locked at 0 only; a limit's bounce in [0, 1];
// a motor (not a servo: its target is a position) with a finite target velocity and a finite
// maxMotorForce ≥ 0, on a linear axis or the one unlocked rotation; no spring (an explicit force,
// energy-unsafe, as in lcp mode). Throws carom::Error, starting with `what` and naming the axis,
// otherwise.
void requireSixDofAxes(btGeneric6DofSpring2Constraint& joint, const std::string& what);

// The joint's limit and motor, its joint `joint` of its group; a slider's motor impulse for steps
// of `timeStep` (s).
JointDrive hingeDriveOf(btHingeConstraint& hinge, int joint);
JointDrive sliderDriveOf(btSliderConstraint& slider, int joint, double timeStep);
// A cone-twist's swing and twist limits (each a drive where it has one) on its joint `joint`.
std::vector<JointDrive> coneTwistDrivesOf(btConeTwistConstraint& cone, int joint);
// A 6dof's limited or motorised axes (requireSixDofAxes) on its joint `joint`, each a drive with
// two stops or a motor or both, a motor's impulse for steps of `timeStep` (s).
std::vector<JointDrive> sixDofDrivesOf(btGeneric6DofSpring2Constraint& sixDof, int joint,
                                       double timeStep);

// A joint group's states after a flow, and the impulses its joints gave over it.
struct GroupStep {
  std::vector<core::BodyState> states;
  JointImpulses impulses;
};

// Flows a joint group's `states` by h (s) with the stops of `drives` held as above, the strikes'
// impulses (the stop's row and the joint rows holding the group) counted with the flows'.
// `flow(system, states, h)` is the step's constrained flow of the group (with its sub-steps; it
// throws where it fails), asked of the group's system or of it with joints welded at a stop (the
// same joints in the same order). Throws carom::Error where a stop's instant cannot be located or
// a flow strikes its stops more than kMaxStopStrikes times.
using GroupFlow = std::function<GroupStep(const core::joints::JointedSystem&,
                                          const std::vector<core::BodyState>&, double)>;
GroupStep flowWithStops(const core::joints::JointedSystem& system,
                        const std::vector<JointDrive>& drives,
                        const std::vector<core::BodyState>& states, double h,
                        const GroupFlow& flow);

// The motors' kicks of one step on the group's `states` (their momenta changed), one motor after
// the other, each with the joints held. Returns the impulses the joints gave.
JointImpulses kickMotors(const core::joints::JointedSystem& system,
                         const std::vector<JointDrive>& drives,
                         std::vector<core::BodyState>& states);

// The row of `drive`'s position, ṡ (Bullet's limit and motor row of the joint), between the
// group's bodies (its sides' indices, core::contact::kWorld for the world) at `states`.
core::contact::JointRow driveRowOf(const core::joints::JointedSystem& system,
                                   const JointDrive& drive,
                                   const std::vector<core::BodyState>& states);

// The stops of `drives` that the joints touch at `states` (φ at most kTouchingStop) as rows of a
// velocity-level hold (core::contact::solveJointsAndContacts' bounded rows): φ̇ ≥ 0, pushing only,
// between list indices `slots[i]` (group body i's place in the caller's body list). A body resting
// on a jointed body that rests on its stop is then held as if the stop were there: without it the
// hold would let the joint yield, and the body would sink into the one the stop holds still.
inline constexpr double kTouchingStop = 1e-9;  // rad or m
std::vector<core::contact::JointRow> touchingStopRows(const core::joints::JointedSystem& system,
                                                      const std::vector<JointDrive>& drives,
                                                      const std::vector<core::BodyState>& states,
                                                      const std::vector<int>& slots);

// The position s of `drive`'s joint at `states` (rad in (−π, π], Bullet's getHingeAngle or the
// twist; m, getLinearPos; rad in [0, π], the swing).
double jointPosition(const core::joints::JointedSystem& system, const JointDrive& drive,
                     const std::vector<core::BodyState>& states);

}  // namespace carom::detail
