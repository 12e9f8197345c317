// The step's side of joint limits and motors (variational_limits.h): the motors' kicks at the
// start of the step, and the stops a hold must see.
#include "variational_step.h"

namespace carom {

void VariationalStep::kickMotors() {
  for (const detail::JointGroup& group : m_joints.groups) {
    std::vector<core::BodyState> states;
    for (const int body : group.bodies)
      states.push_back(m_bodies[body].state);
    detail::kickMotors(group.system, group.drives, states);
    for (std::size_t i = 0; i < states.size(); ++i)
      m_bodies[group.bodies[i]].state = states[i];
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
