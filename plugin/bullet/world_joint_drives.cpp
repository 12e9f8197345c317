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
  std::vector<bool> added(m_joints.groups.size(), false);
  for (const int body : island.bodies) {
    if (!jointed(body) || added[m_joints.groupOf[body]]) continue;
    added[m_joints.groupOf[body]] = true;
    const detail::JointGroup& group = m_joints.groups[m_joints.groupOf[body]];
    if (group.drives.empty()) continue;
    std::vector<int> slots;
    std::vector<core::BodyState> states;
    for (const int member : group.bodies) {
      slots.push_back(m_slot[member]);
      states.push_back(m_bodies[member].state);
    }
    for (const core::contact::JointRow& row :
         detail::touchingStopRows(group.system, group.drives, states, slots)) {
      if (core::contact::inverseMassOf(bodies, row) > 0) rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace carom
