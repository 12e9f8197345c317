#include "carom/core/lcp/pgs.h"

#include <gtest/gtest.h>

#include <cmath>

#include "carom/core/lcp/lemke.h"
#include "core/lcp/cases.h"

namespace carom::core::lcp {
namespace {

using test::Random;
using namespace test::lcp;
using test::expectErrorNaming;

const Eigen::VectorXd zeros(Eigen::Index n) {
  return Eigen::VectorXd::Zero(n);
}
const Eigen::VectorXd infinities(Eigen::Index n) {
  return Eigen::VectorXd::Constant(n, INFINITY);
}

TEST(Pgs, AgreesWithLemkeOnSpdLcps) {
  Random random(301);
  PgsOptions options;
  options.maxIterations = 100000;
  options.residualTolerance = 1e-12;
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Index n = 1 + trial % 12;
    const Eigen::MatrixXd M = spdMatrix(random, n);
    const Eigen::VectorXd q = uniformVector(random, n);
    const LcpResult pgs = solvePgs(M, q, zeros(n), infinities(n), zeros(n), options);
    expectSolvesLcp(pgs, M, q, 1e-12);
    const LcpResult lemke = solveLemke(M, q);
    ASSERT_TRUE(lemke.solved());
    ASSERT_LE((pgs.z - lemke.z).lpNorm<Eigen::Infinity>(), 1e-9) << "trial " << trial;
  }
}

TEST(Pgs, WarmStartNeedsFewerSweeps) {
  // Persistent contacts: the previous step's solution of a slightly different problem.
  Random random(302);
  int coldSweeps = 0, warmSweeps = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Index n = 8;
    const Eigen::MatrixXd M = spdMatrix(random, n);
    const Eigen::VectorXd q = uniformVector(random, n);
    const LcpResult previous = solvePgs(M, q, zeros(n), infinities(n), zeros(n));
    ASSERT_TRUE(previous.solved());
    const Eigen::VectorXd next = q + 1e-3 * uniformVector(random, n);
    const LcpResult cold = solvePgs(M, next, zeros(n), infinities(n), zeros(n));
    const LcpResult warm = solvePgs(M, next, zeros(n), infinities(n), previous.z);
    ASSERT_TRUE(cold.solved() && warm.solved());
    coldSweeps += cold.steps;
    warmSweeps += warm.steps;
  }
  // PGS converges linearly, so the sweeps scale with log(initial error / tolerance): from an error
  // of ~1e-3 instead of ~1 down to 1e-9 is about two thirds of the sweeps. Ignoring the warm start
  // would give a ratio of one.
  EXPECT_LT(warmSweeps, 0.8 * coldSweeps);
}

TEST(Pgs, StartingAtTheSolutionTakesNoSweep) {
  const Eigen::MatrixXd M = Eigen::Matrix2d(Eigen::Vector2d(2.0, 1.0).asDiagonal());
  const Eigen::VectorXd q = Eigen::Vector2d(-2.0, 1.0);
  const LcpResult result = solvePgs(M, q, zeros(2), infinities(2), Eigen::Vector2d(1.0, 0.0));
  ASSERT_TRUE(result.solved());
  EXPECT_EQ(result.steps, 0);
}

TEST(Pgs, SolvesFreeVariablesAsALinearSystem) {
  Random random(303);
  const Eigen::MatrixXd M = spdMatrix(random, 6);
  const Eigen::VectorXd q = uniformVector(random, 6);
  PgsOptions options;
  options.maxIterations = 100000;
  const LcpResult result =
      solvePgs(M, q, Eigen::VectorXd::Constant(6, -INFINITY), infinities(6), zeros(6), options);
  ASSERT_TRUE(result.solved()) << result.message;
  EXPECT_LE((result.z - M.ldlt().solve(-q)).lpNorm<Eigen::Infinity>(), 1e-7);
}

TEST(Pgs, ReportsTheIterationLimit) {
  // Strongly coupled SPD matrix with an interior solution (z = (1, 1)/1.999): each sweep shrinks
  // the error by about 0.999², so two sweeps are far from enough.
  Eigen::MatrixXd M(2, 2);
  M << 1.0, 0.999, 0.999, 1.0;
  const Eigen::VectorXd q = Eigen::Vector2d(-1.0, -1.0);
  PgsOptions options;
  options.maxIterations = 2;
  const LcpResult result = solvePgs(M, q, zeros(2), infinities(2), zeros(2), options);
  EXPECT_EQ(result.status, LcpStatus::kIterationLimit);
  EXPECT_EQ(result.steps, 2);
  EXPECT_GT(result.residual, result.residualBound);
  EXPECT_NE(result.message.find("2 sweeps"), std::string::npos) << result.message;
}

TEST(Pgs, RejectsBadInputNamingTheParameter) {
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(2);
  expectErrorNaming([&] { solvePgs(M, q, zeros(2), infinities(2), zeros(3)); }, "warm start");
  expectErrorNaming([&] { solvePgs(M, q, zeros(2), infinities(2), Eigen::Vector2d(NAN, 0.0)); },
                    "warm start");
  expectErrorNaming([&] { solvePgs(M, q, Eigen::VectorXd::Ones(2), zeros(2), zeros(2)); },
                    "lo[0] > hi[0]");
  Eigen::MatrixXd singular = M;
  singular(1, 1) = 0.0;
  expectErrorNaming([&] { solvePgs(singular, q, zeros(2), infinities(2), zeros(2)); },
                    "positive diagonal");
  expectErrorNaming(
      [&] { solvePgs(M, Eigen::VectorXd::Ones(3), zeros(2), infinities(2), zeros(2)); },
      "vector q");
  PgsOptions options;
  options.maxIterations = -1;
  expectErrorNaming([&] { solvePgs(M, q, zeros(2), infinities(2), zeros(2), options); },
                    "maxIterations");
}

}  // namespace
}  // namespace carom::core::lcp
