#include "support_contacts.h"

#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>

#include <algorithm>
#include <array>

#include "variational_step.h"

namespace carom {
namespace {

// The shape as a convex one if it hasFlatFeatures, else nullptr.
const btConvexShape* flatFeaturedOf(const btCollisionShape* shape) {
  if (!shape->isConvex() || polyhedronOf(shape) != nullptr || isStrictlyConvex(*shape))
    return nullptr;
  return static_cast<const btConvexShape*>(shape);
}

// Within ten times the tilt's sweep over the larger shape's bounding radius of `witness` or of a
// point of `points`: the same point, moved by a curved surface's turn.
struct NearTest {
  double same;
  bool operator()(const btVector3& point, const btVector3& witness,
                  const std::vector<btVector3>& points) const {
    if ((point - witness).length() <= same) return true;
    return std::any_of(points.begin(), points.end(),
                       [&](const btVector3& other) { return (other - point).length() <= same; });
  }
};

double boundingRadiusOf(const btCollisionShape& shape) {
  btVector3 centre;
  btScalar radius;
  shape.getBoundingSphere(centre, radius);
  return radius;
}

NearTest nearTestFor(double radius) {
  return {10 * kSupportTilt * radius + kSamePoint};
}

// The kSupportDirections tangents the tilts and turns go towards: two across the unit `normal`
// and their opposites. The first is `along` seen along the normal where that lies within 60° of
// the contact plane, else Bullet's btPlaneSpace1 gives both (a cylinder on its cap: its axis seen
// along the normal is its tilt's direction, which turned the cap's corners by 19° in a step).
std::array<btVector3, kSupportDirections> tangentsAcross(const btVector3& normal,
                                                         const btVector3& along) {
  std::array<btVector3, kSupportDirections> tangents;
  const btVector3 inPlane = along - along.dot(normal) * normal;
  if (inPlane.length2() > 0.25) {
    tangents[0] = inPlane.normalized();
    tangents[1] = normal.cross(tangents[0]);
  } else {
    btPlaneSpace1(normal, tangents[0], tangents[1]);
  }
  tangents[2] = -tangents[0];
  tangents[3] = -tangents[1];
  return tangents;
}

// The axis (world, unit) of a cylinder, a capsule or a cone at `frame`, else zero. Their straight
// contacts (a side lying on the ground) run along it seen along the normal, and a tilt finds a
// segment's ends exactly only along it: tilted across it, the support of the curved side moves
// off the line of contact by the tilt times the radius, to a point ahead of it as the body rolls,
// which a contact held there would stop (a rolling cylinder would hop).
btVector3 axisOf(const btCollisionShape& shape, const btTransform& frame) {
  int up = -1;
  switch (shape.getShapeType()) {
    case CYLINDER_SHAPE_PROXYTYPE:
      up = static_cast<const btCylinderShape&>(shape).getUpAxis();
      break;
    case CAPSULE_SHAPE_PROXYTYPE:
      up = static_cast<const btCapsuleShape&>(shape).getUpAxis();
      break;
    case CONE_SHAPE_PROXYTYPE:
      up = static_cast<const btConeShape&>(shape).getConeUpIndex();
      break;
    default:
      return btVector3(0, 0, 0);
  }
  return frame.getBasis().getColumn(up);
}

}  // namespace

bool hasFlatFeatures(const btCollisionShape& shape) {
  return flatFeaturedOf(&shape) != nullptr;
}

std::vector<SupportCorner> supportCorners(const PairGeometry& geometry, int side,
                                          const btVector3& away, const btVector3& witness,
                                          double reach) {
  std::vector<SupportCorner> corners;
  const btConvexShape* convex = flatFeaturedOf(geometry.shape[side]);
  if (convex == nullptr) return corners;
  const btTransform& frame = geometry.frame[side];
  const btVector3 toward = -away;
  const std::array<btVector3, kSupportDirections> tangents =
      tangentsAcross(toward, axisOf(*convex, frame));
  const NearTest near = nearTestFor(boundingRadiusOf(*convex));
  std::vector<btVector3> kept;
  for (int d = 0; d < kSupportDirections; ++d) {
    const btVector3 direction = toward + kSupportTilt * tangents[d];
    // The support of the shape's core (Bullet rounds it by its margin) and the margin along the
    // normal: the point where the rounded surface meets the contact plane.
    const btVector3 point = frame * convex->localGetSupportVertexWithoutMarginNonVirtual(
                                        frame.getBasis().transpose() * direction) +
                            convex->getMarginNonVirtual() * toward;
    if (away.dot(point - witness) > reach || near(point, witness, kept)) continue;
    const double gap = pointGap(geometry, side, point);
    if (gap > reach - kContactTolerance) continue;
    corners.push_back({d, point, gap});
    kept.push_back(point);
  }
  return corners;
}

std::vector<SupportCorner> turnedCorners(const PairGeometry& geometry, const Gap& gap, double reach,
                                         const std::vector<btVector3>& listed) {
  std::vector<SupportCorner> corners;
  if (flatFeaturedOf(geometry.shape[0]) == nullptr && flatFeaturedOf(geometry.shape[1]) == nullptr)
    return corners;
  const btVector3 witness = 0.5 * (gap.pointOnA + gap.pointOnB);
  const NearTest near = nearTestFor(
      std::max(boundingRadiusOf(*geometry.shape[0]), boundingRadiusOf(*geometry.shape[1])));
  std::vector<btVector3> kept = listed;
  // Any two tangents: the turns find the patch's ends along both.
  const std::array<btVector3, kSupportDirections> tangents =
      tangentsAcross(gap.normal, btVector3(0, 0, 0));
  for (int d = 0; d < kSupportDirections; ++d) {
    // Turned about the tangent across direction d, A's side of the patch that way dips into B.
    const btVector3 axis = gap.normal.cross(tangents[d]);
    const btTransform turn = btTransform(btMatrix3x3::getIdentity(), witness) *
                             btTransform(btQuaternion(axis, kSupportTilt)) *
                             btTransform(btMatrix3x3::getIdentity(), -witness);
    PairGeometry turned = geometry;
    turned.frame[0] = turn * geometry.frame[0];
    const btVector3 point = gapOf(turned).pointOnB;
    // Across a segment the patch has no end that way: the turned A touches it anywhere along it,
    // shifted across it by the turn (a capsule across a box held there would roll away).
    if ((point - witness).dot(tangents[d]) < near.same) continue;
    if (gap.normal.dot(point - gap.pointOnB) < -reach || near(point, witness, kept)) continue;
    const double pointToA = pointGap(geometry, 1, point);
    if (pointToA > reach - kContactTolerance) continue;
    corners.push_back({d, point, pointToA});
    kept.push_back(point);
  }
  return corners;
}

}  // namespace carom
