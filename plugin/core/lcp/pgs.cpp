#include "carom/core/lcp/pgs.h"

#include <string>

#include "carom/error.h"
#include "checks.h"
#include "evaluate.h"

namespace carom::core::lcp {

LcpResult solvePgs(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& lo,
                   const Eigen::VectorXd& hi, const Eigen::VectorXd& warmStart,
                   const PgsOptions& options) {
  checkProblem(M, q);
  const Eigen::Index n = q.size();
  checkBounds(lo, hi, n, /*requireFiniteLo=*/false);
  checkTolerance(options.residualTolerance, "residualTolerance");
  if (options.maxIterations < 0) throw Error("PGS option maxIterations must be non-negative");
  if (warmStart.size() != n) {
    throw Error("PGS warm start has size " + std::to_string(warmStart.size()) + ", expected " +
                std::to_string(n));
  }
  if (!warmStart.allFinite()) throw Error("PGS warm start has a non-finite entry");
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!(M(i, i) > 0.0)) {
      throw Error("PGS needs a positive diagonal, but M(" + std::to_string(i) + "," +
                  std::to_string(i) + ") = " + std::to_string(M(i, i)));
    }
  }

  Eigen::VectorXd z = warmStart.cwiseMax(lo).cwiseMin(hi);
  LcpResult result = evaluateAnswer(M, q, lo, hi, z, options.residualTolerance, 0);
  for (int sweep = 1; sweep <= options.maxIterations && !result.solved(); ++sweep) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const double wi = M.row(i).dot(z) + q(i);
      z(i) = std::min(hi(i), std::max(lo(i), z(i) - wi / M(i, i)));
    }
    result = evaluateAnswer(M, q, lo, hi, z, options.residualTolerance, sweep);
  }
  if (!result.solved()) {
    result.status = LcpStatus::kIterationLimit;
    result.message = "PGS: " + std::to_string(options.maxIterations) +
                     " sweeps without convergence; " + result.message;
  }
  return result;
}

}  // namespace carom::core::lcp
