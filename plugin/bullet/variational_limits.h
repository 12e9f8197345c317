// A btHingeConstraint's limit and motor in the variational step (issue 29). Internal to the plugin.
//
// A stop is a unilateral position constraint φ(q) ≥ 0 on the hinge angle θ (Bullet's
// getHingeAngle): φ = θ − low at the low stop, high − θ at the high one. Between stops the joint
// group flows by the constrained LGVI as without them. Where a flow would carry an angle past a
// stop, the instant is located inside the flow by root search on φ along it (core::locateRoot,
// the impacts' search), the group is flowed to it and struck there: Newton's restitution on the
// stop's row φ̇ = J u with the group's joint rows held (the whole group moves at once), then
// flowed on. A rebound that would reach the stop again within the same flow (a Zeno sequence: a
// bounce slower than the loads can turn back in the flow) ends plastically and the stop is held
// for the rest of the flow as an equality: the hinge locked at the stop (a weld at that angle),
// so a hinge resting on its stop under a load stays on it to the joints' tolerance. The lock is
// released at the start of the next flow where the free flow no longer presses into the stop.
// The strikes are not ImpactEvents (those are contacts of two collision objects, with a point and
// a normal); they happen inside the flow, wherever the step flows the group.
//
// A motor drives θ̇ toward its target: once per step, at its start, an impulse along θ̇'s row with
// the joints held, at most Bullet's maxMotorImpulse (N m s), the kick of a kick–flow step. Its
// work is the only energy it changes.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>

#include <functional>
#include <string>
#include <vector>

#include "carom/core/body.h"
#include "carom/core/joints/system.h"

namespace carom::detail {

// A hinge's limit and motor as the step holds them.
struct HingeDrive {
  int joint = -1;  // its joint's index in its group's system (core::joints::JointedSystem)
  // Bullet's m_referenceSign: θ = sign · atan2(y_B·x_A, y_B·y_A) (btHingeConstraint's
  // getHingeAngle), so θ̇ = sign · (ω_A − ω_B)·z_A.
  double sign = 1;
  // The stops at center ∓ halfRange (rad, Bullet's btAngularLimit); none where halfRange < 0, and
  // none in effect where halfRange ≥ π (the range is the whole turn).
  double center = 0, halfRange = -1;
  // Newton's restitution at a stop: Bullet's relaxationFactor × biasFactor of setLimit, as
  // btHingeConstraint's getInfo2 makes its bounce (and lcp mode, reading those rows, applies it).
  double bounce = 0;
  bool motor = false;
  double targetSpeed = 0;  // of θ (rad/s)
  double maxImpulse = 0;   // per step (N m s)
  bool limited() const { return halfRange >= 0; }
  bool driven() const { return limited() || motor; }
};

// Throws carom::Error, starting with `what` (the refusal's start: where and the joint's name), for
// a limit or motor the step cannot hold: a bounce factor outside [0, 1], a limit with low equal
// to high (Bullet's lock), a motor's non-finite target or a negative or non-finite largest impulse.
void requireHingeDrive(btHingeConstraint& hinge, const std::string& what);

// The hinge's limit and motor, its joint `joint` of its group.
HingeDrive hingeDriveOf(btHingeConstraint& hinge, int joint);

// Flows a joint group's `states` by h (s) with the hinges' stops of `drives` held as above.
// `flow(system, states, h)` is the step's constrained flow of the group (with its sub-steps; it
// throws where it fails), asked of the group's system or of it with hinges locked at a stop. Throws
// carom::Error where a stop's instant cannot be located or a flow strikes its stops more than
// kMaxStopStrikes times.
using GroupFlow = std::function<std::vector<core::BodyState>(
    const core::joints::JointedSystem&, const std::vector<core::BodyState>&, double)>;
std::vector<core::BodyState> flowWithStops(const core::joints::JointedSystem& system,
                                           const std::vector<HingeDrive>& drives,
                                           const std::vector<core::BodyState>& states, double h,
                                           const GroupFlow& flow);

// The motors' kicks of one step on the group's `states` (their momenta changed), one motor after
// the other, each with the joints held.
void kickMotors(const core::joints::JointedSystem& system, const std::vector<HingeDrive>& drives,
                std::vector<core::BodyState>& states);

// θ of the hinge `drive` at `states` (rad, in (−π, π], Bullet's getHingeAngle).
double hingeAngle(const core::joints::JointedSystem& system, const HingeDrive& drive,
                  const std::vector<core::BodyState>& states);

}  // namespace carom::detail
