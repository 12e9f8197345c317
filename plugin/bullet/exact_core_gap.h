// Exact gaps of ellipsoids against ellipsoids and boxes, from GJK's. GJK stops at a relative
// tolerance on its simplex, whose points are mixes of support points: beside a curved surface's
// closest point they are off it, by far more than the contact tolerance. Held at such a witness
// point, two ellipsoids rolling over each other would go on closing at the true closest point
// while the held one stands still, and land again and again within the step.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btConvexShape.h>

#include <limits>
#include <optional>

#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/gap.h"

namespace carom::detail {

// The shape when it is a carom::EllipsoidShape itself (a class derived from it may change its
// support: not one), or null.
const EllipsoidShape* ellipsoidOf(const btCollisionShape& shape);

// Whether exactCoreGap applies: an ellipsoid against an ellipsoid or a btBoxShape.
bool hasExactCoreGap(const btCollisionShape& a, const btCollisionShape& b);

// GJK's gap `start` of the pair made exact: the closest points of the shapes' cores (each less its
// margin, what GJK runs on) by alternating projections, accelerated, started from start's witness
// point. `start` itself where the cores overlap (the shapes overlapping by more than their
// margins) or where the projections have not converged within their bound.
Gap exactCoreGap(const Gap& start, const btConvexShape& a, const btTransform& ta,
                 const btConvexShape& b, const btTransform& tb);

// A pair's last closest point on B's core, in B's frame (its shape's, as the pair's query has it).
// The variational step asks the same pair's gap many times in a step at nearby poses (a root
// search's probes, the gaps after each event): started there, the projections need no GJK first.
struct CoreWitness {
  std::optional<btVector3> onCoreB;  // none before the first query, or where the cores overlapped
  // Each ellipsoid core's last closest-point root (core::EllipsoidDistance::root), NaN for none:
  // the next query's Newton steps start there.
  double roots[2] = {std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::quiet_NaN()};
};

// The gap carom::gap gives an ellipsoid pair (hasExactCoreGap), its projections started from the
// witness, which it then moves to the new closest point. Where they cannot start there or do not
// converge, carom::gap's own (GJK's start). The same closest pair to the projections' tolerance
// (the distance to round-off: a witness 1e-10 m along the surface changes it by its square over
// the radius of curvature).
Gap exactCoreGap(CoreWitness& witness, const btConvexShape& a, const btTransform& ta,
                 const btConvexShape& b, const btTransform& tb);

}  // namespace carom::detail
