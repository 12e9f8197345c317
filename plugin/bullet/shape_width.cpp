#include "shape_width.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <limits>

namespace carom {

double smallestHalfWidth(const btCollisionShape& shape) {
  if (shape.getShapeType() == STATIC_PLANE_PROXYTYPE)
    return std::numeric_limits<double>::infinity();
  if (shape.isCompound()) {
    const auto& compound = static_cast<const btCompoundShape&>(shape);
    double smallest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < compound.getNumChildShapes(); ++i)
      smallest = std::min(smallest, smallestHalfWidth(*compound.getChildShape(i)));
    return smallest;
  }
  if (!shape.isConvex() || shape.getShapeType() == TRIANGLE_SHAPE_PROXYTYPE) return 0;
  // The two commonest shapes in closed form, as the directions below give them (asked for every
  // pair that closes fast, every step).
  if (shape.getShapeType() == SPHERE_SHAPE_PROXYTYPE)
    return static_cast<const btSphereShape&>(shape).getRadius();
  if (shape.getShapeType() == BOX_SHAPE_PROXYTYPE) {
    const btVector3 half = static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin();
    return std::min({half.x(), half.y(), half.z()});
  }
  const auto& convex = static_cast<const btConvexShape&>(shape);
  double smallest = std::numeric_limits<double>::infinity();
  for (int x = -1; x <= 1; ++x) {
    for (int y = -1; y <= 1; ++y) {
      for (int z = 0; z <= 1; ++z) {
        // One of each opposite pair: z > 0, or z = 0 and (y > 0, or y = 0 and x > 0).
        if (z == 0 && (y < 0 || (y == 0 && x <= 0))) continue;
        const btVector3 d = btVector3(x, y, z).normalized();
        const double width =
            d.dot(convex.localGetSupportingVertex(d)) - d.dot(convex.localGetSupportingVertex(-d));
        smallest = std::min(smallest, 0.5 * width);
      }
    }
  }
  return smallest;
}

}  // namespace carom
