// The one place an LCP answer is judged: every solver hands its z here, so "solved" means the same
// thing for Lemke, the box reduction and PGS.
#pragma once

#include <Eigen/Dense>

#include "carom/core/lcp/result.h"

namespace carom::core::lcp {

// Recomputes w = M z + q, the natural-map residual and its bound, and returns kSolved or
// kResidualCheckFailed (with the numbers in the message). `steps` is copied into the result.
LcpResult evaluateAnswer(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& lo, const Eigen::VectorXd& hi, Eigen::VectorXd z,
                         double residualTolerance, int steps);

// lo = 0 and hi = +∞ of size n: the bounds of the standard LCP.
Eigen::VectorXd standardLower(Eigen::Index n);
Eigen::VectorXd standardUpper(Eigen::Index n);

}  // namespace carom::core::lcp
