// The analytic shadow of one planar contact: Routh's single-contact impact (36) integrated exactly.
// With one contact the velocity is linear in the normal impulse s within each slip mode, so the
// impact is a few straight pieces (slide → stick, slide → reverse slide, or one mode throughout).
// Written from the model, not from the code under test.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>

namespace carom::test::routh {

struct RouthShadow {
  Eigen::VectorXd v;         // v⁺
  bool modeChanged = false;  // the contact changed slip mode during the impact
};

// M: mass matrix, jn, jt: the contact's normal and tangent rows, mu: friction, v: v⁻ with
// jn·v < 0. Assumes [jt; jn] has full rank (then the stick phase's normal acceleration is > 0).
inline RouthShadow exactRouth(const Eigen::MatrixXd& M, const Eigen::RowVectorXd& jn,
                              const Eigen::RowVectorXd& jt, double mu, const Eigen::VectorXd& v) {
  Eigen::MatrixXd J(2, v.size());
  J << jt, jn;
  const Eigen::MatrixXd MinvJT = M.llt().solve(J.transpose());
  const Eigen::Matrix2d W = J * MinvJT;  // contact-space inverse inertia, rows (t, n)
  Eigen::Vector2d u = J * v, P = Eigen::Vector2d::Zero();
  RouthShadow shadow;
  constexpr double kZero = 1e-14;
  for (int phase = 0; phase < 3 && u(1) < 0.0; ++phase) {
    double f;  // tangential impulse per unit normal impulse in this phase
    if (std::abs(u(0)) > kZero) {
      f = -mu * (u(0) > 0 ? 1.0 : -1.0);  // sliding: Coulomb opposes slip
    } else {
      const double stick = -W(0, 1) / W(0, 0);
      f = std::abs(stick) <= mu ? stick : -mu * (W(0, 1) > 0 ? 1.0 : -1.0);
    }
    const Eigen::Vector2d rate = W * Eigen::Vector2d(f, 1.0);
    const double toNormal = rate(1) > 0 ? -u(1) / rate(1) : std::numeric_limits<double>::infinity();
    const bool slipEnds = std::abs(u(0)) > kZero && u(0) * rate(0) < 0;
    const double toSlip = slipEnds ? -u(0) / rate(0) : std::numeric_limits<double>::infinity();
    const double ds = std::min(toNormal, toSlip);
    u += ds * rate;
    P += ds * Eigen::Vector2d(f, 1.0);
    if (toSlip < toNormal) {
      u(0) = 0.0;
      shadow.modeChanged = true;
    }
  }
  shadow.v = v + MinvJT * P;
  return shadow;
}

}  // namespace carom::test::routh
