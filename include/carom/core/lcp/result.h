// What every carom LCP solver returns: the answer, how good it is, and why it is not an answer
// when it is not one. Solvers never fall back silently (STYLE.md, "Fail loudly"): the caller reads
// `status` and decides.
//
// The problem, for all solvers: given M (n×n), q (n) and bounds lo ≤ hi, find z with
//   lo ≤ z ≤ hi,   w = M z + q,
//   z_i = lo_i ⇒ w_i ≥ 0,   lo_i < z_i < hi_i ⇒ w_i = 0,   z_i = hi_i ⇒ w_i ≤ 0.
// The standard LCP (0 ≤ z ⊥ w ≥ 0) is the case lo = 0, hi = +∞.
#pragma once

#include <Eigen/Dense>
#include <string>

namespace carom::core::lcp {

enum class LcpStatus {
  kSolved,               ///< residual within the bound
  kRayTermination,       ///< Lemke left on a secondary ray: no solution found (see lemke.h)
  kPivotLimit,           ///< Lemke used its pivot budget first
  kIterationLimit,       ///< PGS used its sweep budget before the residual met the tolerance
  kResidualCheckFailed,  ///< the method finished but the answer's residual exceeds the bound
};
const char* toString(LcpStatus status);

struct LcpResult {
  LcpStatus status = LcpStatus::kSolved;
  Eigen::VectorXd z;  ///< the solution when solved; otherwise the last iterate, for diagnosis only
  Eigen::VectorXd w;  ///< M z + q, recomputed from z (not read off a tableau)
  ///< max_i |z_i − mid(lo_i, z_i − w_i, hi_i)|: the natural-map residual, zero exactly at a
  ///< solution. For the standard LCP it is max_i |min(z_i, w_i)|. Unit: that of q (when z and w
  ///< share it).
  double residual = 0.0;
  double residualBound = 0.0;  ///< what `residual` was checked against (see residualBoundFor)
  int steps = 0;        ///< pivots (Lemke, its polish's principal pivots included) or sweeps (PGS)
  std::string message;  ///< why the status is not kSolved; empty when solved

  bool solved() const { return status == LcpStatus::kSolved; }
};

/// The natural-map residual of `z` for the box problem above (see LcpResult::residual).
double naturalResidual(const Eigen::Ref<const Eigen::VectorXd>& z,
                       const Eigen::Ref<const Eigen::VectorXd>& w,
                       const Eigen::Ref<const Eigen::VectorXd>& lo,
                       const Eigen::Ref<const Eigen::VectorXd>& hi);

/// The bound a residual is checked against: tolerance · max(1, ‖q‖∞). Relative to q because a
/// residual is a (signed) distance in w, whose scale q sets; the 1 keeps q = 0 meaningful.
double residualBoundFor(const Eigen::VectorXd& q, double tolerance);

}  // namespace carom::core::lcp
