#include "principal_pivot.h"

#include <vector>

namespace carom::core::lcp {
namespace {

// z with z_S = M_SS⁻¹(−q_S) and zero elsewhere; false where M_SS is singular.
bool solveOnSupport(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                    const std::vector<char>& inSupport, Eigen::VectorXd& z) {
  std::vector<Eigen::Index> support;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    if (inSupport[static_cast<std::size_t>(i)]) support.push_back(i);
  }
  const Eigen::Index k = static_cast<Eigen::Index>(support.size());
  Eigen::MatrixXd block(k, k);
  Eigen::VectorXd rhs(k);
  for (Eigen::Index a = 0; a < k; ++a) {
    rhs(a) = -q(support[a]);
    for (Eigen::Index b = 0; b < k; ++b)
      block(a, b) = M(support[a], support[b]);
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(block);
  if (!lu.isInvertible()) return false;
  const Eigen::VectorXd zS = lu.solve(rhs);
  z.setZero(q.size());
  for (Eigen::Index a = 0; a < k; ++a)
    z(support[a]) = zS(a);
  return true;
}

}  // namespace

PrincipalPivotResult principalPivot(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& z, int maxSteps, double slack) {
  const Eigen::Index n = q.size();
  std::vector<char> inSupport(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i)
    inSupport[static_cast<std::size_t>(i)] = z(i) > 0.0;
  PrincipalPivotResult result;
  result.z = z;
  for (;; ++result.steps) {
    if (!solveOnSupport(M, q, inSupport, result.z)) {
      result.message = "singular principal block after " + std::to_string(result.steps) + " steps";
      return result;
    }
    const Eigen::VectorXd w = M * result.z + q;
    Eigen::Index violated = -1;
    for (Eigen::Index i = 0; i < n && violated < 0; ++i) {
      const double value = inSupport[static_cast<std::size_t>(i)] ? result.z(i) : w(i);
      if (value < -slack) violated = i;
    }
    if (violated < 0) {
      result.settled = true;
      return result;
    }
    if (result.steps >= maxSteps) {
      result.message = "step bound of " + std::to_string(maxSteps) + " reached";
      return result;
    }
    char& flag = inSupport[static_cast<std::size_t>(violated)];
    flag = !flag;
  }
}

}  // namespace carom::core::lcp
