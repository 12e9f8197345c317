// How carom's errors name a collision object of a world, which has no name of its own.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <string>

namespace carom {

// "collision object 3 (Box at (0, 0, 0.3), 1000 kg)": its place in the world's
// getCollisionObjectArray(), as the program that added it can find it, its shape's Bullet name,
// where it is at `pose`, and its mass ("static" or "kinematic" for an object that does not move
// by impulses).
std::string describeObject(const btCollisionObject& object, const btTransform& pose);

// "Box–Sphere": a pair of shapes by their Bullet names, as the gap's errors name it.
std::string shapePairName(const btCollisionShape& a, const btCollisionShape& b);

}  // namespace carom
