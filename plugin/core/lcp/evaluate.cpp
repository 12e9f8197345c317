#include "evaluate.h"

#include <cmath>
#include <sstream>

namespace carom::core::lcp {

void judgeAnswer(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                 const Eigen::Ref<const Eigen::VectorXd>& lo,
                 const Eigen::Ref<const Eigen::VectorXd>& hi, double residualTolerance, int steps,
                 LcpResult& result) {
  // Over z's nonzero entries: a pivoting method's answer has a third of them or fewer, and the
  // dense product of every step LCP was a twentieth of Lemke's time.
  const Eigen::VectorXd& z = result.z;
  result.w = q;
  for (Eigen::Index j = 0; j < z.size(); ++j) {
    if (z(j) != 0.0) result.w += M.col(j) * z(j);
  }
  result.residual = naturalResidual(z, result.w, lo, hi);
  result.residualBound = residualBoundFor(q, residualTolerance);
  result.steps = steps;
  result.status = LcpStatus::kSolved;
  result.message.clear();
  // `!(a <= b)` so that a NaN residual fails too.
  if (!z.allFinite() || !(result.residual <= result.residualBound)) {
    std::ostringstream message;
    message << "residual " << result.residual << " exceeds the bound " << result.residualBound;
    result.status = LcpStatus::kResidualCheckFailed;
    result.message = message.str();
  }
}

LcpResult evaluateAnswer(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                         const Eigen::Ref<const Eigen::VectorXd>& lo,
                         const Eigen::Ref<const Eigen::VectorXd>& hi, Eigen::VectorXd z,
                         double residualTolerance, int steps) {
  LcpResult result;
  result.z = std::move(z);
  judgeAnswer(M, q, lo, hi, residualTolerance, steps, result);
  return result;
}

void StandardBounds::grow(Eigen::Index n) {
  if (zeros.size() >= n) return;
  zeros = standardLower(n);
  infinities = standardUpper(n);
}

Eigen::VectorXd standardLower(Eigen::Index n) {
  return Eigen::VectorXd::Zero(n);
}

Eigen::VectorXd standardUpper(Eigen::Index n) {
  return Eigen::VectorXd::Constant(n, INFINITY);
}

}  // namespace carom::core::lcp
