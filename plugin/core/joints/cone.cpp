#include "carom/core/joints/cone.h"

#include <algorithm>
#include <cmath>

namespace carom::core::joints {

SwingGap swingGap(const Vec3& c, double span1, double span2) {
  const double rho = std::hypot(c.y(), c.z());
  const double theta = std::atan2(rho, c.x());
  // On the axis the cone's direction is undefined; any span bounds r, so g > 0 there.
  constexpr double kOnAxis = 1e-12;  // of ρ, dimensionless
  if (rho < kOnAxis) return {std::min(span1, span2) - theta, Vec3::Zero()};
  const double q = std::sqrt(c.y() * c.y() / (span1 * span1) + c.z() * c.z() / (span2 * span2));
  const double r = rho / q;
  const double n2 = rho * rho + c.x() * c.x();
  // ∂θ: θ = atan2(ρ, c_x), ∂ρ/∂c_y = c_y/ρ.
  const Vec3 dTheta(-rho / n2, c.x() * c.y() / (rho * n2), c.x() * c.z() / (rho * n2));
  // ∂r: r = ρ/q, ∂q/∂c_y = c_y/(span1² q); r depends on (c_y, c_z) through their direction only.
  const double q3 = q * q * q;
  const Vec3 dR(0, c.y() / (rho * q) - rho * c.y() / (span1 * span1 * q3),
                c.z() / (rho * q) - rho * c.z() / (span2 * span2 * q3));
  return {r - theta, dR - dTheta};
}

Twist twistOf(const Mat3& axesA, const Mat3& axesB) {
  const Vec3 xA = axesA.col(0), yA = axesA.col(1), xB = axesB.col(0);
  const double c = xA.dot(xB);
  const Vec3 v = xA.cross(xB);
  // Rodrigues' shortest arc S (S x_A = x_B) applied to y_A.
  const Vec3 turned = c * yA + v.cross(yA) + v.dot(yA) / (1 + c) * v;
  return {std::atan2(turned.dot(axesB.col(2)), turned.dot(axesB.col(1))), (xA + xB) / (1 + c)};
}

}  // namespace carom::core::joints
