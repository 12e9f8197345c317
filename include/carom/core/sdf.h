// Analytic signed gaps between a body and a fixed plane, with the gradients the impact jump needs
// (Tran & Leok §3 and §6). Used to reproduce the paper and as exact references in tests; inside a
// Bullet world the gap comes from Bullet's narrowphase instead.
#pragma once

#include <vector>

#include "carom/core/types.h"

namespace carom::core {

/// The plane {p : n·p = offset} with unit normal n pointing into the admissible side.
class Plane {
 public:
  /// Throws carom::Error when the normal is not finite or not of unit length (to 1e-9), or the
  /// offset (m) is not finite. The normal is renormalised to round-off.
  Plane(const Vec3& normal, double offset = 0.0);
  const Vec3& normal() const { return normal_; }
  double offset() const { return offset_; }

 private:
  Vec3 normal_;
  double offset_;
};

/// The gap Φ(x, R) between a body at pose (x, R) and a plane, with its derivatives.
struct GapSample {
  double phi = 0.0;  ///< Φ (m): distance when separated, minus the depth when overlapping
  Vec3 dPhidx = Vec3::Zero();  ///< ∂Φ/∂x, world frame (the plane normal)
  ///< χ (m), body frame: S(χ) = Asym(Rᵀ ∂Φ/∂R) (4.15). For a contact at body point ρ_C it is
  ///< ρ_C × Rᵀn, the angular row of the contact Jacobian; the jump needs only dPhidx and χ.
  Vec3 chi = Vec3::Zero();
  Vec3 contactPoint = Vec3::Zero();  ///< ρ_C (m), body frame: the body point closest to the plane
};

/// A body shape whose gap to a plane has a closed form.
class Shape {
 public:
  virtual ~Shape() = default;
  virtual GapSample gap(const Plane& plane, const Vec3& x, const Mat3& R) const = 0;
};

/// Solid ellipsoid {ρ : Σ ((ρ − c)ᵢ / aᵢ)² ≤ 1}, axes along the body axes, centre c in the body
/// frame.
class Ellipsoid final : public Shape {
 public:
  /// Throws carom::Error for non-positive or non-finite semi-axes (m) or a non-finite centre (m).
  explicit Ellipsoid(const Vec3& semiAxes, const Vec3& center = Vec3::Zero());
  /// Tran & Leok (2.16)/(6.4): Φ = n·(x + Rc) − offset − ‖I_E Rᵀn‖, ρ_C = c − I_E²Rᵀn/‖I_E Rᵀn‖.
  GapSample gap(const Plane& plane, const Vec3& x, const Mat3& R) const override;
  const Vec3& semiAxes() const { return semiAxes_; }
  const Vec3& center() const { return center_; }

 private:
  Vec3 semiAxes_;
  Vec3 center_;
};

/// Union of ellipsoids: Φ = min Φᵢ with the gradient of the active one (Tran & Leok (6.15)–(6.16)).
/// Ties go to the first listed ellipsoid.
class EllipsoidUnion final : public Shape {
 public:
  /// Throws carom::Error when empty.
  explicit EllipsoidUnion(std::vector<Ellipsoid> members);
  GapSample gap(const Plane& plane, const Vec3& x, const Mat3& R) const override;

 private:
  std::vector<Ellipsoid> members_;
};

/// Intersection of two ellipsoids (a lens). The lowest point of E₁ ∩ E₂ is not max(Φ₁, Φ₂) — that
/// is the implicit function (6.17), not the gap — so it is computed exactly by Lagrangian duality:
/// E₁ ∩ E₂ ⊂ E_t = {t q₁ + (1−t) q₂ ≤ 1} for t ∈ [0, 1] (qᵢ the quadratic forms), and the lowest
/// point of the intersection is max over t of the lowest point of the ellipsoid E_t (strong
/// duality; the maximiser's support point lies in both). The concave 1-D maximisation is a bounded
/// golden-section search.
class EllipsoidIntersection final : public Shape {
 public:
  /// Throws carom::Error when the two ellipsoids have no common interior point.
  EllipsoidIntersection(const Ellipsoid& first, const Ellipsoid& second);
  GapSample gap(const Plane& plane, const Vec3& x, const Mat3& R) const override;

 private:
  Ellipsoid first_;
  Ellipsoid second_;
};

/// ε-rounded convex polytope: the convex hull of `vertices` grown by ε (Tran & Leok (6.11)–(6.14)).
/// Contact is at the lowest vertex, with normal equal to the plane normal; Φ is offset by ε.
class RoundedPolytope final : public Shape {
 public:
  /// Throws carom::Error for fewer than 4 vertices, vertices that do not span 3-D, a non-finite
  /// vertex, or ε (m) negative or non-finite.
  RoundedPolytope(std::vector<Vec3> vertices, double epsilon);
  /// The cube of side `side` (m) centred at the body origin, as in Tran & Leok Case IV.
  static RoundedPolytope cube(double side, double epsilon);
  GapSample gap(const Plane& plane, const Vec3& x, const Mat3& R) const override;

 private:
  std::vector<Vec3> vertices_;
  double epsilon_;
};

}  // namespace carom::core
