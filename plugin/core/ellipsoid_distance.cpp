#include "carom/core/ellipsoid_distance.h"

#include <cmath>
#include <limits>
#include <string>

#include "carom/error.h"

namespace carom::core {
namespace {

// Newton's iterates rise monotonically to the root and stop when round-off leaves no rise: a few
// dozen at most for the bin's shapes (quadratic convergence from a start within a factor of the
// root). The cap only turns a failure of that argument into an error instead of a hang.
constexpr int kMaxNewtonIterations = 200;

}  // namespace

EllipsoidDistance ellipsoidDistance(const Vec3& semiAxes, const Vec3& point) {
  return ellipsoidDistance(semiAxes, point, std::numeric_limits<double>::quiet_NaN());
}

EllipsoidDistance ellipsoidDistance(const Vec3& semiAxes, const Vec3& point, double guess) {
  if (!semiAxes.allFinite() || !(semiAxes.minCoeff() > 0)) {
    throw Error("ellipsoidDistance: the semi-axes must be finite and positive");
  }
  if (!point.allFinite()) throw Error("ellipsoidDistance: the point is not finite");
  // The first octant (z = |y|), signs restored at the end; the root in the shifted unknown
  // u = t + a_k² with a_k the shortest semi-axis, so that the pole of its term sits at u = 0 and a
  // point near that axis keeps its precision (t itself is of the order of a_k²).
  const Vec3 a = semiAxes;
  const Vec3 z = point.cwiseAbs();
  Eigen::Index shortest = 0;
  a.minCoeff(&shortest);
  const Vec3 d =
      (a.cwiseProduct(a).array() - a(shortest) * a(shortest)).matrix();  // dᵢ = aᵢ² − a_k²
  // Each term aᵢzᵢ/(u + dᵢ) is at most 1 at the root, so u ≥ aᵢzᵢ − dᵢ: the largest such bound is
  // a start below the root (there F ≥ 0). Its term's pole guards a start above 0.
  double start = 0.0;
  bool offPlane = true;  // every shortest axis has z = 0: the root may not lie above u = 0
  for (int i = 0; i < 3; ++i) {
    start = std::max(start, a(i) * z(i) - d(i));
    if (d(i) == 0 && z(i) > 0) offPlane = false;
  }
  // F(u) = Σ qᵢ² − 1 with qᵢ = aᵢzᵢ/(u + dᵢ), and its slope F' = −2 Σ qᵢ²/(u + dᵢ).
  const auto F = [&](double u, double* slope) {
    double value = -1.0, rate = 0.0;
    for (int i = 0; i < 3; ++i) {
      if (z(i) == 0) continue;
      const double reciprocal = 1.0 / (u + d(i));  // one division per term: most of F's latency
      const double q = a(i) * z(i) * reciprocal;
      value += q * q;
      rate += q * q * reciprocal;
    }
    if (slope != nullptr) *slope = -2.0 * rate;
    return value;
  };

  EllipsoidDistance result;
  Vec3 x;
  if (offPlane && start == 0.0 && F(0.0, nullptr) < 0) {
    // Inside, on the plane of the shortest axis, within the region where F has no root above 0:
    // the closest points leave the plane, x_k = ±a_k √(1 − Σ (xᵢ/aᵢ)²) (Eberly's special case).
    double sum = 0.0;
    for (int i = 0; i < 3; ++i) {
      x(i) = d(i) > 0 ? a(i) * a(i) * z(i) / d(i) : 0.0;
      sum += (x(i) / a(i)) * (x(i) / a(i));
    }
    x(shortest) = a(shortest) * std::sqrt(std::max(0.0, 1.0 - sum));
    result.distance = -(x - z).norm();
    result.normal = x.cwiseQuotient(a.cwiseProduct(a)).normalized();
    result.root = std::numeric_limits<double>::quiet_NaN();
  } else {
    // From the guess, shifted as u: taken where F ≥ 0 there (below the root), else one Newton step
    // from it, which the convex F keeps below the root; either only above `start`.
    const double shifted = guess + a(shortest) * a(shortest);
    if (shifted > start) {
      double slope = 0.0;
      const double value = F(shifted, &slope);
      const double below = value >= 0 ? shifted : shifted - value / slope;
      if (below > start) start = below;
    }
    double u = start;
    int iteration = 0;
    for (; iteration < kMaxNewtonIterations; ++iteration) {
      double slope = 0.0;
      const double value = F(u, &slope);
      if (!(value > 0)) break;  // at the root, to round-off
      const double next = u - value / slope;
      if (!(next > u)) break;  // no rise left
      u = next;
    }
    if (iteration == kMaxNewtonIterations) {
      throw Error("ellipsoidDistance: Newton's method did not converge in " +
                  std::to_string(kMaxNewtonIterations) + " iterations");
    }
    // x − z = −t w with wᵢ = zᵢ/(u + dᵢ) and t = u − a_k²: the signed distance is t‖w‖, exact to
    // round-off of t near the surface, where ‖x − z‖ would lose it.
    Vec3 w = Vec3::Zero();
    for (int i = 0; i < 3; ++i)
      w(i) = z(i) == 0 ? 0.0 : z(i) / (u + d(i));
    x = a.cwiseProduct(a).cwiseProduct(w);
    result.root = u - a(shortest) * a(shortest);
    result.distance = result.root * w.norm();
    result.normal = w.normalized();
  }
  const Vec3 sign = point.unaryExpr([](double v) { return v < 0 ? -1.0 : 1.0; });
  result.closestPoint = x.cwiseProduct(sign);
  result.normal = result.normal.cwiseProduct(sign);
  return result;
}

}  // namespace carom::core
