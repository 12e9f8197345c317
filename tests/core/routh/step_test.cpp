// One step LCP (75) on random problems: the per-step properties of digest §7 items 1–6, checked
// on the returned impulses independently of the solver's bookkeeping.
#include <gtest/gtest.h>

#include <limits>
#include <tuple>

#include "carom/core/routh/step.h"
#include "core/routh/random_problems.h"
#include "support/same_entries.h"

namespace carom::core::routh {
namespace {

using test::Random;
using test::routh::randomImpact;

// Digest §7 tolerances, scaled by the step's velocity size.
constexpr double kComplementarity = 1e-9;
constexpr double kEnergy = 1e-12;

void expectStepProperties(const ImpactProblem& problem, const Eigen::VectorXd& v,
                          const Eigen::VectorXd& caps, const StepResult& step) {
  ASSERT_TRUE(step.solved()) << step.message;
  const Eigen::Index m = problem.contacts(), k = problem.directions();
  const double scale = std::max(1.0, (problem.normalJacobian() * v).cwiseAbs().maxCoeff());
  const double tol = kComplementarity * scale;
  // (75c) recomputed from the impulses.
  const Eigen::VectorXd vNext =
      v + problem.massMatrix().llt().solve(problem.normalJacobian().transpose() * step.lambdaN +
                                           problem.directionJacobian().transpose() * step.lambdaD);
  EXPECT_LE((vNext - step.v).norm(), 1e-10 * std::max(1.0, v.norm()));
  // Theorem 7.
  EXPECT_LE(problem.kineticEnergy(step.v), problem.kineticEnergy(v) * (1 + kEnergy) + 1e-300);
  const Eigen::VectorXd un = problem.normalJacobian() * step.v;
  const Eigen::VectorXd uD = problem.directionJacobian() * step.v;
  bool someCapFull = false;
  for (Eigen::Index i = 0; i < m; ++i) {
    const double lambda = step.lambdaN(i), cap = caps(i);
    // (73)–(74): 0 ≤ λ_n ≤ λ_max, and the normal velocity's sign by where λ_n sits.
    EXPECT_GE(lambda, -tol);
    EXPECT_LE(lambda, cap + tol);
    if (lambda <= tol) {
      EXPECT_GE(un(i), -tol) << "idle contact " << i << " approaches";
    }
    if (lambda > tol && lambda < cap - tol) {
      EXPECT_NEAR(un(i), 0.0, tol) << "contact " << i;
    }
    if (lambda >= cap - tol) {
      EXPECT_LE(un(i), tol) << "full-cap contact " << i;
      someCapFull = true;
    }
    // (32)–(33): λ_D ≥ 0, Σ λ_D ≤ μ λ_n, and a sliding contact (γ_i > 0) is on the cone's edge.
    const Eigen::VectorXd lambdaD = step.lambdaD.segment(k * i, k);
    EXPECT_GE(lambdaD.minCoeff(), -tol);
    EXPECT_LE(lambdaD.sum(), problem.friction()(i) * lambda + tol);
    const double slip = -uD.segment(k * i, k).minCoeff();  // γ_i = max_j(−J_D,j v') ≥ 0
    if (slip > 1e-7 * scale && lambda > tol) {
      EXPECT_NEAR(lambdaD.sum(), problem.friction()(i) * lambda, 1e-7 * scale)
          << "sliding contact " << i << " inside its cone";
    }
  }
  // Lemma 13: colliding v and positive caps ⇒ a cap is used up or every contact terminated.
  if ((problem.normalJacobian() * v).minCoeff() < 0 && caps.minCoeff() > 0) {
    EXPECT_TRUE(someCapFull || un.minCoeff() >= -tol);
  }
}

// With a seeded random covering vector (the sampled sets') and with the plain ones (one outcome):
// d = 1, and 1e-3 where w_q ≥ 0 (lcp mode's).
TEST(RouthStep, RandomStepsRespectCapsFrictionAndDissipate) {
  Random random(20240601);
  for (const int directions : {2, 4, 8}) {
    for (int trial = 0; trial < 150; ++trial) {
      const Eigen::Index m = 1 + trial % 4;
      const auto [problem, v] = randomImpact(random, m, directions);
      Eigen::VectorXd caps(m);
      for (Eigen::Index i = 0; i < m; ++i)
        caps(i) =
            trial % 5 == 0 ? std::numeric_limits<double>::infinity() : random.uniform(0.0, 1.0);
      for (const double plain : {0.0, 1.0, 1e-3}) {  // 0: random
        SCOPED_TRACE(::testing::Message()
                     << "k = " << directions << ", trial " << trial << ", plain " << plain);
        StepOptions options;
        options.randomCovering = plain == 0.0;
        if (plain > 0.0) options.plainCoveringAboveZero = plain;
        expectStepProperties(problem, v, caps, solveStep(problem, v, caps, trial, options));
      }
    }
  }
}

// Lemma 8: with zero caps, or no approaching contact, v' = v solves (75), and Lemke returns it.
TEST(RouthStep, ZeroCapsOrSeparatingVelocityLeaveVelocityUnchanged) {
  Random random(7);
  for (int trial = 0; trial < 50; ++trial) {
    const auto [problem, v] = randomImpact(random, 3, 2);
    const StepResult capped = solveStep(problem, v, Eigen::VectorXd::Zero(3), trial);
    ASSERT_TRUE(capped.solved()) << capped.message;
    EXPECT_LE((capped.v - v).norm(), 1e-12);
    // A velocity that separates at every contact: the least-norm one with J_n v = 1.
    const Eigen::VectorXd separating =
        problem.normalJacobian().completeOrthogonalDecomposition().solve(Eigen::VectorXd::Ones(3));
    const StepResult free = solveStep(problem, separating, Eigen::VectorXd::Ones(3), trial);
    ASSERT_TRUE(free.solved()) << free.message;
    EXPECT_LE((free.v - separating).norm(), 1e-12);
  }
}

// A StepResult kept from step to step (simulate's) answers as a fresh one does, bit for bit,
// whatever the problem before it: another size, infinite caps (the restricted LCP), a failure.
TEST(RouthStep, AKeptResultAnswersAsAFreshOne) {
  Random random(31);
  StepResult kept;
  StepOptions failing;
  failing.residualTolerance = 1e-300;  // below round-off: every attempt fails its check
  failing.maxAttempts = 1;
  for (int trial = 0; trial < 120; ++trial) {
    const Eigen::Index m = 1 + trial % 5;
    const auto [problem, v] = randomImpact(random, m, trial % 2 == 0 ? 8 : 4);
    Eigen::VectorXd caps(m);
    for (Eigen::Index i = 0; i < m; ++i)
      caps(i) =
          (trial + i) % 3 == 0 ? std::numeric_limits<double>::infinity() : random.uniform(0.0, 1.0);
    StepOptions options = trial % 7 == 3 ? failing : StepOptions{};
    options.randomCovering = trial % 3 == 0;
    if (trial % 3 == 2) options.plainCoveringAboveZero = 1e-3;
    const StepResult fresh = solveStep(problem, v, caps, trial, options);
    solveStep(problem, v, caps, trial, options, kept);
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    EXPECT_EQ(std::tie(kept.status, kept.message, kept.attempts, kept.residual),
              std::tie(fresh.status, fresh.message, fresh.attempts, fresh.residual));
    EXPECT_TRUE(test::sameEntries(kept.v, fresh.v));
    EXPECT_TRUE(test::sameEntries(kept.lambdaN, fresh.lambdaN));
    EXPECT_TRUE(test::sameEntries(kept.lambdaD, fresh.lambdaD));
  }
}

TEST(RouthStep, BadInputNamesTheParameter) {
  Random random(3);
  // Not a structured binding: the lambdas capture these, which C++17 allows only for variables.
  const test::routh::RandomImpact impact = randomImpact(random, 2, 2);
  const auto& problem = impact.problem;
  const auto& v = impact.vMinus;
  test::expectErrorNaming([&] { solveStep(problem, v, Eigen::VectorXd::Ones(3), 0); }, "caps");
  test::expectErrorNaming([&] { solveStep(problem, v, Eigen::Vector2d(-1.0, 1.0), 0); }, "caps");
  test::expectErrorNaming(
      [&] { solveStep(problem, Eigen::VectorXd::Zero(2), Eigen::Vector2d::Ones(), 0); },
      "velocity");
  StepOptions options;
  options.maxAttempts = 0;
  test::expectErrorNaming([&] { solveStep(problem, v, Eigen::Vector2d::Ones(), 0, options); },
                          "maxAttempts");
  options = StepOptions{};
  options.pivotsPerUnknown = 0;
  test::expectErrorNaming([&] { solveStep(problem, v, Eigen::Vector2d::Ones(), 0, options); },
                          "pivotsPerUnknown");
  for (const double bad : {0.0, -1e-3, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity()}) {
    options = StepOptions{};
    options.plainCoveringAboveZero = bad;
    test::expectErrorNaming([&] { solveStep(problem, v, Eigen::Vector2d::Ones(), 0, options); },
                            "plainCoveringAboveZero");
  }
  const Eigen::Matrix3d M = Eigen::Matrix3d::Identity();
  const Eigen::MatrixXd J = Eigen::MatrixXd::Ones(1, 3);
  test::expectErrorNaming([&] { ImpactProblem::planar(-M, J, J, Eigen::VectorXd::Ones(1)); },
                          "massMatrix");
  test::expectErrorNaming(
      [&] { ImpactProblem::planar(M, J, Eigen::MatrixXd::Ones(2, 3), Eigen::VectorXd::Ones(1)); },
      "tangentJacobian");
  test::expectErrorNaming(
      [&] { ImpactProblem::planar(M, Eigen::MatrixXd::Ones(1, 2), J, Eigen::VectorXd::Ones(1)); },
      "normalJacobian");
  test::expectErrorNaming([&] { ImpactProblem::planar(M, J, J, -Eigen::VectorXd::Ones(1)); },
                          "friction");
  test::expectErrorNaming(
      [&] {
        ImpactProblem::spatial(M, J, Eigen::MatrixXd::Ones(2, 3), Eigen::VectorXd::Ones(1), 3);
      },
      "directions");
}

}  // namespace
}  // namespace carom::core::routh
