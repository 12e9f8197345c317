// The vertices of polyhedral shapes as contact points (a box's face on the ground touches at its
// corners) and as the features whose impacts the variational step locates while a pair is held
// at others (a box resting on an edge that tips onto its face). Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btPolyhedralConvexShape.h>
#include <LinearMath/btTransform.h>

#include <optional>
#include <vector>

#include "carom/bullet/gap.h"
#include "exact_core_gap.h"

namespace carom {

struct TriangleNeighbours;

// The two shapes of a pair, A then B, at some poses.
struct PairGeometry {
  const btCollisionShape* shape[2];
  btTransform frame[2];
  // Whether the side is a mesh's triangle, solid behind its face (gapBehindTriangle).
  bool solidBehind[2] = {false, false};
  // A mesh triangle's neighbours (mesh_triangles.h), null for any other side.
  const TriangleNeighbours* neighbours[2] = {nullptr, nullptr};
  // The pair's witness for an ellipsoid pair's exact gap (detail::exactCoreGap), or null.
  detail::CoreWitness* witness = nullptr;
};

// The pair's signed gap at those poses (carom::gap; behind a solidBehind triangle,
// gapBehindTriangle; a triangle with neighbours keeps its normal among the mesh surface's,
// withinSurfaceNormals).
Gap gapOf(const PairGeometry& geometry);

// The children a pair takes of the shape: each child of a btCompoundShape (a compound child of
// it taken whole, its gap its closest child's), or kWholeShape alone for any other shape.
std::vector<int> compoundChildrenOf(const btCollisionShape& shape);

// The shape as a polyhedron (a box, a convex hull), or nullptr for a smooth or compound shape.
const btPolyhedralConvexShape* polyhedronOf(const btCollisionShape* shape);

// Whether the shape is strictly convex, touching a convex shape at one point: a sphere or a
// carom::EllipsoidShape.
bool isStrictlyConvex(const btCollisionShape& shape);

// The pair's side `side` as a polyhedron whose vertices are contacts and impacts of their own
// against the other side, or nullptr: a smooth or compound shape, or a polyhedron against a
// strictly convex shape, which touches it at one point, the gap's witness. (A triangle's corner
// ahead of a ball rolling over a mesh, held along the pair's normal where the ball's surface
// moves down, would push it back and take energy at each corner it rolls over.)
const btPolyhedralConvexShape* vertexPolyhedronOf(const PairGeometry& geometry, int side);

// Whether vertex `vertex` of side `side` (vertexPolyhedronOf) touches the other side along
// `normal` (unit, the pair's, from B towards A): always against a polyhedron or a plane; against a
// smooth shape with flat features (a cylinder, a capsule, a cone), where the surface nearest the
// vertex faces it within kSupportTilt of the normal, a flat patch over it, not where it curves
// away. (A mesh's corner ahead of a cylinder rolling over it, held along the pair's normal where
// the cylinder's surface moves down, would push it back and take energy at each.)
bool vertexFacesAlong(const PairGeometry& geometry, int side, int vertex, const btVector3& normal);

// Vertex `vertex` of `polyhedron` at `frame`, in the world (m).
btVector3 vertexAt(const btPolyhedralConvexShape& polyhedron, const btTransform& frame, int vertex);

// How far a polyhedron's surface stands beyond its listed vertices (m): nothing for a box, whose
// vertices are its corners with the margin included; the margin for the others, whose vertices
// are their core's (a convex hull's points, rounded by the margin: Bullet's default is 4 cm).
double vertexMargin(const btCollisionShape& polyhedron);
// Vertex `vertex` of the pair's side `side` (polyhedral) where its surface faces the other shape:
// the listed vertex moved by vertexMargin against `away` (unit, world, pointing away from the other
// shape).
btVector3 surfaceVertexAt(const PairGeometry& geometry, int side, int vertex,
                          const btVector3& away);

// How far vertex `vertex` of the pair's side `side` (0: A, 1: B, polyhedral) is from touching the
// other shape (m), less the contact tolerance (≤ 0: touching): its distance to it less its own
// vertexMargin. A box on the other side counts with its sharp corners (boxDistance at its extents
// with the margin), as a box's vertices do: Bullet rounds its edges and corners by its margin (4 cm
// by default), inside its extents, and a corner of another box under that rounding, at the sharp
// face, is touching.
// (An allowance of margin·(√3 − 1) for the rounded corner is right only where the two corners
// meet: beside the other's corner it would hold a raised corner as touching and prop the box
// tilted.)
double vertexGap(const PairGeometry& geometry, int side, int vertex);
// The other shape's extent along `axis` (unit, world, from the other shape towards side `side`):
// the most of axis·x over it, margin included; nullopt where it is not a convex shape, or is a
// triangle taken solid behind (gapBehindTriangle).
std::optional<double> otherExtentAlong(const PairGeometry& geometry, int side,
                                       const btVector3& axis);
// A lower bound of vertexGap from that extent, with no point query: the vertex is at least its
// separation from the other shape along the axis away from touching.
double vertexGapAtLeast(const PairGeometry& geometry, int side, int vertex, const btVector3& axis,
                        double otherExtent);
// How far a point `point` (world) on side `side`'s surface is from touching the other shape (m):
// its distance to it less the contact tolerance.
double pointGap(const PairGeometry& geometry, int side, const btVector3& point);

// Two contact points closer than this are one (m): stacked boxes' corners meet, and the same point
// twice would make the contact LCP redundant and its Gauss–Seidel slow.
inline constexpr double kSamePoint = 1e-5;

// A contact feature's number: vertex i of side A is 2i, of side B 2i + 1; −1 is the gap's witness
// point, −2 − k the k-th face crossing (face_crossings.h) or, in a pair with a side that is no
// polyhedron (which has no face crossings), a patch corner (support_contacts.h: supportFeature,
// turnedFeature). Only vertices are material points: the others stay where the shapes touch as a
// body rolls.
inline int vertexFeature(int side, int vertex) {
  return 2 * vertex + side;
}
inline int crossingFeature(int crossing) {
  return -2 - crossing;
}

}  // namespace carom
