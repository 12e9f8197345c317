#include "partner_frame.h"

namespace carom::detail {

std::optional<core::Vec3> partnersRestFrame(const std::vector<core::impact::Contact>& contacts) {
  std::optional<core::Vec3> frame;  // the moving partners' velocity, once one is seen
  for (const core::impact::Contact& contact : contacts) {
    for (const core::impact::ContactBody* side : {&contact.a, &contact.b}) {
      const bool moving = !side->linearVelocity.isZero(0) || !side->angularVelocity.isZero(0);
      if (side->inverseMass > 0 || !moving) continue;
      if (!side->angularVelocity.isZero(0) || (frame && *frame != side->linearVelocity))
        return std::nullopt;
      frame = side->linearVelocity;
    }
  }
  return frame.value_or(core::Vec3::Zero());
}

}  // namespace carom::detail
