#include "carom/core/lcp/box_mlcp.h"

#include <cmath>
#include <vector>

#include "carom/error.h"
#include "checks.h"
#include "evaluate.h"

namespace carom::core::lcp {

LcpResult solveBoxLemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                        const LemkeOptions& options) {
  checkProblem(M, q);
  const Eigen::Index n = q.size();
  checkBounds(lo, hi, n, /*requireFiniteLo=*/true);
  if (options.coveringVector.size() != 0 && options.coveringVector.size() != n) {
    throw Error("Lemke covering vector has size " + std::to_string(options.coveringVector.size()) +
                ", expected " + std::to_string(n) + " (the box problem's size)");
  }

  std::vector<Eigen::Index> capped;  // the indices with a finite hi: P's columns
  for (Eigen::Index i = 0; i < n; ++i) {
    if (std::isfinite(hi(i))) capped.push_back(i);
  }
  const Eigen::Index k = static_cast<Eigen::Index>(capped.size());

  // The reduced LCP of box_mlcp.h in (x, v): [[M, P], [−Pᵀ, 0]] and [q + M lo; (hi − lo)_P].
  Eigen::MatrixXd reducedM = Eigen::MatrixXd::Zero(n + k, n + k);
  Eigen::VectorXd reducedQ(n + k);
  reducedM.topLeftCorner(n, n) = M;
  reducedQ.head(n) = q + M * lo;
  for (Eigen::Index j = 0; j < k; ++j) {
    reducedM(capped[j], n + j) = 1.0;
    reducedM(n + j, capped[j]) = -1.0;
    reducedQ(n + j) = hi(capped[j]) - lo(capped[j]);
  }

  LemkeOptions reducedOptions = options;
  if (options.coveringVector.size() == n) {
    reducedOptions.coveringVector.resize(n + k);
    reducedOptions.coveringVector.head(n) = options.coveringVector;
    for (Eigen::Index j = 0; j < k; ++j) {
      reducedOptions.coveringVector(n + j) = options.coveringVector(capped[j]);
    }
  }
  const LcpResult reduced = solveLemke(reducedM, reducedQ, reducedOptions);

  // Judge the box answer itself: z = lo + x, clipped to hi against round-off in x (a capped x_i
  // equals hi_i − lo_i up to the reduced LCP's own residual).
  const Eigen::VectorXd z = (lo + reduced.z.head(n)).cwiseMin(hi);
  LcpResult result = evaluateAnswer(M, q, lo, hi, z, options.residualTolerance, reduced.steps);
  if (!reduced.solved()) {
    result.status = reduced.status;
    result.message = "box reduction: " + reduced.message;
  }
  return result;
}

}  // namespace carom::core::lcp
