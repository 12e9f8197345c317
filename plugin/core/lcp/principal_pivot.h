// A bounded principal-pivoting polish of an LCP answer that is nearly right: Murty's least-index
// method (Cottle, Pang & Stone 1992, §4.2) started from the answer's support instead of from z = 0.
// Lemke's last complementary basis can be off by a few indices on an ill-conditioned or
// degenerate problem, a basic w_i below zero where the solution has z_i > 0; a principal pivot on
// each such index puts it right.
#pragma once

#include <Eigen/Dense>
#include <string>

namespace carom::core::lcp {

struct PrincipalPivotResult {
  Eigen::VectorXd z;     // z_S solves M_SS z_S = −q_S on the last support S, zero off it
  int steps = 0;         // principal pivots taken (supports solved after the first)
  bool settled = false;  // no index violated its sign condition by more than the slack
  std::string message;   // why not settled: the step bound, or a singular block M_SS
};

// From the support {i : z_i > 0}, repeats: solve M_SS z_S = −q_S; w = M z + q; take the least
// index with z_i < −slack (i in S: it leaves) or w_i < −slack (i not in S: it enters) and flip it.
// Stops when no index violates by more than `slack` (unit of q), after `maxSteps` flips, or at a
// singular M_SS. For a P-matrix the least-index rule cannot cycle (ibid.); for any other M the
// step bound ends it.
PrincipalPivotResult principalPivot(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& z, int maxSteps, double slack);

}  // namespace carom::core::lcp
