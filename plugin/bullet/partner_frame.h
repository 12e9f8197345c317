// The frame of an impact's moving immovable partners (kinematic bodies). The simultaneous model's
// rows see the dynamic bodies' velocities only, as if every other body stood still. Where the
// moving partners of an impact all translate at one velocity, the impact is solved in their frame
// (every dynamic body's velocity less theirs), which leaves every relative velocity as it is.
// Ignored, a kinematic lift's push on a box standing on it would meet zero relative velocity at
// the box's four corners, every time, until the round or event cap.
#pragma once

#include <optional>
#include <vector>

#include "carom/core/impact/contact.h"

namespace carom::detail {

// The velocity of the frame in which every moving immovable body of `bodies` is at rest: zero when
// none moves, none when they turn or move at different velocities (resolved contact by contact
// then). `bodies` lists the impact's contacts' sides, a body as often as it touches.
std::optional<core::Vec3> partnersRestFrame(
    const std::vector<const core::impact::ContactBody*>& bodies);
// The same over both sides of each of `contacts`.
std::optional<core::Vec3> partnersRestFrame(const std::vector<core::impact::Contact>& contacts);

}  // namespace carom::detail
