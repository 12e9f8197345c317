// The contacts of a scene at t = 0: the points where two bodies touch (within a tolerance), with
// the normals the Halm–Posa problem needs.
#pragma once

#include <memory>
#include <vector>

#include "carom/bullet/scene.h"

namespace carom::cli {

// Bodies closer than this count as touching (m): scene files state touching poses with a few
// decimals, far above floating-point round-off and far below any shape's size.
inline constexpr double kContactTolerance = 1e-6;

struct SceneContact {
  int bodyA = 0, bodyB = 0;  // indices into Scene::bodies
  btVector3 point;           // world frame (m), midway between the two surfaces
  btVector3 normal;          // unit, world frame, from B towards A (Bullet's normalOnB)
};

// The Bullet shapes of a scene's bodies, in body order.
std::vector<std::unique_ptr<btCollisionShape>> makeShapes(const Scene& scene);

btTransform bodyTransform(const SceneBody& body);

// Every contact between two bodies of which at least one is dynamic. carom::gap gives one closest
// pair per body pair; a face resting on a face touches along a whole patch, so the vertices of a
// box or convex hull that touch the other body are contacts too (the corners of a rocking block),
// and the gap's witness is used only when no vertex touches (curved shapes). An edge crossing an
// edge without a vertex touching is found by the witness alone.
std::vector<SceneContact> findContacts(const Scene& scene,
                                       const std::vector<std::unique_ptr<btCollisionShape>>& shapes,
                                       double tolerance = kContactTolerance);

}  // namespace carom::cli
