#include "vertex_contacts.h"

#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <cmath>

#include "variational_step.h"

namespace carom {

Gap gapOf(const PairGeometry& geometry) {
  return gap(*geometry.shape[0], geometry.frame[0], *geometry.shape[1], geometry.frame[1]);
}

const btPolyhedralConvexShape* polyhedronOf(const btCollisionShape* shape) {
  return dynamic_cast<const btPolyhedralConvexShape*>(shape);
}

btVector3 vertexAt(const btPolyhedralConvexShape& polyhedron, const btTransform& frame,
                   int vertex) {
  btVector3 local;
  polyhedron.getVertex(vertex, local);
  return frame * local;
}

double vertexGap(const PairGeometry& geometry, int side, int vertex) {
  const btCollisionShape& other = *geometry.shape[1 - side];
  const double rounding =
      polyhedronOf(&other) != nullptr ? (std::sqrt(3.0) - 1) * other.getMargin() : 0.0;
  static const btSphereShape point(0);
  const btVector3 at = vertexAt(*polyhedronOf(geometry.shape[side]), geometry.frame[side], vertex);
  return gap(point, btTransform(btMatrix3x3::getIdentity(), at), other, geometry.frame[1 - side])
             .distance -
         rounding - kContactTolerance;
}

}  // namespace carom
