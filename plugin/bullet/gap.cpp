#include "carom/bullet/gap.h"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <string>

#include "carom/error.h"

namespace carom {
namespace {

std::string pairName(const btCollisionShape& a, const btCollisionShape& b) {
  return std::string(a.getName()) + "–" + b.getName();
}

// The same gap seen from the other side: A and B swap, the normal turns round.
Gap swapped(const Gap& g) {
  Gap s = g;
  s.normal = -g.normal;
  s.pointOnA = g.pointOnB;
  s.pointOnB = g.pointOnA;
  s.childA = g.childB;
  s.childB = g.childA;
  return s;
}

Gap convexConvexGap(const btConvexShape& a, const btTransform& ta, const btConvexShape& b,
                    const btTransform& tb) {
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver epa;
  btGjkPairDetector detector(&a, &b, &simplex, &epa);
  btGjkPairDetector::ClosestPointInput input;
  input.m_transformA = ta;
  input.m_transformB = tb;
  btPointCollector result;
  detector.getClosestPoints(input, result, nullptr);
  if (!result.m_hasResult) {
    throw Error("gap: GJK/EPA found no closest points for the pair " + pairName(a, b));
  }
  Gap g;
  g.distance = result.m_distance;
  g.normal = result.m_normalOnBInWorld;
  g.pointOnB = result.m_pointInWorld;
  g.pointOnA = g.pointOnB + g.normal * g.distance;
  return g;
}

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

Gap closer(const Gap& best, const Gap& candidate) {
  return candidate.distance < best.distance ? candidate : best;
}

}  // namespace

Gap gap(const btCollisionShape& a, const btTransform& ta, const btCollisionShape& b,
        const btTransform& tb) {
  if (a.isCompound()) {
    const auto& compound = static_cast<const btCompoundShape&>(a);
    if (compound.getNumChildShapes() == 0) {
      throw Error("gap: the compound shape of the pair " + pairName(a, b) + " has no children");
    }
    Gap best;
    for (int i = 0; i < compound.getNumChildShapes(); ++i) {
      Gap g = gap(*compound.getChildShape(i), ta * compound.getChildTransform(i), b, tb);
      g.childA = i;
      best = i == 0 ? g : closer(best, g);
    }
    return best;
  }
  if (b.isCompound()) return swapped(gap(b, tb, a, ta));

  const bool planeA = a.getShapeType() == STATIC_PLANE_PROXYTYPE;
  const bool planeB = b.getShapeType() == STATIC_PLANE_PROXYTYPE;
  if (planeA && planeB) throw Error("gap: two planes have no gap (" + pairName(a, b) + ")");
  if (!(a.isConvex() || planeA) || !(b.isConvex() || planeB)) {
    throw Error("gap: unsupported shape pair " + pairName(a, b) +
                " (convex shapes, btStaticPlaneShape and btCompoundShape of those only)");
  }
  if (planeA) return swapped(gap(b, tb, a, ta));
  const auto& convexA = static_cast<const btConvexShape&>(a);
  if (planeB) return convexPlaneGap(convexA, ta, static_cast<const btStaticPlaneShape&>(b), tb);
  return convexConvexGap(convexA, ta, static_cast<const btConvexShape&>(b), tb);
}

}  // namespace carom
