#include "subspace_step.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>

namespace carom::core::contact {
namespace {

// One active row's coupling through one of its contact's bodies: Δu_r = d_r·Δv + (r × d_r)·Δω.
struct RowOnBody {
  int row;
  double sign;         // +1 on B, −1 on A (the impulse on A is −λ)
  double inverseMass;  // the body's
  Vec3 direction;      // d_r (world)
  Vec3 arm;            // r × d_r
  Vec3 turn;           // J⁻¹ (r × d_r)
};

// The active rows of a subspace step and what they must reach.
struct ActiveRows {
  std::vector<std::pair<std::size_t, int>> rows;  // (contact, its frame's axis) per row
  std::vector<std::vector<RowOnBody>> rowsOf;     // per body
  std::vector<std::size_t> held;                  // the bodies with rows, in index order
  Eigen::VectorXd diagonal;                       // A's
  Eigen::VectorXd residual;                       // the row's target minus its velocity (m/s)
  Eigen::Index size() const { return static_cast<Eigen::Index>(rows.size()); }
};

// The Rayleigh quotient, relative to A's diagonal, below which a direction counts as null.
constexpr double kNullCurvature = 1e-6;
// BᵀB's regularisation, relative to its largest diagonal entry: a direction in which no active row
// holds a body gets no velocity change. It perturbs a heavy body's block by 1e-12 times the mass
// ratio (1e-7 beside one 1e5 times lighter); iterative refinement with the same factor takes that
// out, each pass by the same factor.
constexpr double kDirectRegularisation = 1e-12;
constexpr int kDirectRefinements = 2;

ActiveRows activeRowsOf(const std::vector<SweepContact>& sweep,
                        const std::vector<PersistentContact>& contacts,
                        const std::vector<Vec3>& lambda, const std::vector<Vec3>& u,
                        std::size_t bodyCount) {
  ActiveRows active;
  active.rowsOf.resize(bodyCount);
  std::vector<double> diagonal, residual;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const double pn = lambda[i](0), mu = contacts[i].friction;
    if (!(pn > 0.0)) continue;
    const bool sticks = mu > 0.0 && lambda[i].tail<2>().norm() < mu * pn * (1.0 - 1e-9);
    const SweepContact& s = sweep[i];
    for (int k = 0; k < (sticks ? 3 : 1); ++k) {
      const int row = static_cast<int>(active.rows.size());
      active.rows.emplace_back(i, k);
      diagonal.push_back(s.diagonal(k));
      residual.push_back((k == 0 ? -contacts[i].approach : 0.0) - u[i](k));
      if (s.b != kWorld) {
        active.rowsOf[s.b].push_back(
            {row, 1.0, s.inverseMassB, s.frame.col(k), s.armB.col(k), s.turnB.col(k)});
      }
      if (s.a != kWorld) {
        active.rowsOf[s.a].push_back(
            {row, -1.0, s.inverseMassA, s.frame.col(k), s.armA.col(k), s.turnA.col(k)});
      }
    }
  }
  for (std::size_t body = 0; body < bodyCount; ++body)
    if (!active.rowsOf[body].empty()) active.held.push_back(body);
  active.diagonal = Eigen::Map<Eigen::VectorXd>(diagonal.data(), active.size());
  active.residual = Eigen::Map<Eigen::VectorXd>(residual.data(), active.size());
  return active;
}

// SubspaceMethod::kDirect. Row r of B on body j is sign (√m⁻¹ d_r, S (r × d_r)), S the symmetric
// square root of the body's J⁻¹, so that B Bᵀ = A; BᵀB is assembled from each body's rows and
// couples the bodies a contact joins.
std::optional<Eigen::VectorXd> directSolve(const ActiveRows& active,
                                           const std::vector<impact::ContactBody>& bodies) {
  std::vector<Eigen::Triplet<double>> entries;
  int columns = 0;
  for (const std::size_t body : active.held) {
    const Eigen::SelfAdjointEigenSolver<Mat3> inertia(bodies[body].inverseInertiaWorld);
    const Mat3 root = inertia.eigenvectors() *
                      inertia.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() *
                      inertia.eigenvectors().transpose();
    const double linear = std::sqrt(bodies[body].inverseMass);
    for (const RowOnBody& r : active.rowsOf[body]) {
      const Vec3 along = r.sign * linear * r.direction, about = r.sign * root * r.arm;
      for (int c = 0; c < 3; ++c) {
        entries.emplace_back(r.row, columns + c, along(c));
        entries.emplace_back(r.row, columns + 3 + c, about(c));
      }
    }
    columns += 6;
  }
  Eigen::SparseMatrix<double> b(active.size(), columns);
  b.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseMatrix<double> normal = b.transpose() * b;
  double largest = 0.0;
  for (int k = 0; k < columns; ++k)
    largest = std::max(largest, normal.coeff(k, k));
  for (int k = 0; k < columns; ++k)
    normal.coeffRef(k, k) += kDirectRegularisation * largest;
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> factor(normal);
  if (factor.info() != Eigen::Success) return std::nullopt;
  const auto solve = [&](const Eigen::VectorXd& residual) {
    const Eigen::VectorXd bodySpace = factor.solve(Eigen::VectorXd(b.transpose() * residual));
    return Eigen::VectorXd(b * factor.solve(bodySpace));
  };
  Eigen::VectorXd x = solve(active.residual);
  for (int refinement = 0; refinement < kDirectRefinements; ++refinement)
    x += solve(active.residual - b * Eigen::VectorXd(b.transpose() * x));
  return x;
}

// SubspaceMethod::kConjugateGradients.
Eigen::VectorXd conjugateGradients(const ActiveRows& active, int maxProducts, double tolerance) {
  const Eigen::Index n = active.size();
  const std::size_t bodyCount = active.rowsOf.size();
  // A x without forming A: the impulses x turn into each body's Δv, Δω, read back along each row.
  std::vector<Vec3> dv(bodyCount), dw(bodyCount);
  const auto times = [&](const Eigen::VectorXd& x) {
    for (const std::size_t body : active.held) {
      dv[body] = Vec3::Zero();
      dw[body] = Vec3::Zero();
      for (const RowOnBody& r : active.rowsOf[body]) {
        dv[body] += (r.sign * r.inverseMass * x(r.row)) * r.direction;
        dw[body] += (r.sign * x(r.row)) * r.turn;
      }
    }
    Eigen::VectorXd product = Eigen::VectorXd::Zero(n);
    for (const std::size_t body : active.held) {
      for (const RowOnBody& r : active.rowsOf[body])
        product(r.row) += r.sign * (r.direction.dot(dv[body]) + r.arm.dot(dw[body]));
    }
    return product;
  };
  // Conjugate gradients from x = 0, preconditioned by A's diagonal: on the semidefinite A of
  // redundant contacts with a right side in its range, the iterates stay in the range.
  Eigen::VectorXd residual = active.residual;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd z = residual.cwiseQuotient(active.diagonal);
  Eigen::VectorXd p = z;
  double rz = residual.dot(z);
  for (int iteration = 0; iteration < maxProducts; ++iteration) {
    if (residual.lpNorm<Eigen::Infinity>() <= tolerance) break;
    const Eigen::VectorXd Ap = times(p);
    const double curvature = p.dot(Ap);
    // A direction nearly in A's null space (redundant contacts pushing against each other) moves
    // no body and would carry huge impulses along it: the solve stops there.
    if (!(curvature > kNullCurvature * p.dot(active.diagonal.cwiseProduct(p)))) break;
    const double alpha = rz / curvature;
    x += alpha * p;
    residual -= alpha * Ap;
    z = residual.cwiseQuotient(active.diagonal);
    const double next = residual.dot(z);
    p = z + (next / rz) * p;
    rz = next;
  }
  return x;
}

}  // namespace

std::optional<std::vector<Vec3>> subspaceStep(const std::vector<SweepContact>& sweep,
                                              const std::vector<PersistentContact>& contacts,
                                              const std::vector<Vec3>& lambda,
                                              const std::vector<Vec3>& u,
                                              const std::vector<impact::ContactBody>& bodies,
                                              SubspaceMethod method, int maxProducts,
                                              double tolerance) {
  const ActiveRows active = activeRowsOf(sweep, contacts, lambda, u, bodies.size());
  if (active.rows.empty()) return std::nullopt;
  std::optional<Eigen::VectorXd> x;
  if (method == SubspaceMethod::kDirect) {
    x = directSolve(active, bodies);
  } else {
    x = conjugateGradients(active, maxProducts, tolerance);
  }
  if (!x || !x->allFinite()) return std::nullopt;
  std::vector<Vec3> change(sweep.size(), Vec3::Zero());
  for (Eigen::Index r = 0; r < active.size(); ++r) {
    const auto [i, k] = active.rows[static_cast<std::size_t>(r)];
    change[i](k) = (*x)(r);
  }
  return change;
}

}  // namespace carom::core::contact
