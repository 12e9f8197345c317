// Projected Gauss–Seidel for the box MLCP (see result.h), warm-started: the solver for persistent
// contacts, whose impulses change little from one step to the next, so last step's z is a good
// start. Each sweep sets z_i ← mid(lo_i, z_i − w_i / M_ii, hi_i) in index order (Cottle, Pang &
// Stone 1992, ch. 5). It converges for symmetric positive definite M; for other M it may not, and
// then says so (kIterationLimit).
#pragma once

#include <Eigen/Dense>

#include "carom/core/lcp/result.h"

namespace carom::core::lcp {

struct PgsOptions {
  /// Sweep cap; reaching it before the tolerance is reported as kIterationLimit. Default 1000:
  /// PGS converges linearly at a rate set by the conditioning of M, and a warm start needs a few.
  int maxIterations = 1000;
  /// Stop when residual ≤ residualTolerance·max(1, ‖q‖∞) (relative, see residualBoundFor).
  /// Default 1e-9, the same bound as Lemke's so that the two answers are comparable.
  double residualTolerance = 1e-9;
};

/// Runs PGS from `warmStart` (size n; entries outside [lo, hi] are projected into it first, as the
/// first sweep would). lo may be −∞ and hi +∞ per entry. Throws carom::Error naming the parameter
/// on bad input: shapes, non-finite M, q or warm start, NaN bounds, lo > hi, a diagonal entry
/// of M that is not positive.
LcpResult solvePgs(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& lo,
                   const Eigen::VectorXd& hi, const Eigen::VectorXd& warmStart,
                   const PgsOptions& options = {});

}  // namespace carom::core::lcp
