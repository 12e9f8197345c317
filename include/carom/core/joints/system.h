// Rigid bodies joined by holonomic joints: what the constrained LGVI (jointed_flow.h) advances.
#pragma once

#include <vector>

#include "carom/core/body.h"
#include "carom/core/joints/joint.h"

namespace carom::core::joints {

/// The bodies' mass properties and the joints between them. Immutable and always valid: the
/// constructor refuses a joint that validateJoint refuses, naming it by index and kind.
class JointedSystem {
 public:
  JointedSystem(std::vector<MassProperties> bodies, std::vector<Joint> joints);

  const std::vector<MassProperties>& bodies() const { return bodies_; }
  const std::vector<Joint>& joints() const { return joints_; }
  int bodyCount() const { return static_cast<int>(bodies_.size()); }
  /// The scalar constraints of all joints, stacked in the joints' order.
  int rowCount() const { return rowCount_; }

 private:
  std::vector<MassProperties> bodies_;
  std::vector<Joint> joints_;
  int rowCount_ = 0;
};

}  // namespace carom::core::joints
