#include "carom/bullet/gap.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <optional>
#include <string>

#include "aabb.h"
#include "box_distance.h"
#include "bt_eigen.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "carom/core/ellipsoid_distance.h"
#include "carom/error.h"
#include "exact_core_gap.h"
#include "mesh_triangles.h"
#include "object_text.h"
#include "polytope_gap.h"
#include "sphere_gap.h"

namespace carom {
namespace {

// Plane {n·x = c} in its local frame; the convex shape's deepest point along −n decides the gap.
Gap convexPlaneGap(const btConvexShape& a, const btTransform& ta, const btStaticPlaneShape& plane,
                   const btTransform& tplane) {
  const btVector3 normal = tplane.getBasis() * plane.getPlaneNormal();
  const btScalar offset = plane.getPlaneConstant() + normal.dot(tplane.getOrigin());
  const btVector3 localDirection = ta.getBasis().transpose() * -normal;
  Gap g;
  g.normal = normal;
  g.pointOnA = ta * a.localGetSupportingVertex(localDirection);
  g.distance = normal.dot(g.pointOnA) - offset;
  g.pointOnB = g.pointOnA - normal * g.distance;
  return g;
}

// A sphere of radius r centred at c against a shape whose signed distance from c (m) and outward
// unit normal at its closest surface point are `distance` and `normal`.
Gap sphereGap(const btVector3& c, btScalar r, btScalar distance, const btVector3& normal) {
  Gap g;
  g.normal = normal;
  g.distance = distance - r;
  g.pointOnB = c - normal * distance;
  g.pointOnA = c - normal * r;
  return g;
}

// A sphere against a box, in closed form: Bullet's box is its core half extents rounded by its
// margin (GJK's view of it), so c's signed distance to it is c's to the core box less the margin.
// Exact, where GJK and EPA stop at a tolerance; and cheap: the variational step's vertex gaps (a
// polyhedron's corner as a sphere of radius 0) are too many to leave to GJK.
Gap sphereBoxGap(const btSphereShape& a, const btTransform& ta, const btBoxShape& b,
                 const btTransform& tb) {
  const btVector3 c = ta.getOrigin();
  const BoxDistance d = boxDistance(tb.invXform(c), b.getHalfExtentsWithoutMargin());
  return sphereGap(c, a.getRadius(), d.distance - b.getMargin(), tb.getBasis() * d.normal);
}

// A sphere against an ellipsoid, in closed form (core::ellipsoidDistance): GJK's view of
// carom::EllipsoidShape is the ellipsoid itself, margin included. With the vertex gaps of boxes
// against ellipsoids, these are most of a mixed pile's gap queries, too many to leave to GJK.
Gap sphereEllipsoidGap(const btSphereShape& a, const btTransform& ta, const EllipsoidShape& b,
                       const btTransform& tb) {
  const btVector3 c = ta.getOrigin();
  const core::EllipsoidDistance d =
      core::ellipsoidDistance(detail::toEigen(b.getSemiAxes()), detail::toEigen(tb.invXform(c)));
  return sphereGap(c, a.getRadius(), d.distance, tb.getBasis() * detail::toBt(d.normal));
}

Gap closer(const Gap& best, const Gap& candidate) {
  return candidate.distance < best.distance ? candidate : best;
}

// How far beyond a convex shape's bounding box the first search of a mesh's triangles reaches
// (m); each further search reaches twice as far.
constexpr double kFirstMeshReach = 0.01;

// The smallest gap over the mesh's triangles. A triangle outside the shape's bounding box widened
// by r is farther than r from the shape: once the closest triangle found within r is at most r
// away, none outside is closer. The search widens until that holds or it covers the whole mesh.
Gap convexMeshGap(const btConvexShape& a, const btTransform& ta, const btConcaveShape& mesh,
                  const btTransform& tmesh) {
  btVector3 min, max, meshMin, meshMax;
  a.getAabb(ta, min, max);
  mesh.getAabb(tmesh, meshMin, meshMax);
  for (double reach = kFirstMeshReach;; reach *= 2) {
    const btVector3 pad(reach, reach, reach);
    std::optional<Gap> best;
    for (const MeshTriangle& triangle : trianglesIn(mesh, tmesh, min - pad, max + pad)) {
      Gap g = gap(a, ta, triangleShapeOf(mesh, triangle), tmesh);
      g.childB = triangle.number;
      best = best ? closer(*best, g) : g;
    }
    if (best && best->distance <= reach) return *best;
    const bool covered = aabbContains(min - pad, max + pad, meshMin, meshMax);
    if (covered) {
      if (best) return *best;
      throw Error("gap: the triangle mesh of the pair " + shapePairName(a, mesh) +
                  " has no triangles");
    }
  }
}

}  // namespace

Gap sphereSphereGap(const btVector3& a, btScalar ra, const btVector3& b, btScalar rb) {
  const btVector3 apart = a - b;
  const btScalar length = apart.length();
  const btVector3 normal = length > 0 ? apart / length : btVector3(0, 0, 1);  // any, when centred
  return sphereGap(a, ra, length - rb, normal);
}

Gap reversed(const Gap& g) {
  Gap r = g;
  r.normal = -g.normal;
  r.pointOnA = g.pointOnB;
  r.pointOnB = g.pointOnA;
  r.childA = g.childB;
  r.childB = g.childA;
  return r;
}

Gap gap(const btCollisionShape& a, const btTransform& ta, const btCollisionShape& b,
        const btTransform& tb) {
  if (a.isCompound()) {
    const auto& compound = static_cast<const btCompoundShape&>(a);
    if (compound.getNumChildShapes() == 0) {
      throw Error("gap: the compound shape of the pair " + shapePairName(a, b) +
                  " has no children");
    }
    Gap best;
    for (int i = 0; i < compound.getNumChildShapes(); ++i) {
      Gap g = gap(*compound.getChildShape(i), ta * compound.getChildTransform(i), b, tb);
      g.childA = i;
      best = i == 0 ? g : closer(best, g);
    }
    return best;
  }
  if (b.isCompound()) return reversed(gap(b, tb, a, ta));
  if (isTriangleMesh(a) || isTriangleMesh(b)) {
    if (isTriangleMesh(a) && isTriangleMesh(b))
      throw Error("gap: two triangle meshes have no gap here (" + shapePairName(a, b) + ")");
    if (isTriangleMesh(a)) return reversed(gap(b, tb, a, ta));
    if (!a.isConvex())
      throw Error("gap: unsupported shape pair " + shapePairName(a, b) +
                  " (a triangle mesh meets convex shapes only)");
    return convexMeshGap(static_cast<const btConvexShape&>(a), ta,
                         static_cast<const btConcaveShape&>(b), tb);
  }

  const bool planeA = a.getShapeType() == STATIC_PLANE_PROXYTYPE;
  const bool planeB = b.getShapeType() == STATIC_PLANE_PROXYTYPE;
  if (planeA && planeB) throw Error("gap: two planes have no gap (" + shapePairName(a, b) + ")");
  if (!(a.isConvex() || planeA) || !(b.isConvex() || planeB)) {
    throw Error("gap: unsupported shape pair " + shapePairName(a, b) +
                " (convex shapes, btStaticPlaneShape, triangle meshes, heightfields and "
                "btCompoundShape of those only)");
  }
  if (planeA) return reversed(gap(b, tb, a, ta));
  const int typeA = a.getShapeType();
  const int typeB = b.getShapeType();
  if (typeB == SPHERE_SHAPE_PROXYTYPE &&
      (typeA == BOX_SHAPE_PROXYTYPE || detail::ellipsoidOf(a) != nullptr))
    return reversed(gap(b, tb, a, ta));
  if (typeA == SPHERE_SHAPE_PROXYTYPE && typeB == SPHERE_SHAPE_PROXYTYPE) {
    return sphereSphereGap(ta.getOrigin(), static_cast<const btSphereShape&>(a).getRadius(),
                           tb.getOrigin(), static_cast<const btSphereShape&>(b).getRadius());
  }
  if (typeA == SPHERE_SHAPE_PROXYTYPE && typeB == BOX_SHAPE_PROXYTYPE) {
    return sphereBoxGap(static_cast<const btSphereShape&>(a), ta, static_cast<const btBoxShape&>(b),
                        tb);
  }
  if (typeA == SPHERE_SHAPE_PROXYTYPE) {
    if (const EllipsoidShape* ellipsoid = detail::ellipsoidOf(b))
      return sphereEllipsoidGap(static_cast<const btSphereShape&>(a), ta, *ellipsoid, tb);
  }
  if (typeA == TRIANGLE_SHAPE_PROXYTYPE && typeB == BOX_SHAPE_PROXYTYPE)
    return reversed(gap(b, tb, a, ta));
  if (typeA == BOX_SHAPE_PROXYTYPE && typeB == TRIANGLE_SHAPE_PROXYTYPE) {
    return detail::bulletGjkGap(sharpBox(static_cast<const btBoxShape&>(a)), ta,
                                static_cast<const btConvexShape&>(b), tb);
  }
  const auto& convexA = static_cast<const btConvexShape&>(a);
  if (planeB) return convexPlaneGap(convexA, ta, static_cast<const btStaticPlaneShape&>(b), tb);
  const auto& convexB = static_cast<const btConvexShape&>(b);
  if (detail::hasPolytopeCore(a) && detail::hasPolytopeCore(b)) {
    if (const std::optional<Gap> g = detail::polytopeGap(convexA, ta, convexB, tb)) return *g;
  }
  const Gap g = detail::bulletGjkGap(convexA, ta, convexB, tb);
  return detail::hasExactCoreGap(a, b) ? detail::exactCoreGap(g, convexA, ta, convexB, tb) : g;
}

}  // namespace carom
