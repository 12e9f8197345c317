// Seeded random impact problems for the property tests (digest §7): planar and spatial contacts on
// a random SPD mass matrix, and an approaching pre-impact velocity.
#pragma once

#include <Eigen/Dense>

#include "carom/core/routh/problem.h"
#include "core/lcp/cases.h"
#include "support/random.h"

namespace carom::test::routh {

struct RandomImpact {
  core::routh::ImpactProblem problem;
  Eigen::VectorXd vMinus;
};

// m contacts on n_v = 3 (planar) or 6 (spatial, `directions` ≥ 4) generalized velocities,
// μ ∈ [0.1, 1.5], and v⁻ with at least one approaching contact.
inline RandomImpact randomImpact(Random& random, Eigen::Index m, int directions) {
  const bool planar = directions == 2;
  const Eigen::Index nv = planar ? 3 : 6;
  const Eigen::MatrixXd M = lcp::spdMatrix(random, nv);
  const Eigen::MatrixXd Jn = lcp::gaussianLike(random, m, nv);
  const Eigen::MatrixXd Jt = lcp::gaussianLike(random, planar ? m : 2 * m, nv);
  Eigen::VectorXd mu(m);
  for (Eigen::Index i = 0; i < m; ++i)
    mu(i) = random.uniform(0.1, 1.5);
  const core::routh::ImpactProblem problem =
      planar ? core::routh::ImpactProblem::planar(M, Jn, Jt, mu)
             : core::routh::ImpactProblem::spatial(M, Jn, Jt, mu, directions);
  Eigen::VectorXd v = lcp::uniformVector(random, nv);
  // Make contact 0 approach at unit speed along its own normal direction in velocity space.
  const Eigen::VectorXd n0 = Jn.row(0).transpose();
  v += (-1.0 - Jn.row(0).dot(v)) / n0.squaredNorm() * n0;
  return {problem, v};
}

}  // namespace carom::test::routh
