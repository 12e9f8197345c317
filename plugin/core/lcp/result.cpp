#include "carom/core/lcp/result.h"

namespace carom::core::lcp {

const char* toString(LcpStatus status) {
  switch (status) {
    case LcpStatus::kSolved:
      return "solved";
    case LcpStatus::kRayTermination:
      return "ray termination";
    case LcpStatus::kPivotLimit:
      return "pivot limit";
    case LcpStatus::kIterationLimit:
      return "iteration limit";
    case LcpStatus::kResidualCheckFailed:
      return "residual check failed";
  }
  return "unknown";
}

double naturalResidual(const Eigen::Ref<const Eigen::VectorXd>& z,
                       const Eigen::Ref<const Eigen::VectorXd>& w,
                       const Eigen::Ref<const Eigen::VectorXd>& lo,
                       const Eigen::Ref<const Eigen::VectorXd>& hi) {
  if (z.size() == 0) return 0.0;
  // One expression, evaluated without a temporary: every step LCP's answer is checked here.
  return (z.array() - (z - w).array().max(lo.array()).min(hi.array())).abs().maxCoeff();
}

double residualBoundFor(const Eigen::VectorXd& q, double tolerance) {
  const double scale = q.size() == 0 ? 1.0 : std::max(1.0, q.lpNorm<Eigen::Infinity>());
  return tolerance * scale;
}

}  // namespace carom::core::lcp
