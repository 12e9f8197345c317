// Exact gaps of ellipsoids against ellipsoids and boxes, from GJK's. GJK stops at a relative
// tolerance on its simplex, whose points are mixes of support points: beside a curved surface's
// closest point they are off it, by far more than the contact tolerance. Held at such a witness
// point, two ellipsoids rolling over each other would go on closing at the true closest point
// while the held one stands still, and land again and again within the step.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btConvexShape.h>

#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/gap.h"

namespace carom::detail {

// The shape as a carom::EllipsoidShape, or null.
const EllipsoidShape* ellipsoidOf(const btCollisionShape& shape);

// Whether exactCoreGap applies: an ellipsoid against an ellipsoid or a btBoxShape.
bool hasExactCoreGap(const btCollisionShape& a, const btCollisionShape& b);

// GJK's gap `start` of the pair made exact: the closest points of the shapes' cores (each less its
// margin, what GJK runs on) by alternating projections, accelerated, started from start's witness
// point. `start` itself where the cores overlap (the shapes overlapping by more than their
// margins) or where the projections have not converged within their bound.
Gap exactCoreGap(const Gap& start, const btConvexShape& a, const btTransform& ta,
                 const btConvexShape& b, const btTransform& tb);

}  // namespace carom::detail
