#include "carom/bullet/ellipsoid_shape.h"

#include <BulletCollision/CollisionShapes/btCollisionMargin.h>

#include <cmath>
#include <string>

#include "carom/error.h"

namespace carom {
namespace {

std::string describe(const btVector3& v) {
  return "(" + std::to_string(v.x()) + ", " + std::to_string(v.y()) + ", " + std::to_string(v.z()) +
         ")";
}

// min aᵢ² / max aᵢ: the smallest radius of curvature of the ellipsoid's surface (at the ends of
// its longest axis, across its shortest one).
btScalar smallestCurvatureRadius(const btVector3& semiAxes) {
  const btScalar smallest = semiAxes[semiAxes.minAxis()];
  return smallest * smallest / semiAxes[semiAxes.maxAxis()];
}

// The ellipsoid's support point in direction d: diag(a)² d / ‖diag(a) d‖, where its outward normal
// is d. Zero for a zero direction (the centre, a point of every inner parallel body).
btVector3 ellipsoidSupport(const btVector3& semiAxes, const btVector3& d) {
  const btVector3 scaled = semiAxes * d;
  const btScalar length = scaled.length();
  if (length == btScalar(0)) return btVector3(0, 0, 0);
  return semiAxes * scaled / length;
}

}  // namespace

EllipsoidShape::EllipsoidShape(const btVector3& semiAxes) {
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(semiAxes[i]) || !(semiAxes[i] > 0)) {
      throw Error("EllipsoidShape: semi-axes must be finite and positive, got " +
                  describe(semiAxes));
    }
  }
  m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
  m_implicitShapeDimensions = semiAxes;
  m_collisionMargin = btMin(CONVEX_DISTANCE_MARGIN, smallestCurvatureRadius(semiAxes));
}

btScalar EllipsoidShape::getMaximumExactMargin() const {
  return smallestCurvatureRadius(getSemiAxes());
}

btVector3 EllipsoidShape::localGetSupportingVertexWithoutMargin(const btVector3& vec) const {
  const btScalar length = vec.length();
  if (length == btScalar(0)) return btVector3(0, 0, 0);
  // The support point of K: the ellipsoid's, moved inward along its normal there by the margin.
  return ellipsoidSupport(getSemiAxes(), vec) - vec * (getMargin() / length);
}

void EllipsoidShape::batchedUnitVectorGetSupportingVertexWithoutMargin(
    const btVector3* vectors, btVector3* supportVerticesOut, int numVectors) const {
  for (int i = 0; i < numVectors; ++i) {
    supportVerticesOut[i] = localGetSupportingVertexWithoutMargin(vectors[i]);
  }
}

void EllipsoidShape::calculateLocalInertia(btScalar mass, btVector3& inertia) const {
  const btVector3 a2 = getSemiAxes() * getSemiAxes();
  inertia = btVector3(a2.y() + a2.z(), a2.x() + a2.z(), a2.x() + a2.y()) * (mass / btScalar(5));
}

void EllipsoidShape::getAabb(const btTransform& t, btVector3& aabbMin, btVector3& aabbMax) const {
  const btMatrix3x3& R = t.getBasis();
  const btVector3 a = getSemiAxes();
  btVector3 halfExtents;
  for (int i = 0; i < 3; ++i)
    halfExtents[i] = (R[i] * a).length();
  aabbMin = t.getOrigin() - halfExtents;
  aabbMax = t.getOrigin() + halfExtents;
}

void EllipsoidShape::setMargin(btScalar margin) {
  const btScalar bound = getMaximumExactMargin();
  if (!std::isfinite(margin) || margin < 0 || margin > bound) {
    throw Error("EllipsoidShape: margin must lie in [0, " + std::to_string(bound) +
                "] m (the smallest radius of curvature), got " + std::to_string(margin));
  }
  m_collisionMargin = margin;
}

void EllipsoidShape::setLocalScaling(const btVector3& scaling) {
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(scaling[i]) || scaling[i] == 0) {
      throw Error("EllipsoidShape: local scaling must be finite and non-zero, got " +
                  describe(scaling));
    }
  }
  const btScalar bound = smallestCurvatureRadius(m_implicitShapeDimensions * scaling.absolute());
  if (getMargin() > bound) {
    throw Error("EllipsoidShape: local scaling " + describe(scaling) + " would put the margin " +
                std::to_string(getMargin()) + " m above the smallest radius of curvature " +
                std::to_string(bound) + " m; lower the margin first");
  }
  btConvexInternalShape::setLocalScaling(scaling);
}

}  // namespace carom
