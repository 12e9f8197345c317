// The step's side of joint limits and motors (variational_limits.h): the motors' kicks at the
// start of the step, and the stops a hold must see; and the joints' impulses written back.
#include "joint_feedback.h"
#include "variational_step.h"

namespace carom {

void VariationalStep::kickMotors() {
  m_jointsKicked.clear();
  for (const detail::JointGroup& group : m_joints.groups) {
    std::vector<core::BodyState> states;
    for (const int body : group.bodies)
      states.push_back(stateNow(body));
    m_jointsKicked.push_back(detail::kickMotors(group.system, group.drives, states));
    for (std::size_t i = 0; i < states.size(); ++i)
      setStateNow(group.bodies[i], states[i]);
  }
  m_jointsNow = m_jointsKicked;
  m_jointsTrial = m_jointsKicked;
}

void VariationalStep::writeJoints() {
  std::vector<bool> stepped(static_cast<std::size_t>(m_world.getNumCollisionObjects()), false);
  for (const StepBody& body : m_bodies)
    stepped[static_cast<std::size_t>(body.rigidBody->getWorldArrayIndex())] = true;
  const auto steppedBody = [&](const btRigidBody& body) {
    const int slot = body.getWorldArrayIndex();
    return slot >= 0 && slot < static_cast<int>(stepped.size()) && stepped[slot];
  };
  for (int c = 0; c < m_world.getNumConstraints(); ++c) {
    btTypedConstraint& joint = *m_world.getConstraint(c);
    if (joint.isEnabled() ||
        !(steppedBody(joint.getRigidBodyA()) || steppedBody(joint.getRigidBodyB())))
      continue;
    joint.internalSetAppliedImpulse(0);
    if (btJointFeedback* feedback = joint.getJointFeedback()) detail::clearJointFeedback(*feedback);
  }
  // After: a joint that breaks now keeps what it applied in its last step.
  for (std::size_t g = 0; g < m_joints.groups.size(); ++g) {
    const detail::JointGroup& group = m_joints.groups[g];
    std::vector<core::BodyState> states;
    for (const int body : group.bodies)
      states.push_back(stateNow(body));
    detail::writeJointImpulses(group, states, m_jointsNow[g], m_timeStep);
  }
}

std::vector<core::contact::JointRow> VariationalStep::islandStopRows(
    const Island& island, const std::vector<core::impact::ContactBody>& bodies) const {
  std::vector<core::contact::JointRow> rows;
  forEachJointGroup(island, [&](const detail::JointGroup& group, const std::vector<int>& slots,
                                const std::vector<core::BodyState>& states) {
    if (group.drives.empty()) return;
    for (const core::contact::JointRow& row :
         detail::touchingStopRows(group.system, group.drives, states, slots)) {
      if (core::contact::inverseMassOf(bodies, row) > 0) rows.push_back(row);
    }
  });
  return rows;
}

}  // namespace carom
