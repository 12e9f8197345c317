// Impact events of carom::DynamicsWorld in variational mode: one record per impact resolved inside
// a step (ARCHITECTURE.md "One step", stage 6), handed to the user's callback and kept in a list.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btVector3.h>

#include <functional>

namespace carom {

// One contact of one impact. Bullet's contact convention: the normal points from B towards A.
struct ImpactEvent {
  double time = 0;      // simulated time of the impact (s)
  double fraction = 0;  // where inside its internal step, in [0, 1)
  const btCollisionObject* bodyA = nullptr;
  const btCollisionObject* bodyB = nullptr;
  btVector3 point{0, 0, 0};         // contact point, world frame (m)
  btVector3 normal{0, 0, 1};        // unit, world frame, from B towards A
  btVector3 impulse{0, 0, 0};       // impulse on A at the point (N s); B gets −impulse
  double normalVelocityBefore = 0;  // n·(v_A − v_B) at the point before (m/s), < 0
  double normalVelocityAfter = 0;   // the same after (m/s), ≥ 0 once resolved
  double energyChange = 0;          // kinetic energy after minus before, whole impact (J)
  int contactsInImpact = 1;         // > 1: a simultaneous impact, resolved together
};

using ImpactCallback = std::function<void(const ImpactEvent&)>;

}  // namespace carom
