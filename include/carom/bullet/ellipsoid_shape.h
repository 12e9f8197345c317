// carom::EllipsoidShape: the solid ellipsoid as a Bullet convex shape, so the ellipsoids of Tran &
// Leok's Cases I–III collide inside a Bullet world through GJK/EPA like any built-in shape.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btConvexInternalShape.h>

namespace carom {

/// The solid ellipsoid {ρ : Σ (ρᵢ / aᵢ)² ≤ 1} with semi-axes a = (a₀, a₁, a₂) (m) along the local
/// axes, centred at the local origin.
///
/// Margin: the semi-axes are the full extents, margin included, as for btSphereShape and
/// btBoxShape. GJK sees the inner parallel body K = {ρ : dist(ρ, outside of E) ≥ margin} grown by
/// a sphere of radius `margin`, and K ⊕ margin·ball is exactly the ellipsoid, because a ball of
/// radius r rolls freely inside an ellipsoid when r is at most its smallest radius of curvature,
/// min aᵢ² / max aᵢ. Its support point is that of the ellipsoid moved inward by the margin along
/// the direction (the ellipsoid's normal there). So the margin changes how GJK and EPA split the
/// work, never the shape; a margin above the curvature bound would round the shape and is refused.
///
/// Local scaling multiplies the semi-axes (the scaled shape is again an ellipsoid).
ATTRIBUTE_ALIGNED16(class) EllipsoidShape : public btConvexInternalShape {
 public:
  BT_DECLARE_ALIGNED_ALLOCATOR();

  /// Throws carom::Error when a semi-axis is not finite and positive. The margin starts at Bullet's
  /// CONVEX_DISTANCE_MARGIN (0.04 m) or at the curvature bound, whichever is smaller.
  explicit EllipsoidShape(const btVector3& semiAxes);

  /// The semi-axes after local scaling (m).
  btVector3 getSemiAxes() const {
    return m_implicitShapeDimensions * m_localScaling;
  }
  /// The largest margin that leaves the shape exact: min aᵢ² / max aᵢ (m), after local scaling.
  btScalar getMaximumExactMargin() const;

  btVector3 localGetSupportingVertexWithoutMargin(const btVector3& vec) const override;
  void batchedUnitVectorGetSupportingVertexWithoutMargin(
      const btVector3* vectors, btVector3* supportVerticesOut, int numVectors) const override;
  /// Uniform solid ellipsoid: I = m/5 diag(a₁² + a₂², a₀² + a₂², a₀² + a₁²).
  void calculateLocalInertia(btScalar mass, btVector3 & inertia) const override;
  /// The exact box of the rotated ellipsoid: half extent along world axis i is ‖(R diag(a))ᵢ‖.
  void getAabb(const btTransform& t, btVector3& aabbMin, btVector3& aabbMax) const override;
  const char* getName() const override {
    return "Ellipsoid";
  }

  /// Throws carom::Error, leaving the shape unchanged, for a margin (m) that is negative, not
  /// finite, or above getMaximumExactMargin().
  void setMargin(btScalar margin) override;
  /// Throws carom::Error, leaving the shape unchanged, for a non-finite or zero scaling component,
  /// or one that would push the current margin above the curvature bound. Negative components act
  /// as their absolute value, as in every Bullet shape.
  void setLocalScaling(const btVector3& scaling) override;
};

}  // namespace carom
