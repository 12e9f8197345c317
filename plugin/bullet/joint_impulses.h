// The impulses a joint of the variational step gave its bodies (variational_joints.h), summed
// over the step for btJointFeedback, getAppliedImpulse and breaking thresholds. Internal to the
// plugin.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "carom/core/body.h"
#include "carom/core/contact/joint_rows.h"
#include "carom/core/joints/system.h"

namespace carom::detail {

// The impulses a joint gave its bodies (Bullet's A and B, the system's a and b sides) over part
// of a step, in the world: on the body's momentum (N s) and on its angular momentum about its
// centre of mass (N m s); zero on a side on the world. Summed over the step: Λ and N of each
// flow the step keeps (jointed_flow.h (1), (4), each at its own configuration; probes and flows
// taken back count nothing), the impulses of its stops' strikes and its motor's kick with the
// joints held (variational_limits.h), and its rows' share of every impact and held-contact impulse
// on its bodies (core::contact::applyHeldImpulse's row impulses).
struct JointImpulse {
  core::Vec3 linearA = core::Vec3::Zero(), angularA = core::Vec3::Zero();
  core::Vec3 linearB = core::Vec3::Zero(), angularB = core::Vec3::Zero();
  JointImpulse& operator+=(const JointImpulse& other) {
    linearA += other.linearA;
    angularA += other.angularA;
    linearB += other.linearB;
    angularB += other.angularB;
    return *this;
  }
};
using JointImpulses = std::vector<JointImpulse>;  // per joint of a group's system
void addImpulses(const JointImpulses& from, JointImpulses& into);

// Adds to `into` the impulses of row impulses `lambda` (one per row of the system's joints, in
// their order, as core::joints::flow gives Λ and N) at `states`.
void addRowImpulses(const core::joints::JointedSystem& system,
                    const std::vector<core::BodyState>& states, const Eigen::VectorXd& lambda,
                    JointImpulses& into);
// The same of the system's rows as world rows (jointRowsOf, variational_joints.h), `rows` and
// `lambda` from their entry `first` on: a strike's or a hold's rows among others'.
void addRowImpulses(const core::joints::JointedSystem& system,
                    const std::vector<core::contact::JointRow>& rows, const Eigen::VectorXd& lambda,
                    std::size_t first, JointImpulses& into);

}  // namespace carom::detail
