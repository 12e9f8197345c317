#include "carom/core/sdf.h"

#include <Eigen/LU>
#include <cmath>
#include <string>

#include "carom/error.h"

namespace carom::core {
namespace {

// Gap sample for a contact at body point ρ (m): Φ = n·(x + Rρ) − offset, ∂Φ/∂x = n and, by the
// envelope theorem (ρ is a minimiser, so its motion does not change Φ to first order),
// χ = ρ × Rᵀn (Tran & Leok (6.10) with ∂ρ_C/∂R dropped; see digest §3.6).
GapSample sampleAt(const Plane& plane, const Vec3& x, const Mat3& R, const Vec3& rho) {
  const Vec3 u = R.transpose() * plane.normal();
  return {plane.normal().dot(x) + u.dot(rho) - plane.offset(), plane.normal(), rho.cross(u), rho};
}

// Golden-section search for the maximiser of a concave function on [0, 1]. 80 iterations shrink
// the bracket by 0.618⁸⁰ ≈ 2e-17, below the resolution of a double near 1, so the count is fixed.
template <class Function>
double argmaxConcaveOnUnitInterval(const Function& f) {
  constexpr double kInverseGolden = 0.6180339887498949;
  double lo = 0.0, hi = 1.0;
  double a = hi - kInverseGolden * (hi - lo), b = lo + kInverseGolden * (hi - lo);
  double fa = f(a), fb = f(b);
  for (int i = 0; i < 80; ++i) {
    if (fa < fb) {
      lo = a;
      a = b;
      fa = fb;
      b = lo + kInverseGolden * (hi - lo);
      fb = f(b);
    } else {
      hi = b;
      b = a;
      fb = fa;
      a = hi - kInverseGolden * (hi - lo);
      fa = f(a);
    }
  }
  // The maximiser may be an end point (the support point of one ellipsoid lies inside the other).
  double best = 0.5 * (lo + hi);
  for (double candidate : {0.0, 1.0}) {
    if (f(candidate) > f(best)) best = candidate;
  }
  return best;
}

// The ellipsoid E_t = {ρ : t q₁(ρ) + (1−t) q₂(ρ) ≤ 1}, qᵢ(ρ) = (ρ − cᵢ)ᵀAᵢ(ρ − cᵢ), Aᵢ =
// diag(aᵢ⁻²), written as {(ρ − c)ᵀA(ρ − c) ≤ r²}.
struct BlendedEllipsoid {
  Vec3 diagonal;  // A (diagonal, since both ellipsoids are axis-aligned in the body frame)
  Vec3 center;    // c
  double radiusSquared;

  BlendedEllipsoid(const Ellipsoid& e1, const Ellipsoid& e2, double t) {
    const Vec3 a1 = e1.semiAxes().cwiseAbs2().cwiseInverse();
    const Vec3 a2 = e2.semiAxes().cwiseAbs2().cwiseInverse();
    diagonal = t * a1 + (1.0 - t) * a2;
    const Vec3 b = t * a1.cwiseProduct(e1.center()) + (1.0 - t) * a2.cwiseProduct(e2.center());
    center = b.cwiseQuotient(diagonal);
    const double k = t * e1.center().dot(a1.cwiseProduct(e1.center())) +
                     (1.0 - t) * e2.center().dot(a2.cwiseProduct(e2.center()));
    radiusSquared = 1.0 - k + b.dot(center);
  }

  // The point of E_t with the smallest u·ρ.
  Vec3 lowestPoint(const Vec3& u) const {
    const Vec3 inverseA_u = u.cwiseQuotient(diagonal);
    return center - std::sqrt(std::max(radiusSquared, 0.0) / u.dot(inverseA_u)) * inverseA_u;
  }
};

}  // namespace

Plane::Plane(const Vec3& normal, double offset) : normal_(normal), offset_(offset) {
  if (!normal.allFinite()) throw Error("plane normal is not finite");
  if (std::abs(normal.norm() - 1.0) > 1e-9) {
    throw Error("plane normal must have unit length, got length " + std::to_string(normal.norm()));
  }
  if (!std::isfinite(offset)) throw Error("plane offset is not finite");
  normal_.normalize();
}

Ellipsoid::Ellipsoid(const Vec3& semiAxes, const Vec3& center)
    : semiAxes_(semiAxes), center_(center) {
  if (!semiAxes.allFinite() || !(semiAxes.minCoeff() > 0.0)) {
    throw Error("ellipsoid semi-axes must be finite and positive");
  }
  if (!center.allFinite()) throw Error("ellipsoid centre is not finite");
}

GapSample Ellipsoid::gap(const Plane& plane, const Vec3& x, const Mat3& R) const {
  const Vec3 u = R.transpose() * plane.normal();
  const Vec3 scaled = semiAxes_.cwiseProduct(u);                              // I_E Rᵀn
  const Vec3 rho = center_ - semiAxes_.cwiseProduct(scaled) / scaled.norm();  // (A.5)
  return sampleAt(plane, x, R, rho);
}

EllipsoidUnion::EllipsoidUnion(std::vector<Ellipsoid> members) : members_(std::move(members)) {
  if (members_.empty()) throw Error("ellipsoid union needs at least one ellipsoid");
}

GapSample EllipsoidUnion::gap(const Plane& plane, const Vec3& x, const Mat3& R) const {
  GapSample lowest = members_.front().gap(plane, x, R);
  for (std::size_t i = 1; i < members_.size(); ++i) {
    const GapSample candidate = members_[i].gap(plane, x, R);
    if (candidate.phi < lowest.phi) lowest = candidate;
  }
  return lowest;
}

EllipsoidIntersection::EllipsoidIntersection(const Ellipsoid& first, const Ellipsoid& second)
    : first_(first), second_(second) {
  // r_t² is convex in t and its minimum is 1 − min_ρ max(q₁, q₂): positive exactly when some point
  // is strictly inside both ellipsoids.
  const auto negativeRadiusSquared = [&](double t) {
    return -BlendedEllipsoid(first_, second_, t).radiusSquared;
  };
  const double t = argmaxConcaveOnUnitInterval(negativeRadiusSquared);
  if (!(BlendedEllipsoid(first_, second_, t).radiusSquared > 1e-12)) {
    throw Error("ellipsoid intersection is empty: the two ellipsoids share no interior point");
  }
}

GapSample EllipsoidIntersection::gap(const Plane& plane, const Vec3& x, const Mat3& R) const {
  const Vec3 u = R.transpose() * plane.normal();
  const auto lowestHeight = [&](double t) {
    return u.dot(BlendedEllipsoid(first_, second_, t).lowestPoint(u));
  };
  const double t = argmaxConcaveOnUnitInterval(lowestHeight);
  return sampleAt(plane, x, R, BlendedEllipsoid(first_, second_, t).lowestPoint(u));
}

RoundedPolytope::RoundedPolytope(std::vector<Vec3> vertices, double epsilon)
    : vertices_(std::move(vertices)), epsilon_(epsilon) {
  if (vertices_.size() < 4) throw Error("rounded polytope needs at least 4 vertices");
  Eigen::Matrix<double, 3, Eigen::Dynamic> spread(3, vertices_.size());
  for (std::size_t i = 0; i < vertices_.size(); ++i) {
    if (!vertices_[i].allFinite()) throw Error("rounded polytope vertex is not finite");
    spread.col(static_cast<Eigen::Index>(i)) = vertices_[i] - vertices_.front();
  }
  Eigen::FullPivLU<Eigen::Matrix<double, 3, Eigen::Dynamic>> lu(spread);
  lu.setThreshold(1e-12);
  if (lu.rank() < 3) throw Error("rounded polytope vertices do not span three dimensions");
  if (!std::isfinite(epsilon) || epsilon < 0.0) {
    throw Error("rounded polytope epsilon must be finite and non-negative");
  }
}

RoundedPolytope RoundedPolytope::cube(double side, double epsilon) {
  if (!std::isfinite(side) || !(side > 0.0)) throw Error("cube side must be finite and positive");
  const double half = 0.5 * side;
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back((i & 1) ? half : -half, (i & 2) ? half : -half, (i & 4) ? half : -half);
  }
  return RoundedPolytope(std::move(corners), epsilon);
}

GapSample RoundedPolytope::gap(const Plane& plane, const Vec3& x, const Mat3& R) const {
  const Vec3 u = R.transpose() * plane.normal();
  std::size_t lowest = 0;
  double lowestHeight = u.dot(vertices_[0]);
  for (std::size_t i = 1; i < vertices_.size(); ++i) {
    const double height = u.dot(vertices_[i]);
    if (height < lowestHeight) {
      lowest = i;
      lowestHeight = height;
    }
  }
  // (6.12): the closest point of the rounded body is the vertex pushed out by ε along −Rᵀn.
  return sampleAt(plane, x, R, vertices_[lowest] - epsilon_ * u);
}

}  // namespace carom::core
