// The gap of two convex shapes whose cores are polytopes or points, by a GJK of carom's own: the
// variational step asks tens of gap queries per event of the same pairs at nearby poses, and
// btGjkPairDetector spends most of a query on its setup and its general simplex solver (about
// 8,000 instructions a query between two 12-point hulls; docs/measurements.md).
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btConvexShape.h>

#include <optional>

#include "carom/bullet/gap.h"

namespace carom::detail {

// Bullet's gap of two convex shapes: btGjkPairDetector with a btVoronoiSimplexSolver and, where the
// cores overlap, a btGjkEpaPenetrationDepthSolver (carom::gap's answer for convex pairs with no
// other). Throws carom::Error where it finds no closest points.
Gap bulletGjkGap(const btConvexShape& a, const btTransform& ta, const btConvexShape& b,
                 const btTransform& tb);

// Whether the shape's core (the shape less its margin, what GJK runs on) is a polytope or a point
// that this GJK takes: Bullet's polyhedral shapes but a mesh's triangle (a box, a convex hull, ...)
// and a sphere (its centre, rounded by its radius).
bool hasPolytopeCore(const btCollisionShape& shape);

// The gap of two such shapes by GJK (Gilbert, Johnson & Keerthi 1988) over Bullet's own support
// points of their cores, in Bullet's convention (GJK's gap between the cores less both margins;
// the witness on B's surface). It stops as btGjkPairDetector does, where the support point along
// the closest point's direction is within a relative 1e-12 of its squared length. None where the
// cores come within kCoreContact of each other (Bullet's GJK and EPA answer there, with the
// penetration depth) or a degenerate simplex stops the progress before that test holds.
std::optional<Gap> polytopeGap(const btConvexShape& a, const btTransform& ta,
                               const btConvexShape& b, const btTransform& tb);

// Cores closer than this (m) are left to Bullet's GJK and EPA: the closest point's direction is
// lost to round-off as the cores meet.
inline constexpr double kCoreContact = 1e-9;

}  // namespace carom::detail
