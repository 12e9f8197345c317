// Seeded random LCP instances of the classes Lemke is guaranteed for, and the independent checks
// every solver test applies to an answer. Shared by the Lemke, box, PGS and Siconos tests.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "carom/core/lcp/result.h"
#include "carom/error.h"
#include "support/errors.h"
#include "support/random.h"

namespace carom::test::lcp {

inline Eigen::MatrixXd gaussianLike(Random& random, Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd A(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i)
      A(i, j) = random.uniform(-1.0, 1.0);
  }
  return A;
}

// A random skew-symmetric matrix: adds nothing to zᵀMz, so it keeps a class while breaking
// symmetry.
inline Eigen::MatrixXd skew(Random& random, Eigen::Index n) {
  const Eigen::MatrixXd S = gaussianLike(random, n, n);
  return S - S.transpose();
}

// A symmetric positive definite matrix with condition number around 10–100.
inline Eigen::MatrixXd spdMatrix(Random& random, Eigen::Index n) {
  const Eigen::MatrixXd A = gaussianLike(random, n, n);
  return A * A.transpose() + 0.1 * static_cast<double>(n) * Eigen::MatrixXd::Identity(n, n);
}

// P-matrices (every principal minor positive) of two kinds, alternating with `kind`: positive
// definite but non-symmetric (SPD + skew), and strictly row-diagonally-dominant with a positive
// diagonal, which is P without being positive definite in general.
inline Eigen::MatrixXd pMatrix(Random& random, Eigen::Index n, int kind) {
  if (kind % 2 == 0) return spdMatrix(random, n) + skew(random, n);
  Eigen::MatrixXd M = gaussianLike(random, n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    M(i, i) = M.row(i).cwiseAbs().sum() - std::abs(M(i, i)) + random.uniform(0.1, 1.0);
  }
  return M;
}

// Positive semi-definite (zᵀMz ≥ 0), rank-deficient and non-symmetric: B Bᵀ with B of n/2
// columns, plus a skew part.
inline Eigen::MatrixXd psdMatrix(Random& random, Eigen::Index n) {
  const Eigen::MatrixXd B = gaussianLike(random, n, (n + 1) / 2);
  return B * B.transpose() + skew(random, n);
}

// Copositive-plus but not PSD: PSD plus a non-negative matrix with a positive diagonal. zᵀMz = 0
// with z ≥ 0 forces z = 0 (strictly copositive), so every q has a solution.
inline Eigen::MatrixXd copositivePlusMatrix(Random& random, Eigen::Index n) {
  Eigen::MatrixXd N(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i)
      N(i, j) = random.uniform(0.0, 2.0);
    N(j, j) += 0.1;
  }
  return psdMatrix(random, n) + N;
}

// A sparse matrix shaped like a contact problem's, whose rows meet only those within `band` of
// them (a contact, those of its own two bodies): B Bᵀ of a banded B with `columns` columns plus a
// banded skew part, and `shift` on the diagonal. With shift > 0 it is positive definite (a
// P-matrix); with shift = 0 and fewer columns than rows, positive semi-definite and singular.
inline Eigen::MatrixXd bandedMatrix(Random& random, Eigen::Index n, Eigen::Index columns,
                                    Eigen::Index band, double shift) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, columns), S = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index centre = i * columns / n;
    for (Eigen::Index j = std::max<Eigen::Index>(0, centre - band);
         j < std::min(columns, centre + band + 1); ++j)
      B(i, j) = random.uniform(-1.0, 1.0);
    for (Eigen::Index j = std::max<Eigen::Index>(0, i - band); j < i; ++j)
      S(i, j) = random.uniform(-1.0, 1.0);
  }
  return B * B.transpose() + S - S.transpose() + shift * Eigen::MatrixXd::Identity(n, n);
}

inline Eigen::VectorXd uniformVector(Random& random, Eigen::Index n) {
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i)
    v(i) = random.uniform(-1.0, 1.0);
  return v;
}

// q = w* − M z* for a random complementary pair (z*, w*): the LCP is feasible by construction.
// With `degenerate`, a third of the indices have z*_i = w*_i = 0 (a degenerate solution: the ratio
// tests along Lemke's path tie).
inline Eigen::VectorXd feasibleQ(Random& random, const Eigen::MatrixXd& M, bool degenerate) {
  const Eigen::Index n = M.rows();
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n), w = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double pick = random.uniform(0.0, 1.0);
    if (degenerate && pick < 1.0 / 3.0) continue;
    (pick < (degenerate ? 2.0 / 3.0 : 0.5) ? z(i) : w(i)) = random.uniform(0.1, 1.0);
  }
  return w - M * z;
}

// Halm & Posa's step LCP (75) for m planar contacts with k = 2 friction directions (digest §4.2):
// z = [β; λ_n; λ_D; γ] of size 5m, W_q copositive but not copositive-plus, random Jacobians on
// 3 generalized velocities, μ ∈ [0.1, 1], an approaching v and caps λ_max ∈ [0, 1]. Lemke solves it
// in theory (digest §4.4, Theorem 6); this is the problem the solver is for.
inline void halmPosaStepLcp(Random& random, Eigen::Index m, Eigen::MatrixXd& W,
                            Eigen::VectorXd& w) {
  const Eigen::Index nv = 3, nD = 2 * m;
  const Eigen::MatrixXd Jn = gaussianLike(random, m, nv), Jt = gaussianLike(random, m, nv);
  Eigen::MatrixXd JD(nD, nv), E = Eigen::MatrixXd::Zero(nD, m), mu = Eigen::MatrixXd::Zero(m, m);
  for (Eigen::Index i = 0; i < m; ++i) {
    JD.row(2 * i) = Jt.row(i);
    JD.row(2 * i + 1) = -Jt.row(i);
    E(2 * i, i) = E(2 * i + 1, i) = 1.0;
    mu(i, i) = random.uniform(0.1, 1.0);
  }
  const Eigen::MatrixXd Minv = spdMatrix(random, nv).inverse();
  Eigen::MatrixXd Jbar(m + nD, nv);
  Jbar << Jn, JD;
  // One draw per statement, z, y, x, as in Random::vector.
  const double vz = random.uniform(-1.0, 1.0);
  const double vy = random.uniform(-2.0, -0.5);
  const double vx = random.uniform(-1.0, 1.0);
  const Eigen::Vector3d v(vx, vy, vz);
  W = Eigen::MatrixXd::Zero(5 * m, 5 * m);
  W.block(0, m, m, m) = -Eigen::MatrixXd::Identity(m, m);
  W.block(m, 0, m, m) = Eigen::MatrixXd::Identity(m, m);
  W.block(m, m, m + nD, m + nD) = Jbar * Minv * Jbar.transpose();
  W.block(2 * m, 4 * m, nD, m) = E;
  W.block(4 * m, m, m, m) = mu;
  W.block(4 * m, 2 * m, m, nD) = -E.transpose();
  w = Eigen::VectorXd::Zero(5 * m);
  for (Eigen::Index i = 0; i < m; ++i)
    w(i) = random.uniform(0.0, 1.0);
  w.segment(m, m + nD) = Jbar * v;
}

// Checks an answer against the problem independently of the solver's own bookkeeping: z ≥ 0,
// w = M z + q ≥ −bound, |min(z_i, w_i)| ≤ bound with bound = tolerance·max(1, ‖q‖∞).
inline void expectSolvesLcp(const core::lcp::LcpResult& result, const Eigen::MatrixXd& M,
                            const Eigen::VectorXd& q, double tolerance) {
  ASSERT_EQ(result.status, core::lcp::LcpStatus::kSolved) << result.message;
  ASSERT_EQ(result.z.size(), q.size());
  const double bound = tolerance * std::max(1.0, q.lpNorm<Eigen::Infinity>());
  const Eigen::VectorXd w = M * result.z + q;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    EXPECT_GE(result.z(i), 0.0) << "i = " << i;
    EXPECT_GE(w(i), -bound) << "i = " << i;
    EXPECT_LE(std::abs(std::min(result.z(i), w(i))), bound) << "i = " << i;
  }
}

}  // namespace carom::test::lcp
