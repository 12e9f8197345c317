#include "support_contacts.h"

#include <BulletCollision/CollisionShapes/btConvexShape.h>

#include "carom/bullet/ellipsoid_shape.h"
#include "variational_step.h"

namespace carom {
namespace {

// A convex shape whose contact can be a face or a segment: not a polyhedron (its vertices hold
// it), not a sphere or an ellipsoid (strictly convex: one point touches).
const btConvexShape* flatFeaturedOf(const btCollisionShape* shape) {
  if (!shape->isConvex() || polyhedronOf(shape) != nullptr) return nullptr;
  if (shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) return nullptr;
  if (dynamic_cast<const EllipsoidShape*>(shape) != nullptr) return nullptr;
  return static_cast<const btConvexShape*>(shape);
}

}  // namespace

std::vector<SupportCorner> supportCorners(const PairGeometry& geometry, int side,
                                          const btVector3& away, const btVector3& witness,
                                          double reach) {
  std::vector<SupportCorner> corners;
  const btConvexShape* convex = flatFeaturedOf(geometry.shape[side]);
  if (convex == nullptr) return corners;
  const btTransform& frame = geometry.frame[side];
  const btVector3 toward = -away;
  btVector3 tangents[kSupportDirections];
  btPlaneSpace1(toward, tangents[0], tangents[1]);
  tangents[2] = -tangents[0];
  tangents[3] = -tangents[1];
  btVector3 centre;
  btScalar radius;
  convex->getBoundingSphere(centre, radius);
  const double same = 10 * kSupportTilt * radius + kSamePoint;
  const auto near = [&](const btVector3& point) {
    if ((point - witness).length() <= same) return true;
    for (const SupportCorner& corner : corners) {
      if ((corner.point - point).length() <= same) return true;
    }
    return false;
  };
  for (int d = 0; d < kSupportDirections; ++d) {
    const btVector3 direction = toward + kSupportTilt * tangents[d];
    // The support of the shape's core (Bullet rounds it by its margin) and the margin along the
    // normal: the point where the rounded surface meets the contact plane.
    const btVector3 point = frame * convex->localGetSupportVertexWithoutMarginNonVirtual(
                                        frame.getBasis().transpose() * direction) +
                            convex->getMarginNonVirtual() * toward;
    if (away.dot(point - witness) > reach || near(point)) continue;
    const double gap = pointGap(geometry, side, point);
    if (gap <= reach - kContactTolerance) corners.push_back({d, point, gap});
  }
  return corners;
}

}  // namespace carom
