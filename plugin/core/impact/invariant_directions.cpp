#include "carom/core/impact/invariant_directions.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace carom::core::impact {
namespace {

// Relative size below which a quartic coefficient counts as zero, and the angular distance below
// which two polished roots are the same direction (rad).
constexpr double kNegligibleCoefficient = 1e-13;
constexpr double kSameDirection = 1e-9;
constexpr int kNewtonIterations = 8;

Vec2 unit(double theta) {
  return Vec2(std::cos(theta), std::sin(theta));
}

// Newton's method on f(θ); the quartic's roots are already close, so a few iterations reach
// round-off. A step is refused when f' vanishes (a double root: keep the quartic's value).
double polish(const Hodograph& h, double theta) {
  for (int i = 0; i < kNewtonIterations; ++i) {
    const Vec2 s = unit(theta);
    const double slope = h.angularRateSlope(s);
    if (slope == 0.0) break;
    const double step = h.angularRate(s) / slope;
    theta -= step;
    if (std::abs(step) < 1e-15) break;
  }
  return std::remainder(theta, 2.0 * M_PI);
}

// Real roots of c[0] + c[1] η + ... + c[degree] η^degree (c[degree] ≠ 0), from the companion
// matrix.
int realRoots(const std::array<double, 5>& c, int degree, std::array<double, 4>& roots) {
  if (degree == 0) return 0;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4> companion =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4>::Zero(degree, degree);
  for (int i = 1; i < degree; ++i)
    companion(i, i - 1) = 1.0;
  for (int i = 0; i < degree; ++i)
    companion(i, degree - 1) = -c[i] / c[degree];
  const Eigen::EigenSolver<decltype(companion)> solver(companion, false);
  int count = 0;
  for (int i = 0; i < degree; ++i) {
    const std::complex<double> z = solver.eigenvalues()(i);
    // Keep near-real pairs too (a double root splits into a complex pair at round-off level);
    // Newton on f(θ) and de-duplication sort them out.
    if (std::abs(z.imag()) <= 1e-6 * (1.0 + std::abs(z))) roots[count++] = z.real();
  }
  return count;
}

}  // namespace

InvariantDirections invariantDirections(const Hodograph& h) {
  const double mu = h.mu;
  const double b11 = h.B(0, 0), b12 = h.B(0, 1), b22 = h.B(1, 1);
  const double dx = h.d.x(), dy = h.d.y();
  // (1 + η²)² f(θ) with ŝ = ((1−η²)/(1+η²), 2η/(1+η²)): digest §2.4, general coefficients.
  const std::array<double, 5> c = {-mu * b12 + dy, -2.0 * mu * (b22 - b11) - 2.0 * dx,
                                   6.0 * mu * b12, 2.0 * mu * (b22 - b11) - 2.0 * dx,
                                   -mu * b12 - dy};
  const double scale = mu * h.B.norm() + h.d.norm();
  InvariantDirections result;
  const auto negligible = [&](double x) { return std::abs(x) <= kNegligibleCoefficient * scale; };
  if (std::all_of(c.begin(), c.end(), negligible)) {
    result.everyDirection = true;  // Theorem 5(i)
    return result;
  }

  std::array<double, 5> thetas{};
  int candidates = 0;
  if (negligible(c[4])) thetas[candidates++] = M_PI;  // f(π) = −μb₁₂ − d_y = c₄
  int degree = 4;
  while (degree > 0 && negligible(c[degree]))
    --degree;
  std::array<double, 4> etas{};
  const int realCount = realRoots(c, degree, etas);
  for (int i = 0; i < realCount; ++i)
    thetas[candidates++] = 2.0 * std::atan(etas[i]);

  for (int i = 0; i < candidates; ++i) {
    const double theta = polish(h, thetas[i]);
    const Vec2 s = unit(theta);
    if (std::abs(h.angularRate(s)) > 1e-9 * scale) continue;  // a spurious near-real pair
    const bool duplicate =
        std::any_of(result.directions.begin(), result.directions.begin() + result.count,
                    [&](const InvariantDirection& known) {
                      return (known.direction - s).norm() < kSameDirection;
                    });
    if (duplicate || result.count == 4) continue;
    result.directions[result.count++] = {s, h.radialRate(s), h.angularRateSlope(s) < 0.0};
  }
  std::sort(result.directions.begin(), result.directions.begin() + result.count,
            [](const InvariantDirection& a, const InvariantDirection& b) {
              return std::atan2(a.direction.y(), a.direction.x()) <
                     std::atan2(b.direction.y(), b.direction.x());
            });
  return result;
}

}  // namespace carom::core::impact
