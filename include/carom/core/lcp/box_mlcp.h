// The box-constrained MLCP  lo ≤ z ≤ hi  ⟂  w = M z + q  (see result.h for the complementarity),
// the form of per-contact caps: Halm & Posa's step with 0 ≤ λ_n ≤ λ_max (digest §4.3) and the
// bounded contact rows Bullet's MLCP solvers take.
//
// Method: reduction to a standard LCP solved by solveLemke (no dedicated box pivoting). With
// z = lo + x and one extra variable v_i for each finite hi_i:
//   0 ≤ x ⊥ M x + (q + M lo) + P v ≥ 0,      0 ≤ v ⊥ (hi − lo)_P − Pᵀ x ≥ 0,
// where P selects the finitely capped indices. Then w = M z + q = s − P v with s ⊥ x, so
// z_i = hi_i forces w_i = −v_i ≤ 0 and lo_i < z_i < hi_i forces w_i = 0. The reduced matrix
// [[M, P], [−Pᵀ, 0]] has the same symmetric part as M, so it is copositive-plus whenever M is, and
// (x = 0, v large) is feasible: Lemke solves every box MLCP with copositive-plus M (PSD included).
#pragma once

#include <Eigen/Dense>

#include "carom/core/lcp/lemke.h"
#include "carom/core/lcp/result.h"

namespace carom::core::lcp {

/// Solves the box MLCP. lo must be finite (free variables are not supported); hi may be +∞ per
/// entry. options.coveringVector, when given, has size n: the row of v_i reuses d_i.
/// options.maxPivots caps the reduced LCP's pivots (default 50·(n + k) + 100, k finite caps).
/// Throws carom::Error naming the parameter on bad input (shapes, non-finite entries, lo > hi, lo =
/// −∞). status, residual and steps refer to the box problem, steps counting the reduced LCP's
/// pivots.
LcpResult solveBoxLemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                        const LemkeOptions& options = {});

}  // namespace carom::core::lcp
