// Lemke's complementary pivoting method for the standard LCP 0 ≤ z ⊥ M z + q ≥ 0
// (Cottle, Pang & Stone 1992, ch. 4), with the lexicographic minimum-ratio rule so that degenerate
// problems (ties in the ratio test: zeros in q, repeated columns) cannot cycle (ibid.).
//
// Guarantees (Cottle, Pang & Stone, ch. 4): for a P-matrix M it always solves; for a
// copositive-plus M (PSD included) it solves whenever the LCP is feasible, and a secondary ray
// proves infeasibility. Halm & Posa's step matrix W_q is copositive but not copositive-plus
// (digest §4.4), so for it a ray means "no solution found", not "none exists".
//
// Solver bias (digest §8, §9.3): when the LCP has several solutions, Lemke with a fixed covering
// vector returns the same one every time and collapses a sampled impact set. A seeded random
// covering vector (randomCoveringVector) removes that bias.
#pragma once

#include <Eigen/Dense>
#include <cstdint>

#include "carom/core/lcp/result.h"

namespace carom::core::lcp {

struct LemkeOptions {
  /// Covering vector d > 0 of the artificial variable z0 (w = M z + q + d z0). Empty means d = 1,
  /// plain Lemke. Size n, finite, every entry > 0. Dimensionless (only its direction matters).
  Eigen::VectorXd coveringVector;
  /// Pivot cap; reaching it is reported as kPivotLimit. Negative means 50·n + 100: Lemke needs
  /// about 0.7–0.8·n pivots on the Halm–Posa step LCPs (digest §9.4), so this is generous.
  int maxPivots = -1;
  /// A column entry counts as a pivot candidate when it exceeds pivotTolerance·‖column‖∞
  /// (relative, dimensionless). Default 1e-12: a few thousand ulps, above Gauss–Jordan round-off.
  double pivotTolerance = 1e-12;
  /// The answer must have residual ≤ residualTolerance·max(1, ‖q‖∞) (relative, see
  /// residualBoundFor). Default 1e-9, the accuracy the digest (§8) asks of every step solve.
  double residualTolerance = 1e-9;
  /// M's entries are known finite, so the solve does not read all n² of them again: the caller
  /// built M from checked inputs and checked it once (an impact's W, shared by each of its step
  /// LCPs). M's shape and q are checked still. Default false.
  bool matrixChecked = false;
};

/// Solves 0 ≤ z ⊥ M z + q ≥ 0. Throws carom::Error when M is not square, q does not match M, an
/// entry is not finite, or the options are inconsistent (covering vector of the wrong size or not
/// positive). Every outcome is in the result's status; see LcpResult. Where the answer Lemke ends
/// with fails its residual check, up to 16 principal pivots from its support (Murty's least-index
/// rule) try to put it right first, and their answer is returned only if it passes.
LcpResult solveLemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                     const LemkeOptions& options = {});

/// The same, written to `result`, whose z and w keep their storage where their size is unchanged:
/// for a caller that solves many LCPs of one size (a simultaneous impact's step LCPs).
void solveLemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LemkeOptions& options,
                LcpResult& result);

/// A covering vector with entries drawn uniformly in [0.01, 1] from `seed`: the same seed gives the
/// same vector on every machine. The lower end keeps d well away from 0 (d_i → 0 would stall the
/// first pivot on row i); two decades of spread let every solution of a non-unique LCP be reached.
Eigen::VectorXd randomCoveringVector(Eigen::Index n, std::uint64_t seed);

}  // namespace carom::core::lcp
