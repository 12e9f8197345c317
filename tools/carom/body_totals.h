// The totals of energy.csv over a world's dynamic bodies: kinetic and gravitational potential
// energy, linear momentum and angular momentum about the world origin.
#pragma once

#include <LinearMath/btVector3.h>

#include "scene_world.h"

namespace carom::cli {

struct BodyTotals {
  double kinetic = 0;                  // J: ½ m v² + ½ ωᵀ I ω
  double potential = 0;                // J: −m g·x, zero at the world origin
  btVector3 momentum{0, 0, 0};         // N·s
  btVector3 angularMomentum{0, 0, 0};  // N·m·s, about the world origin

  double total() const { return kinetic + potential; }
};

// The inertia comes from the scene (principal moments in the body frame), not from Bullet's
// inverse tensor, so a body's energy is exactly the one the scene states.
BodyTotals totalsOf(const std::vector<SceneWorld::DynamicBody>& bodies, const btVector3& gravity);

}  // namespace carom::cli
