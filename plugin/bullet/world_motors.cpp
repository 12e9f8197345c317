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

}  // namespace carom
