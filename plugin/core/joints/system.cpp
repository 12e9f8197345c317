#include "carom/core/joints/system.h"

#include <string>
#include <utility>

namespace carom::core::joints {

JointedSystem::JointedSystem(std::vector<MassProperties> bodies, std::vector<Joint> joints)
    : bodies_(std::move(bodies)), joints_(std::move(joints)) {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    validateJoint(joints_[j], bodyCount(), "joint " + std::to_string(j));
    rowCount_ += joints::rowCount(joints_[j]);
  }
}

}  // namespace carom::core::joints
