// The one place an LCP answer is judged: every solver hands its z here, so "solved" means the same
// thing for Lemke, the box reduction and PGS.
#pragma once

#include <Eigen/Dense>

#include "carom/core/lcp/result.h"

namespace carom::core::lcp {

// Judges the answer in result.z: recomputes result.w = M z + q (in its storage), the natural-map
// residual and its bound, and sets kSolved or kResidualCheckFailed (with the numbers in the
// message). `steps` is copied into the result.
void judgeAnswer(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                 const Eigen::Ref<const Eigen::VectorXd>& lo,
                 const Eigen::Ref<const Eigen::VectorXd>& hi, double residualTolerance, int steps,
                 LcpResult& result);

// The same for an answer z, in a result of its own.
LcpResult evaluateAnswer(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                         const Eigen::Ref<const Eigen::VectorXd>& lo,
                         const Eigen::Ref<const Eigen::VectorXd>& hi, Eigen::VectorXd z,
                         double residualTolerance, int steps);

// lo = 0 and hi = +∞: the bounds of the standard LCP, of any size up to what they were grown to,
// so that a solver kept per thread allocates them once.
struct StandardBounds {
  Eigen::VectorXd zeros, infinities;
  // To at least n entries.
  void grow(Eigen::Index n);
  Eigen::VectorXd::ConstSegmentReturnType lower(Eigen::Index n) const { return zeros.head(n); }
  Eigen::VectorXd::ConstSegmentReturnType upper(Eigen::Index n) const { return infinities.head(n); }
};

// lo = 0 and hi = +∞ of size n: the bounds of the standard LCP.
Eigen::VectorXd standardLower(Eigen::Index n);
Eigen::VectorXd standardUpper(Eigen::Index n);

}  // namespace carom::core::lcp
