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

#include <array>
#include <optional>
#include <vector>

#include "carom/bullet/gap.h"

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
// narrowphase makes it; `reversed`, with its winding, and so its face's normal, turned round.
btTriangleShape triangleShapeOf(const btConcaveShape& mesh, const MeshTriangle& triangle,
                                bool reversed = false);

// The normal of a triangle's face by its winding, (v1 − v0) × (v2 − v0), unit, in the world; zero
// for a degenerate triangle.
btVector3 faceNormalOf(const btTriangleShape& triangle, const btTransform& frame);

// A point inside a convex shape at `frame` (world): the mean of its supports along the six axis
// directions of its frame. Its frame's origin (a body's centre of mass) need not be inside it: a
// convex hull's points are the user's.
btVector3 interiorPointOf(const btConvexShape& shape, const btTransform& frame);

// A mesh's triangle as the variational step meets it: solid behind its face. A triangle is thin,
// and a shape's distance to it (GJK's) is never below zero: a ball that ends a step behind a mesh's
// floor is as far from it as it has gone through, and no impact would be located. Where the convex
// shape's interiorPointOf lies behind the face, within the triangle's outline, the face is a plane
// to it: the gap is its support point's height over the plane (negative), as convexPlaneGap's.
// Elsewhere nothing (the shape is in front, or beside the triangle: GJK's gap holds).
std::optional<Gap> gapBehindTriangle(const btConvexShape& shape, const btTransform& frame,
                                     const btTriangleShape& triangle,
                                     const btTransform& triangleFrame);

// Where a mesh's surface goes on beyond a triangle's edges, for each edge: its two corners (the
// mesh's frame) and the unit normal of the mesh's triangle across it, turned to be wound as this
// triangle is (a mesh's winding need not be consistent), or zero at the mesh's border.
struct TriangleNeighbours {
  struct Edge {
    btVector3 from;
    btVector3 to;
    btVector3 normal;
  };
  std::array<Edge, 3> edge;
  // The same for the triangle turned round: the normals too.
  TriangleNeighbours reversed() const;
};

// Two corners of a mesh this close (m) are one: btTriangleInfoMap's connectivity threshold.
inline constexpr double kSharedCorner = 1e-4;

// The triangles across `triangle`'s edges in `mesh`: those with two corners on an edge's
// (kSharedCorner).
TriangleNeighbours neighboursOf(const btConcaveShape& mesh, const MeshTriangle& triangle);

// Gap `g` from a mesh's triangle (side `triangleSide` of the pair: 0 for A, 1 for B, at `frame`) to
// a shape, its normal kept among the normals the mesh's surface has at the gap's witness point on
// the triangle. GJK's normal at an edge points from the edge to the shape, tilted from the face by
// as much as the shape lies beyond the edge; where the triangle across it continues the face or
// bends up (a flat floor's inner edges), the shape beyond the edge lies over that triangle, whose
// own pair holds it, and the tilt is no normal of the surface: a ball rolling across a flat mesh's
// edges would be pushed up and back along it, losing energy at each. There the normal is the
// face's; across an edge over which the surface bends down (a ridge), it turns no further than the
// next face's. An edge with no triangle across (the mesh's border) and a witness point inside the
// face keep GJK's normal. The distance stays; the witness points, turned, are the other shape's
// support against the new normal (`other`, convex, at `otherFrame`) and that point less the
// distance along the normal.
Gap withinSurfaceNormals(const Gap& g, int triangleSide, const btTriangleShape& triangle,
                         const btTransform& frame, const TriangleNeighbours& neighbours,
                         const btCollisionShape& other, const btTransform& otherFrame);

// The rounding of a box's edges where it meets a mesh's triangles (m): enough for GJK, which
// between shapes without margins touches at distance zero, where its normal is EPA's, tilted
// enough to slow a box sliding over a triangle's edge off μg. A box's edge on a slope rests lower
// by less than this.
inline constexpr double kSharpBoxMargin = 1e-5;

// A box as it meets a mesh's triangles: with the corners its support mapping gives it, rounded by
// kSharpBoxMargin only, as a plane meets it (gap.h), so that a box lies on a mesh as on a plane.
// With its own margin (1 cm by default) GJK rounds its edges: a box's edge on a slope would rest a
// rounding lower than on a plane, while its vertices, sharp, are held inside the slope, and it
// would sink into it.
btBoxShape sharpBox(const btBoxShape& box);

}  // namespace carom
