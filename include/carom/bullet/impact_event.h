// Impact events: one record per contact of every impact carom resolves, the same for
// carom::ImpactSolver (lcp mode) and carom::DynamicsWorld (variational mode), handed to the
// world's callback and kept in a list.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btVector3.h>

#include <functional>
#include <string>

namespace carom {

/// One resolved impact contact (a simultaneous impact gives one event per contact). The core's
/// contact convention: the normal points from A into B.
struct ImpactEvent {
  /// The instant of the impact (s): in variational mode inside its step; in lcp mode the step's
  /// start, since velocity-level impacts happen at the step's instant.
  double time = 0.0;
  double fraction = 0.0;  ///< where inside its (internal) step, in [0, 1); 0 in lcp mode
  const btCollisionObject* bodyA = nullptr;
  const btCollisionObject* bodyB = nullptr;
  btVector3 point{0, 0, 0};   ///< world (m)
  btVector3 normal{0, 0, 1};  ///< unit, from A into B
  ///< On B (N s); A receives the opposite. For a simultaneous impact, this contact's compression
  ///< impulse and its restitution phase's scaled copy (core/routh/restitution.h), in both modes.
  btVector3 impulse{0, 0, 0};
  double normalVelocityBefore = 0.0;  ///< (v_B − v_A)·normal at the point (m/s), < 0
  double normalVelocityAfter = 0.0;
  double energyChange = 0.0;  ///< kinetic energy after minus before, of the whole impact (J)
  /// "newton", "stronge", … or the simultaneous model's name; " (unresolved: <the law's trace>)"
  /// appended where the law could not finish (the impulse is then zero).
  std::string law;
  int contacts = 1;  ///< contacts resolved together
};

using ImpactCallback = std::function<void(const ImpactEvent&)>;

}  // namespace carom
