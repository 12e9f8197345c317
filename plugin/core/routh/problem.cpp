#include "carom/core/routh/problem.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "all_finite.h"
#include "carom/error.h"

namespace carom::core::routh {
namespace {

void requireFinite(const Eigen::MatrixXd& A, const char* name) {
  if (!allFinite(A)) throw Error(std::string(name) + " has a non-finite entry");
}

void requireShape(const Eigen::MatrixXd& A, Eigen::Index rows, Eigen::Index cols,
                  const char* name) {
  if (A.rows() != rows || A.cols() != cols) {
    throw Error(std::string(name) + " must be " + std::to_string(rows) + "×" +
                std::to_string(cols) + ", got " + std::to_string(A.rows()) + "×" +
                std::to_string(A.cols()));
  }
}

// Checks M, J_n and μ, the inputs both contact kinds share.
void checkCommon(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn, const Eigen::VectorXd& mu) {
  if (M.rows() == 0) throw Error("massMatrix must not be empty");
  requireShape(M, M.rows(), M.rows(), "massMatrix");
  requireFinite(M, "massMatrix");
  if (Jn.rows() == 0) throw Error("normalJacobian needs at least one contact row");
  requireShape(Jn, Jn.rows(), M.rows(), "normalJacobian");
  requireFinite(Jn, "normalJacobian");
  requireShape(mu, Jn.rows(), 1, "friction");
  if (!mu.allFinite() || (mu.array() < 0.0).any()) {
    throw Error("friction coefficients must be finite and non-negative");
  }
}

// The diagonal blocks [start, start + size) outside which M's lower triangle, all that its Cholesky
// factorization reads, is zero: for a rigid body in 3D (m I and J on the diagonal) its mass three
// times (1 × 1) and its inertia (3 × 3); one block for a dense M. Column j's block ends after the
// last row with a nonzero in column j.
std::vector<std::pair<Eigen::Index, Eigen::Index>> diagonalBlocks(const Eigen::MatrixXd& M) {
  std::vector<std::pair<Eigen::Index, Eigen::Index>> blocks;
  Eigen::Index start = 0, end = 0;
  for (Eigen::Index j = 0; j < M.cols(); ++j) {
    Eigen::Index last = M.rows() - 1;
    while (last > j && M(last, j) == 0.0)
      --last;
    end = std::max(end, last + 1);
    if (j + 1 == end) {
      blocks.emplace_back(start, end - start);
      start = end;
    }
  }
  return blocks;
}

// Eigen's Cholesky solve of `rows` in place; false where `block` is not positive definite.
bool choleskySolve(const Eigen::Ref<const Eigen::MatrixXd>& block,
                   Eigen::Block<Eigen::MatrixXd> rows) {
  const Eigen::LLT<Eigen::MatrixXd> llt(block);
  if (llt.info() != Eigen::Success) return false;
  llt.solveInPlace(rows);
  return true;
}

// A rigid body's inertia block J X = `rows` in place: Eigen's fixed-size Cholesky factorization
// L Lᵀ, then its two triangular solves written out column by column in the order of operations of
// Eigen's own (each row times the reciprocal of L's diagonal entry; below the diagonal, the solved
// entries' products taken off in turn; above it, their sum taken off at once): the same bits, where
// Eigen's solve of a few columns passes through its blocked general path, ten times the arithmetic.
bool solveInertiaBlock(const Eigen::Ref<const Eigen::MatrixXd>& block,
                       Eigen::Block<Eigen::MatrixXd> rows) {
  const Eigen::LLT<Eigen::Matrix3d> llt(block);
  if (llt.info() != Eigen::Success) return false;
  const Eigen::Matrix3d& L = llt.matrixLLT();  // L in the lower triangle
  for (Eigen::Index j = 0; j < rows.cols(); ++j) {
    double& x0 = rows(0, j);
    double& x1 = rows(1, j);
    double& x2 = rows(2, j);
    x0 *= 1.0 / L(0, 0);  // L y = b
    x1 -= x0 * L(1, 0);
    x2 -= x0 * L(2, 0);
    x1 *= 1.0 / L(1, 1);
    x2 -= x1 * L(2, 1);
    x2 *= 1.0 / L(2, 2);
    x2 *= 1.0 / L(2, 2);  // Lᵀ x = y
    x1 = (x1 - L(2, 1) * x2) * (1.0 / L(1, 1));
    x0 = (x0 - (L(1, 0) * x1 + L(2, 0) * x2)) * (1.0 / L(0, 0));
  }
  return true;
}

// Solves M_b X = `rows` in place by the Cholesky factorization of the block M_b (its lower
// triangle); false where M_b is not positive definite. A rigid body's blocks, its mass (1 × 1,
// three times) and its inertia (3 × 3), take the factorization written out and Eigen's fixed-size
// one: the same arithmetic as the dynamic factorization, several times faster at those sizes.
bool solveBlock(const Eigen::Ref<const Eigen::MatrixXd>& block,
                Eigen::Block<Eigen::MatrixXd> rows) {
  if (block.rows() == 1) {  // L = √m; each triangular solve multiplies by 1/L, as Eigen's does
    if (!(block(0, 0) > 0.0)) return false;
    const double reciprocal = 1.0 / std::sqrt(block(0, 0));
    for (Eigen::Index j = 0; j < rows.cols(); ++j) {  // a row of a few dozen entries: no Eigen op
      double& x = rows(0, j);
      x = x * reciprocal * reciprocal;
    }
    return true;
  }
  if (block.rows() == 3) return solveInertiaBlock(block, rows);
  return choleskySolve(block, rows);
}

// out = in Qᵀ, Q = blockdiag(I_m, Dᵀ, …, Dᵀ): in's first m columns as they are, then each
// contact's r tangent columns spread to its k directions (D is r × k, r ≤ 2). Written out, column
// by column over the columns' storage: Eigen's general product on these few-entry operands, and
// even its column expressions (a few dozen rows each), cost several times their arithmetic.
template <class In, class Out>
void spreadColumns(const Eigen::MatrixXd& D, Eigen::Index m, const In& in, Out&& out) {
  const Eigen::Index r = D.rows(), k = D.cols(), rows = in.rows();
  out.leftCols(m) = in.leftCols(m);
  for (Eigen::Index i = 0; m + r * i < in.cols(); ++i) {
    const double* first = in.col(m + r * i).data();
    const double* second = r > 1 ? in.col(m + r * i + 1).data() : nullptr;
    for (Eigen::Index j = 0; j < k; ++j) {
      double* to = out.col(m + k * i + j).data();
      const double d0 = D(0, j);
      if (second == nullptr) {
        for (Eigen::Index row = 0; row < rows; ++row)
          to[row] = d0 * first[row];
      } else {
        const double d1 = D(1, j);
        for (Eigen::Index row = 0; row < rows; ++row)
          to[row] = d0 * first[row] + d1 * second[row];
      }
    }
  }
}

// D = [d_1 … d_k], k unit vectors d_j = (cos 2πj/k, sin 2πj/k) (§1.3).
Eigen::MatrixXd spatialDirections(Eigen::Index k) {
  Eigen::MatrixXd D(2, k);
  for (Eigen::Index j = 0; j < k; ++j) {
    const double angle = 2.0 * EIGEN_PI * static_cast<double>(j) / static_cast<double>(k);
    D.col(j) << std::cos(angle), std::sin(angle);
  }
  return D;
}

}  // namespace

ImpactProblem ImpactProblem::planar(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn,
                                    const Eigen::MatrixXd& Jt, const Eigen::VectorXd& mu) {
  checkCommon(M, Jn, mu);
  requireShape(Jt, Jn.rows(), M.cols(), "tangentJacobian");
  requireFinite(Jt, "tangentJacobian");
  Eigen::MatrixXd D(1, 2);  // D = [+1, −1]: J_D,i = [J_t,i; −J_t,i]
  D << 1.0, -1.0;
  return ImpactProblem(M, Jn, Jt, D, mu);
}

ImpactProblem ImpactProblem::spatial(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn,
                                     const Eigen::MatrixXd& Jt, const Eigen::VectorXd& mu,
                                     int directions) {
  checkCommon(M, Jn, mu);
  requireShape(Jt, 2 * Jn.rows(), M.cols(), "tangentJacobian");
  requireFinite(Jt, "tangentJacobian");
  // Fewer than 4 directions cannot resist a tangential push in every direction of the plane.
  if (directions < 4) throw Error("directions must be at least 4 in 3D");
  // The default's table once: a busy scene builds thousands of problems a second, each of which
  // took its k cosines and sines again (a fiftieth of a build of three contacts).
  static const Eigen::MatrixXd kDefault = spatialDirections(kDefaultSpatialDirections);
  if (directions == kDefaultSpatialDirections) return ImpactProblem(M, Jn, Jt, kDefault, mu);
  return ImpactProblem(M, Jn, Jt, spatialDirections(directions), mu);
}

ImpactProblem::ImpactProblem(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn,
                             const Eigen::MatrixXd& Jt, const Eigen::MatrixXd& D,
                             const Eigen::VectorXd& mu)
    : M_(M), Jn_(Jn), Jt_(Jt), D_(D), mu_(mu) {
  if (!M.isApprox(M.transpose(), 1e-12)) throw Error("massMatrix must be symmetric");
  const Eigen::Index m = contacts(), k = directions(), r = D.rows(), nD = frictionRows();
  // M⁻¹ and the products through it on the contact frames' rows F = [J_n; J_t], (1 + r)m of them,
  // then spread to the k directions (J̄ = Q F): the (1 + k)m rows of J̄ would take (1 + k)²/(1 + r)²
  // the multiplications of G = F M⁻¹ Fᵀ, nine times in 3D.
  Eigen::MatrixXd F(m + r * m, dofs());
  F << Jn_, Jt_;
  Eigen::MatrixXd MinvFt = F.transpose();  // Fᵀ until the solves below
  Eigen::MatrixXd JDt(dofs(), nD);         // J_Dᵀ = J_tᵀ blockdiag(D, …, D)
  spreadColumns(D, 0, MinvFt.rightCols(r * m), JDt);
  JD_ = JDt.transpose();
  // M⁻¹ Fᵀ block by block of M: a simultaneous impact of b bodies factorizes 4b blocks of at most
  // 3 × 3, not one 6b × 6b matrix.
  blocks_ = diagonalBlocks(M);
  for (const auto& [start, size] : blocks_) {
    if (!solveBlock(M.block(start, start, size, size), MinvFt.middleRows(start, size)))
      throw Error("massMatrix must be positive definite");
  }
  MinvJbarT_.resize(dofs(), m + nD);
  spreadColumns(D, m, MinvFt, MinvJbarT_);  // M⁻¹J̄ᵀ = M⁻¹Fᵀ Qᵀ
  // J̄M⁻¹J̄ᵀ = Q G Qᵀ = (G Qᵀ)ᵀ Qᵀ, G symmetric: two spreads of columns.
  const Eigen::MatrixXd G = F * MinvFt;
  Eigen::MatrixXd GQt(m + r * m, m + nD);
  spreadColumns(D, m, G, GQt);
  const Eigen::MatrixXd QG = GQt.transpose();
  // (75b) with the transposes restored (digest §10), blocks [β | λ_n | λ_D | γ]. The λ block is
  // written whole by its spread, so only its border is cleared: for an impact of 8 contacts, 41 kB
  // of W's 62 kB are not cleared only to be overwritten. Cleared by whole column segments, then
  // its few nonzeros written one by one: as Eigen blocks of a few entries each, the border cost
  // as much as the spread.
  const Eigen::Index n = 3 * m + nD, lambdas = m + nD;
  W_.resize(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    double* column = W_.col(j).data();
    if (j < m || j >= m + lambdas) {
      std::fill(column, column + n, 0.0);  // a β or γ column: its nonzeros are written below
    } else {
      std::fill(column, column + m, 0.0);
      std::fill(column + m + lambdas, column + n, 0.0);
    }
  }
  spreadColumns(D, m, QG, W_.block(m, m, lambdas, lambdas));
  for (Eigen::Index i = 0; i < m; ++i) {
    W_(i, m + i) = -1.0;
    W_(m + i, i) = 1.0;
    for (Eigen::Index j = 0; j < k; ++j) {
      W_(2 * m + k * i + j, 2 * m + nD + i) = 1.0;   // E
      W_(2 * m + nD + i, 2 * m + k * i + j) = -1.0;  // −Eᵀ
    }
    W_(2 * m + nD + i, m + i) = mu_(i);  // μ
  }
  // Once here, not in each of the impact's step LCPs (LemkeOptions::matrixChecked): finite inputs
  // can still overflow through M⁻¹.
  requireFinite(W_, "the step matrix W");
}

Eigen::VectorXd ImpactProblem::velocityChange(const Eigen::VectorXd& lambdaN,
                                              const Eigen::VectorXd& lambdaD) const {
  Eigen::VectorXd change;
  velocityChange(lambdaN, lambdaD, change);
  return change;
}

void ImpactProblem::velocityChange(const Eigen::Ref<const Eigen::VectorXd>& lambdaN,
                                   const Eigen::Ref<const Eigen::VectorXd>& lambdaD,
                                   Eigen::VectorXd& change) const {
  change.noalias() = MinvJbarT_.leftCols(contacts()) * lambdaN;
  change.noalias() += MinvJbarT_.rightCols(frictionRows()) * lambdaD;
}

Eigen::VectorXd ImpactProblem::generalizedImpulse(const Eigen::VectorXd& lambdaN,
                                                  const Eigen::VectorXd& lambdaD) const {
  return Jn_.transpose() * lambdaN + JD_.transpose() * lambdaD;
}

double ImpactProblem::kineticEnergy(const Eigen::VectorXd& v) const {
  // Block by block of M (diagonalBlocks): a rigid body's mass three times and its inertia, where
  // vᵀMv over the whole M would multiply 6b × 6b entries, nearly all zero, twice per step LCP.
  double twice = 0.0;
  for (const auto& [start, size] : blocks_) {
    if (size == 1) {
      twice += M_(start, start) * v(start) * v(start);
    } else if (size == 3) {
      const Eigen::Vector3d x = v.segment<3>(start);
      twice += x.dot(M_.block<3, 3>(start, start) * x);
    } else {
      twice +=
          v.segment(start, size).dot(M_.block(start, start, size, size) * v.segment(start, size));
    }
  }
  return 0.5 * twice;
}

double ImpactProblem::algorithm2Psi() const {
  const double sigmaMax = Eigen::JacobiSVD<Eigen::MatrixXd>(MinvJbarT_).singularValues()(0);
  return sigmaMax * static_cast<double>(contacts()) * (1.0 + mu_.maxCoeff()) + 1.0;
}

void ImpactProblem::checkVelocity(const Eigen::VectorXd& v, const char* name) const {
  if (v.size() != dofs()) {
    throw Error(std::string(name) + " must have " + std::to_string(dofs()) + " entries, got " +
                std::to_string(v.size()));
  }
  if (!v.allFinite()) throw Error(std::string(name) + " has a non-finite entry");
}

}  // namespace carom::core::routh
