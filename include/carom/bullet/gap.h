// The signed gap between two Bullet shapes at arbitrary (trial) transforms: what the variational
// step evaluates while it locates an impact inside a step (ARCHITECTURE.md, "One step", stage 4).
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <LinearMath/btTransform.h>

namespace carom {

/// The closest (separated) or deepest (overlapping) pair of points of two shapes, in Bullet's
/// contact convention: pointOnA = pointOnB + normal · distance.
struct Gap {
  btScalar distance = 0;        ///< signed (m): > 0 separated, 0 touching, < 0 overlap depth
  btVector3 normal{0, 0, 1};    ///< unit, world frame, from B towards A (Bullet's normalOnB)
  btVector3 pointOnA{0, 0, 0};  ///< witness point on A's surface, world frame (m)
  btVector3 pointOnB{0, 0, 0};  ///< witness point on B's surface, world frame (m)
  ///< The compound child of A that realises the gap; for a triangle mesh or heightfield, its
  ///< triangle's number (part · 2²¹ + triangle, as btInternalEdgeUtility numbers them); else -1.
  int childA = -1;
  int childB = -1;  ///< the same for B
};

/// The same gap seen from the other side: A and B exchanged, the normal turned round.
Gap reversed(const Gap& g);

/// The signed gap between shape a at transform ta and shape b at transform tb.
///
/// Convex pairs go through btGjkPairDetector with a btVoronoiSimplexSolver and a
/// btGjkEpaPenetrationDepthSolver; collision margins count as part of the shape, as in Bullet's own
/// narrowphase (a sphere is its radius; a box's margin rounds its edges there). Two shapes whose
/// cores are polytopes or points (Bullet's polyhedral shapes but a mesh's triangle, and spheres)
/// and are apart go through a GJK of carom's own over the same support points, with
/// btGjkPairDetector's stopping rule, and only where their cores overlap through Bullet's. A
/// btStaticPlaneShape against a convex shape is exact: the support point of the convex shape along
/// the plane's inward normal (margin included, as in btConvexPlaneCollisionAlgorithm). A
/// btSphereShape against a btSphereShape, a btBoxShape or a carom::EllipsoidShape is exact too, in
/// closed form (the box as GJK sees it: its half extents without margin, rounded by the margin; the
/// ellipsoid by core::ellipsoidDistance, whatever its margin). A carom::EllipsoidShape against an
/// ellipsoid or a btBoxShape is GJK's gap made exact, by projections between the shapes' cores,
/// where they overlap by less than their margins (GJK's witness points beside a curved surface's
/// closest point are off by up to 0.2 mm). A btCompoundShape is the union of its children: the gap
/// is the smallest over child pairs, each child at its world transform. A triangle mesh or
/// heightfield (a btConcaveShape other than the plane) against a convex shape is the union of its
/// triangles, each a btTriangleShape with the mesh's margin as in Bullet's own convex–concave
/// narrowphase: the gap is the smallest over the triangles near the convex shape, searched in
/// boxes around it that widen until the closest triangle lies within the box searched.
///
/// Throws carom::Error, naming the shapes, for a pair without a gap: two planes, two meshes, a
/// plane and a mesh, an empty compound or mesh, or a shape that is neither convex, plane, mesh nor
/// compound.
Gap gap(const btCollisionShape& a, const btTransform& ta, const btCollisionShape& b,
        const btTransform& tb);

}  // namespace carom
