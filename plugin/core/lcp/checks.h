// Input validation shared by the LCP solvers: each check throws carom::Error naming the parameter.
#pragma once

#include <Eigen/Dense>

namespace carom::core::lcp {

// M square, q of matching size, both finite (M's entries read only where `readMatrix`: a caller
// that checked them already skips n² reads).
void checkProblem(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, bool readMatrix = true);

// lo and hi of size n, no NaN, lo_i ≤ hi_i, lo_i < +∞, hi_i > −∞. With requireFiniteLo, also
// lo_i > −∞ (the Lemke reduction of box_mlcp.h needs a finite lower bound).
void checkBounds(const Eigen::VectorXd& lo, const Eigen::VectorXd& hi, Eigen::Index n,
                 bool requireFiniteLo);

// A relative tolerance: finite and positive.
void checkTolerance(double tolerance, const char* name);

}  // namespace carom::core::lcp
