#include "partner_frame.h"

namespace carom::detail {

std::optional<core::Vec3> partnersRestFrame(
    const std::vector<const core::impact::ContactBody*>& bodies) {
  std::optional<core::Vec3> frame;  // the moving partners' velocity, once one is seen
  for (const core::impact::ContactBody* side : bodies) {
    const bool moving = !side->linearVelocity.isZero(0) || !side->angularVelocity.isZero(0);
    if (side->inverseMass > 0 || !moving) continue;
    if (!side->angularVelocity.isZero(0) || (frame && *frame != side->linearVelocity))
      return std::nullopt;
    frame = side->linearVelocity;
  }
  return frame.value_or(core::Vec3::Zero());
}

std::optional<core::Vec3> partnersRestFrame(const std::vector<core::impact::Contact>& contacts) {
  std::vector<const core::impact::ContactBody*> bodies;
  bodies.reserve(2 * contacts.size());
  for (const core::impact::Contact& contact : contacts) {
    bodies.push_back(&contact.a);
    bodies.push_back(&contact.b);
  }
  return partnersRestFrame(bodies);
}

}  // namespace carom::detail
