// How thin a convex shape is: what a body must travel, at least, to pass through it within one step
// (the variational step's swept search, VariationalStep::sweptImpact).
#pragma once

#include <BulletCollision/CollisionShapes/btCollisionShape.h>

namespace carom {

// Half the smallest width of `shape` (m, its margin included) over the 13 directions of a cube's
// faces, edges and corners: ∞ for a plane (a half-space cannot be passed through), 0 for a triangle
// or any other shape that is not convex, the smallest of its children's for a compound. Exact for
// a sphere and for a box, capsule, cylinder or ellipsoid about its own axes; larger than the true
// one for a polyhedron thinnest along none of the directions.
double smallestHalfWidth(const btCollisionShape& shape);

}  // namespace carom
