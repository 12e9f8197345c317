// A body's centre in free flight, and its height over static planes, for the variational step's
// closed-form tests (world_sphere_impacts.cpp, world_distant_pairs.cpp). Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <LinearMath/btTransform.h>

#include "carom/core/body.h"

namespace carom {

// Where a body's centre is and how it moves from an instant on (m, m/s, m/s²): its free LGVI flow
// moves it exactly as x + s v + ½ s² a (Tran & Leok (5.9a), a force held over the step).
struct CentreMotion {
  core::Vec3 x, v, a;
};

// p0 + p1 t + p2 t², t in seconds from the instant a CentreMotion starts.
struct Quadratic {
  double p0, p1, p2;
};

// The centre's signed height over a static plane (m), in time.
Quadratic heightOver(const CentreMotion& c, const btStaticPlaneShape& plane,
                     const btTransform& pose);
// The same motion seen in the frame `pose` (a static box's).
CentreMotion inFrameOf(const CentreMotion& c, const btTransform& pose);
// The height of a centre moving as `local` (in a box's frame) over the box's face plane on the
// `side` (±1) of `axis`, the face `half` from the box's centre (m), in time.
inline Quadratic faceHeight(const CentreMotion& local, int axis, double side, double half) {
  return {side * local.x[axis] - half, side * local.v[axis], 0.5 * side * local.a[axis]};
}

}  // namespace carom
