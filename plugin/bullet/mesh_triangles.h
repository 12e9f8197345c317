// Triangle meshes and heightfields (btConcaveShape: btBvhTriangleMeshShape, its scaled form,
// btHeightfieldTerrainShape, …) as their triangles, each a convex btTriangleShape that the gap
// and the variational step's contacts handle like any polyhedron. Static level geometry is
// usually a mesh. Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btConcaveShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <LinearMath/btTransform.h>

#include <vector>

namespace carom {

// Whether the shape is a triangle mesh or heightfield: concave, and neither the btStaticPlaneShape
// nor the btEmptyShape that Bullet also counts as concave.
bool isTriangleMesh(const btCollisionShape& shape);

// One triangle of a mesh: its number (meshTriangleNumber) and its corners in the mesh's frame,
// its local scaling applied.
struct MeshTriangle {
  int number;
  btVector3 corner[3];
};

// A triangle's number from Bullet's part and triangle indices, as btInternalEdgeUtility numbers
// them (part in the top 10 bits, triangle below): stable from step to step, so that a contact's
// warm start finds it again. Throws carom::Error for indices beyond that range.
int meshTriangleNumber(int part, int triangle);

// The triangles of `mesh`, at `frame`, whose bounding boxes overlap the world box [min, max].
std::vector<MeshTriangle> trianglesIn(const btConcaveShape& mesh, const btTransform& frame,
                                      const btVector3& min, const btVector3& max);

// A triangle as a convex shape with the mesh's collision margin, as Bullet's own convex–concave
// narrowphase makes it.
btTriangleShape triangleShapeOf(const btConcaveShape& mesh, const MeshTriangle& triangle);

// The rounding of a box's edges where it meets a mesh's triangles (m): enough for GJK, which
// between shapes without margins touches at distance zero, where its normal is EPA's, tilted by up
// to 2e-4 rad for a box sliding over a triangle's edge (its speed off μg's by 3e-5 m/s, measured;
// 1.4e-10 m/s with this margin). A box's edge on a slope rests lower by less than this.
inline constexpr double kSharpBoxMargin = 1e-5;

// A box as it meets a mesh's triangles: with the corners its support mapping gives it, rounded by
// kSharpBoxMargin only, as a plane meets it (gap.h), so that a box lies on a mesh as on a plane.
// With its own margin (1 cm by default) GJK rounds its edges: a box's edge on a slope rested a
// rounding lower than on a plane, 3.4 mm, while its vertices, sharp, were held inside the slope,
// and it sank 0.1 mm into it (measured).
btBoxShape sharpBox(const btBoxShape& box);

}  // namespace carom
