#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/scene.h"

namespace carom {
namespace {

// btCompoundShape holds its children by pointer; this one also owns them, so that a compound is
// one unique_ptr like every other scene shape.
class OwningCompoundShape : public btCompoundShape {
 public:
  explicit OwningCompoundShape(const std::vector<CompoundChild>& children) {
    for (const CompoundChild& child : children) {
      children_.push_back(makeShape(child.shape));
      addChildShape(btTransform(child.orientation, child.position), children_.back().get());
    }
  }

 private:
  std::vector<std::unique_ptr<btCollisionShape>> children_;
};

}  // namespace

std::unique_ptr<btCollisionShape> makeShape(const ShapeSpec& spec) {
  switch (spec.kind) {
    case ShapeKind::plane:
      return std::make_unique<btStaticPlaneShape>(spec.normal, spec.offset);
    case ShapeKind::sphere:
      return std::make_unique<btSphereShape>(spec.radius);
    case ShapeKind::box:
      return std::make_unique<btBoxShape>(spec.halfExtents);
    case ShapeKind::ellipsoid:
      return std::make_unique<EllipsoidShape>(spec.semiAxes);
    case ShapeKind::capsule:
      // Bullet's height is the length of the cylindrical part.
      return std::make_unique<btCapsuleShapeZ>(spec.radius, 2 * spec.halfHeight);
    case ShapeKind::cylinder:
      return std::make_unique<btCylinderShapeZ>(
          btVector3(spec.radius, spec.radius, spec.halfHeight));
    case ShapeKind::convexHull: {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const btVector3& point : spec.points)
        hull->addPoint(point, false);
      hull->recalcLocalAabb();
      return hull;
    }
    case ShapeKind::compound:
      return std::make_unique<OwningCompoundShape>(spec.children);
  }
  return nullptr;
}

}  // namespace carom
