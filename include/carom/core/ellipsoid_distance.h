// The signed distance from a point to a solid ellipsoid, with its closest surface point: the exact
// gap of a sphere (or a polyhedron's corner, a sphere of radius 0) against an ellipsoid, where GJK
// and EPA iterate on support points and stop at a tolerance.
#pragma once

#include "carom/core/types.h"

namespace carom::core {

struct EllipsoidDistance {
  double distance = 0.0;             ///< signed (m): > 0 outside, < 0 inside (minus the depth)
  Vec3 closestPoint = Vec3::Zero();  ///< on the surface (m), the ellipsoid's frame
  Vec3 normal = Vec3::UnitZ();       ///< unit outward surface normal there
  /// The root t below (m²); NaN for Eberly's special case, which has none. A nearby point's
  /// query started from it (the overload below) takes about two Newton steps in a pouring bin
  /// instead of five.
  double root = 0.0;
};

/// The solid ellipsoid {x : Σ (xᵢ / aᵢ)² ≤ 1} (semi-axes a, m) and a point y in its frame. The
/// closest surface point is x = (aᵢ² yᵢ / (aᵢ² + t))ᵢ, t the root of Σ (aᵢ yᵢ / (aᵢ² + t))² = 1
/// above −a_min² (Eberly, "Distance from a point to an ellipse, an ellipsoid, or a hyperellipsoid",
/// 2013), found by Newton's method from below, where the function is decreasing and convex so that
/// every iterate stays below the root. A point inside on the plane of the shortest axis, closer to
/// the centre than that equation has a root for, has its closest point off that plane (Eberly's
/// special case). Throws carom::Error for a semi-axis that is not finite and positive or a point
/// that is not finite.
EllipsoidDistance ellipsoidDistance(const Vec3& semiAxes, const Vec3& point);

/// The same, Newton's method started from `guess` (an earlier query's root, for a point nearby):
/// where the guess lies above the root, one Newton step from it lies below (the function is
/// convex), and the iterates rise from there. A guess at or below −a_min² (NaN included) is not
/// used. The same root to round-off, from any guess.
EllipsoidDistance ellipsoidDistance(const Vec3& semiAxes, const Vec3& point, double guess);

}  // namespace carom::core
