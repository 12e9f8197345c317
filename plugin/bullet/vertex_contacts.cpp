#include "vertex_contacts.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <cmath>
#include <optional>

#include "box_distance.h"
#include "exact_core_gap.h"  // ellipsoidOf
#include "mesh_triangles.h"
#include "support_contacts.h"
#include "variational_step.h"

namespace carom {
namespace {

// A point as a Bullet shape, for its gap to another shape: a sphere of radius zero at atPoint.
const btSphereShape& pointShape() {
  static const btSphereShape sphere(0);
  return sphere;
}
btTransform atPoint(const btVector3& point) {
  return btTransform(btMatrix3x3::getIdentity(), point);
}

}  // namespace

Gap gapOf(const PairGeometry& geometry) {
  for (int side = 0; side < 2; ++side) {
    const btCollisionShape& shape = *geometry.shape[side];
    if (!geometry.solidBehind[1 - side] || !shape.isConvex()) continue;
    const std::optional<Gap> behind = gapBehindTriangle(
        static_cast<const btConvexShape&>(shape), geometry.frame[side],
        static_cast<const btTriangleShape&>(*geometry.shape[1 - side]), geometry.frame[1 - side]);
    if (behind) return side == 0 ? *behind : reversed(*behind);
  }
  if (geometry.witness != nullptr &&
      detail::hasExactCoreGap(*geometry.shape[0], *geometry.shape[1])) {
    return detail::exactCoreGap(
        *geometry.witness, static_cast<const btConvexShape&>(*geometry.shape[0]), geometry.frame[0],
        static_cast<const btConvexShape&>(*geometry.shape[1]), geometry.frame[1]);
  }
  Gap g = gap(*geometry.shape[0], geometry.frame[0], *geometry.shape[1], geometry.frame[1]);
  for (int side = 0; side < 2; ++side) {
    if (geometry.neighbours[side] == nullptr) continue;
    g = withinSurfaceNormals(g, side, static_cast<const btTriangleShape&>(*geometry.shape[side]),
                             geometry.frame[side], *geometry.neighbours[side],
                             *geometry.shape[1 - side], geometry.frame[1 - side]);
  }
  return g;
}

std::vector<int> compoundChildrenOf(const btCollisionShape& shape) {
  if (!shape.isCompound()) return {kWholeShape};
  std::vector<int> children(
      static_cast<std::size_t>(static_cast<const btCompoundShape&>(shape).getNumChildShapes()));
  for (std::size_t i = 0; i < children.size(); ++i)
    children[i] = static_cast<int>(i);
  return children;
}

const btPolyhedralConvexShape* polyhedronOf(const btCollisionShape* shape) {
  // By Bullet's shape type where it tells: the variational step asks for every contact and vertex
  // query, and a dynamic_cast on every call would be a noticeable part of a resting pile's step.
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
    case TRIANGLE_SHAPE_PROXYTYPE:
    case TETRAHEDRAL_SHAPE_PROXYTYPE:
    case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
    case CONVEX_HULL_SHAPE_PROXYTYPE:
    case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE:
      return static_cast<const btPolyhedralConvexShape*>(shape);
    case SPHERE_SHAPE_PROXYTYPE:
    case MULTI_SPHERE_SHAPE_PROXYTYPE:
    case CAPSULE_SHAPE_PROXYTYPE:
    case CONE_SHAPE_PROXYTYPE:
    case CYLINDER_SHAPE_PROXYTYPE:
    case STATIC_PLANE_PROXYTYPE:
    case COMPOUND_SHAPE_PROXYTYPE:
      return nullptr;
    case CUSTOM_CONVEX_SHAPE_TYPE:  // carom's ellipsoid, or a user's shape
      if (detail::ellipsoidOf(*shape) != nullptr) return nullptr;
      [[fallthrough]];
    default:  // a user's shape, or one of Bullet's rarer ones
      return dynamic_cast<const btPolyhedralConvexShape*>(shape);
  }
}

btVector3 vertexAt(const btPolyhedralConvexShape& polyhedron, const btTransform& frame,
                   int vertex) {
  btVector3 local;
  polyhedron.getVertex(vertex, local);
  return frame * local;
}

bool isStrictlyConvex(const btCollisionShape& shape) {
  return shape.getShapeType() == SPHERE_SHAPE_PROXYTYPE || detail::ellipsoidOf(shape) != nullptr;
}

const btPolyhedralConvexShape* vertexPolyhedronOf(const PairGeometry& geometry, int side) {
  return isStrictlyConvex(*geometry.shape[1 - side]) ? nullptr : polyhedronOf(geometry.shape[side]);
}

bool vertexFacesAlong(const PairGeometry& geometry, int side, int vertex, const btVector3& normal) {
  const btCollisionShape& other = *geometry.shape[1 - side];
  if (!hasFlatFeatures(other)) return true;
  const btVector3 point =
      vertexAt(*polyhedronOf(geometry.shape[side]), geometry.frame[side], vertex);
  // From the other shape towards the vertex; the pair's points from B towards A.
  const btVector3 toVertex =
      gap(pointShape(), atPoint(point), other, geometry.frame[1 - side]).normal;
  return toVertex.dot(side == 0 ? normal : -normal) >= std::cos(kSupportTilt);
}

double pointGap(const PairGeometry& geometry, int side, const btVector3& point) {
  const btCollisionShape& other = *geometry.shape[1 - side];
  const btTransform& frame = geometry.frame[1 - side];
  std::optional<Gap> behind;
  if (geometry.solidBehind[1 - side])
    behind = gapBehindTriangle(pointShape(), atPoint(point),
                               static_cast<const btTriangleShape&>(other), frame);
  return (behind ? behind->distance : gap(pointShape(), atPoint(point), other, frame).distance) -
         kContactTolerance;
}

double vertexMargin(const btCollisionShape& polyhedron) {
  return polyhedron.getShapeType() == BOX_SHAPE_PROXYTYPE ? 0.0 : polyhedron.getMargin();
}

btVector3 surfaceVertexAt(const PairGeometry& geometry, int side, int vertex,
                          const btVector3& away) {
  const btCollisionShape& shape = *geometry.shape[side];
  return vertexAt(*polyhedronOf(&shape), geometry.frame[side], vertex) - vertexMargin(shape) * away;
}

std::optional<double> otherExtentAlong(const PairGeometry& geometry, int side,
                                       const btVector3& axis) {
  const btCollisionShape& other = *geometry.shape[1 - side];
  if (!other.isConvex() || geometry.solidBehind[1 - side]) return std::nullopt;
  const btTransform& frame = geometry.frame[1 - side];
  return axis.dot(frame(static_cast<const btConvexShape&>(other).localGetSupportingVertex(
      frame.getBasis().transpose() * axis)));
}

double vertexGapAtLeast(const PairGeometry& geometry, int side, int vertex, const btVector3& axis,
                        double otherExtent) {
  const btCollisionShape& shape = *geometry.shape[side];
  const btVector3 point = vertexAt(*polyhedronOf(&shape), geometry.frame[side], vertex);
  return axis.dot(point) - otherExtent - kContactTolerance - vertexMargin(shape);
}

double vertexGap(const PairGeometry& geometry, int side, int vertex) {
  const btCollisionShape& shape = *geometry.shape[side];
  const btVector3 point = vertexAt(*polyhedronOf(&shape), geometry.frame[side], vertex);
  const btCollisionShape& other = *geometry.shape[1 - side];
  const double gap =
      other.getShapeType() == BOX_SHAPE_PROXYTYPE  // its sharp faces, at its extents with margin
          ? boxDistance(geometry.frame[1 - side].invXform(point),
                        static_cast<const btBoxShape&>(other).getHalfExtentsWithMargin())
                    .distance -
                kContactTolerance
          : pointGap(geometry, side, point);
  return gap - vertexMargin(shape);
}

}  // namespace carom
