#include "carom/core/lie.h"

#include <cmath>

#include "carom/error.h"

namespace carom::core {
namespace {

// sin(x)/x, exact to round-off at and near 0.
double sinc(double x) {
  return std::abs(x) < 1e-8 ? 1.0 - x * x / 6.0 : std::sin(x) / x;
}

}  // namespace

Vec3 vee(const Mat3& omega) {
  return Vec3(omega(2, 1), omega(0, 2), omega(1, 0));
}

Mat3 asym(const Mat3& a) {
  return a - a.transpose();
}

Mat3 cayley(const Vec3& f) {
  const Mat3 s = hat(f);
  return Mat3::Identity() + (2.0 / (1.0 + f.squaredNorm())) * (s + s * s);
}

Vec3 cayleyInverse(const Mat3& rotation) {
  const double denominator = 1.0 + rotation.trace();
  if (!(denominator > 1e-12)) {
    throw Error("cayleyInverse: rotation by pi has no Cayley coordinates (1 + tr F = " +
                std::to_string(denominator) + ")");
  }
  return vee(rotation - rotation.transpose()) / denominator;
}

Mat3 expSO3(const Vec3& w) {
  const double theta = w.norm();
  const Mat3 s = hat(w);
  // (1 − cos θ)/θ² written as ½ sinc²(θ/2): no cancellation for small θ.
  const double halfSinc = sinc(0.5 * theta);
  return Mat3::Identity() + sinc(theta) * s + (0.5 * halfSinc * halfSinc) * (s * s);
}

Vec3 logSO3(const Mat3& rotation) {
  const Vec3 twiceSinAxis = vee(rotation - rotation.transpose());  // 2 sin θ u
  const double cosTheta = 0.5 * (rotation.trace() - 1.0);
  const double theta = std::atan2(0.5 * twiceSinAxis.norm(), cosTheta);
  if (cosTheta > -0.9) {
    // sin θ is well conditioned here: w = θ/(2 sin θ) · vee(R − Rᵀ).
    return (0.5 / sinc(theta)) * twiceSinAxis;
  }
  // Near θ = π the skew part vanishes; read the axis from the symmetric part,
  // (R + Rᵀ)/2 − cos θ I = (1 − cos θ) u uᵀ, using its largest column.
  const Mat3 uuT =
      (0.5 * (rotation + rotation.transpose()) - cosTheta * Mat3::Identity()) / (1.0 - cosTheta);
  Eigen::Index k = 0;
  uuT.diagonal().maxCoeff(&k);
  Vec3 axis = uuT.col(k) / std::sqrt(uuT(k, k));
  if (axis.dot(twiceSinAxis) < 0.0) axis = -axis;  // sin θ ≥ 0 fixes the sign
  return theta * axis;
}

double orthogonalityError(const Mat3& rotation) {
  return (rotation.transpose() * rotation - Mat3::Identity()).cwiseAbs().maxCoeff();
}

}  // namespace carom::core
