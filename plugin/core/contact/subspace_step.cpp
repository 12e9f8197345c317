#include "subspace_step.h"

#include <algorithm>

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

// The Rayleigh quotient, relative to A's diagonal, below which a direction counts as null.
constexpr double kNullCurvature = 1e-6;

}  // namespace

std::optional<std::vector<Vec3>> subspaceStep(const std::vector<SweepContact>& sweep,
                                              const std::vector<PersistentContact>& contacts,
                                              const std::vector<Vec3>& lambda,
                                              const std::vector<Vec3>& u, std::size_t bodyCount,
                                              int maxProducts, double tolerance) {
  std::vector<std::vector<RowOnBody>> rowsOf(bodyCount);
  std::vector<std::pair<std::size_t, int>> rows;  // (contact, its frame's axis) per row
  std::vector<double> target;                     // the row's relative velocity wanted (m/s)
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const double pn = lambda[i](0), mu = contacts[i].friction;
    if (!(pn > 0.0)) continue;
    const bool sticks = mu > 0.0 && lambda[i].tail<2>().norm() < mu * pn * (1.0 - 1e-9);
    const SweepContact& s = sweep[i];
    for (int k = 0; k < (sticks ? 3 : 1); ++k) {
      const int row = static_cast<int>(rows.size());
      rows.emplace_back(i, k);
      target.push_back(k == 0 ? -contacts[i].approach : 0.0);
      if (s.b != kWorld) {
        rowsOf[s.b].push_back(
            {row, 1.0, s.inverseMassB, s.frame.col(k), s.armB.col(k), s.turnB.col(k)});
      }
      if (s.a != kWorld) {
        rowsOf[s.a].push_back(
            {row, -1.0, s.inverseMassA, s.frame.col(k), s.armA.col(k), s.turnA.col(k)});
      }
    }
  }
  if (rows.empty()) return std::nullopt;
  const Eigen::Index n = static_cast<Eigen::Index>(rows.size());
  // A x without forming A: the impulses x turn into each body's Δv, Δω, read back along each row.
  std::vector<Vec3> dv(bodyCount), dw(bodyCount);
  const auto times = [&](const Eigen::VectorXd& x) {
    std::fill(dv.begin(), dv.end(), Vec3::Zero());
    std::fill(dw.begin(), dw.end(), Vec3::Zero());
    for (std::size_t body = 0; body < bodyCount; ++body) {
      for (const RowOnBody& r : rowsOf[body]) {
        dv[body] += (r.sign * r.inverseMass * x(r.row)) * r.direction;
        dw[body] += (r.sign * x(r.row)) * r.turn;
      }
    }
    Eigen::VectorXd product = Eigen::VectorXd::Zero(n);
    for (std::size_t body = 0; body < bodyCount; ++body) {
      for (const RowOnBody& r : rowsOf[body])
        product(r.row) += r.sign * (r.direction.dot(dv[body]) + r.arm.dot(dw[body]));
    }
    return product;
  };
  Eigen::VectorXd diagonal(n), residual(n);
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto [i, k] = rows[static_cast<std::size_t>(r)];
    diagonal(r) = sweep[i].K(k, k);
    residual(r) = target[static_cast<std::size_t>(r)] - u[i](k);
  }
  // Conjugate gradients from x = 0, preconditioned by A's diagonal: on the semidefinite A of
  // redundant contacts with a right side in its range, the iterates stay in the range.
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd z = residual.cwiseQuotient(diagonal);
  Eigen::VectorXd p = z;
  double rz = residual.dot(z);
  for (int iteration = 0; iteration < maxProducts; ++iteration) {
    if (residual.lpNorm<Eigen::Infinity>() <= tolerance) break;
    const Eigen::VectorXd Ap = times(p);
    const double curvature = p.dot(Ap);
    // A direction nearly in A's null space (redundant contacts pushing against each other) moves
    // no body and would carry huge impulses along it: the solve stops there.
    if (!(curvature > kNullCurvature * p.dot(diagonal.cwiseProduct(p)))) break;
    const double alpha = rz / curvature;
    x += alpha * p;
    residual -= alpha * Ap;
    z = residual.cwiseQuotient(diagonal);
    const double next = residual.dot(z);
    p = z + (next / rz) * p;
    rz = next;
  }
  if (!x.allFinite()) return std::nullopt;
  std::vector<Vec3> change(sweep.size(), Vec3::Zero());
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto [i, k] = rows[static_cast<std::size_t>(r)];
    change[i](k) = x(r);
  }
  return change;
}

}  // namespace carom::core::contact
