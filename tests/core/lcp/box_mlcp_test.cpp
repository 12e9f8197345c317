#include "carom/core/lcp/box_mlcp.h"

#include <gtest/gtest.h>

#include <cmath>

#include "carom/core/lcp/pgs.h"
#include "core/lcp/cases.h"

namespace carom::core::lcp {
namespace {

using test::Random;
using namespace test::lcp;
using test::expectErrorNaming;

constexpr double kTolerance = 1e-9;

// Checks the box complementarity of result.h directly: lo ≤ z ≤ hi, and w_i ≥ 0 unless z_i is at
// hi_i, w_i ≤ 0 unless z_i is at lo_i (each to the stated bound).
void expectSolvesBox(const LcpResult& result, const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& lo, const Eigen::VectorXd& hi) {
  ASSERT_TRUE(result.solved()) << toString(result.status) << ": " << result.message;
  const double bound = kTolerance * std::max(1.0, q.lpNorm<Eigen::Infinity>());
  const Eigen::VectorXd w = M * result.z + q;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    EXPECT_GE(result.z(i), lo(i)) << "i = " << i;
    EXPECT_LE(result.z(i), hi(i)) << "i = " << i;
    if (result.z(i) > lo(i) + bound) {
      EXPECT_LE(w(i), bound) << "i = " << i;
    }
    if (result.z(i) < hi(i) - bound) {
      EXPECT_GE(w(i), -bound) << "i = " << i;
    }
  }
}

// Bounds with a bit of everything: caps that bind, infinite caps, negative lower bounds (friction
// rows), and lo = hi (a fixed variable).
void randomBounds(Random& random, Eigen::Index n, Eigen::VectorXd& lo, Eigen::VectorXd& hi) {
  lo.resize(n);
  hi.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double kind = random.uniform(0.0, 1.0);
    lo(i) = kind < 0.5 ? 0.0 : random.uniform(-1.0, 0.0);
    hi(i) = kind < 0.2 ? INFINITY : kind < 0.25 ? lo(i) : lo(i) + random.uniform(0.0, 1.0);
  }
}

TEST(BoxLemke, SolvesSpdBoxProblemsAndAgreesWithPgs) {
  // SPD M: the box problem has exactly one solution, which both methods must find.
  Random random(201);
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Index n = 1 + trial % 10;
    const Eigen::MatrixXd M = spdMatrix(random, n);
    const Eigen::VectorXd q = 3.0 * uniformVector(random, n);
    Eigen::VectorXd lo, hi;
    randomBounds(random, n, lo, hi);
    const LcpResult lemke = solveBoxLemke(M, q, lo, hi);
    expectSolvesBox(lemke, M, q, lo, hi);
    PgsOptions pgsOptions;
    pgsOptions.maxIterations = 100000;
    pgsOptions.residualTolerance = 1e-12;
    const LcpResult pgs = solvePgs(M, q, lo, hi, Eigen::VectorXd::Zero(n), pgsOptions);
    ASSERT_TRUE(pgs.solved()) << pgs.message;
    ASSERT_LE((lemke.z - pgs.z).lpNorm<Eigen::Infinity>(), 1e-8) << "trial " << trial;
  }
}

TEST(BoxLemke, SolvesCopositivePlusBoxProblems) {
  // Non-symmetric PSD and copositive-plus M: the reduction keeps the class (box_mlcp.h), so Lemke
  // must solve every instance, even though solutions need not be unique.
  Random random(202);
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Index n = 1 + trial % 10;
    const Eigen::MatrixXd M = trial % 2 ? psdMatrix(random, n) : copositivePlusMatrix(random, n);
    const Eigen::VectorXd q = 3.0 * uniformVector(random, n);
    Eigen::VectorXd lo, hi;
    randomBounds(random, n, lo, hi);
    LemkeOptions options;
    options.coveringVector = randomCoveringVector(n, trial);
    expectSolvesBox(solveBoxLemke(M, q, lo, hi, options), M, q, lo, hi);
  }
}

TEST(BoxLemke, MatchesLemkeOnTheStandardLcp) {
  Random random(203);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Index n = 1 + trial % 8;
    const Eigen::MatrixXd M = pMatrix(random, n, trial);
    const Eigen::VectorXd q = uniformVector(random, n);
    const LcpResult box =
        solveBoxLemke(M, q, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Constant(n, INFINITY));
    const LcpResult standard = solveLemke(M, q);
    ASSERT_TRUE(box.solved() && standard.solved());
    ASSERT_LE((box.z - standard.z).lpNorm<Eigen::Infinity>(), 1e-9);
  }
}

TEST(BoxLemke, HoldsACapAndAFixedVariable) {
  // One contact, K = 2, approach velocity −10, cap 1: the cap binds and the contact is still
  // approaching (w = −8 < 0), the Halm–Posa step's "full cap" case (digest §4.3).
  const Eigen::MatrixXd M = Eigen::MatrixXd::Constant(1, 1, 2.0);
  const LcpResult capped = solveBoxLemke(M, Eigen::VectorXd::Constant(1, -10.0),
                                         Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  ASSERT_TRUE(capped.solved());
  EXPECT_NEAR(capped.z(0), 1.0, 1e-12);
  EXPECT_NEAR(capped.w(0), -8.0, 1e-12);
  // A generous cap: the contact stops exactly (w = 0) at z = 5.
  const LcpResult free = solveBoxLemke(M, Eigen::VectorXd::Constant(1, -10.0),
                                       Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 9.0));
  EXPECT_NEAR(free.z(0), 5.0, 1e-12);
  // lo = hi pins the variable whatever w is.
  const LcpResult fixed =
      solveBoxLemke(M, Eigen::VectorXd::Constant(1, 3.0), Eigen::VectorXd::Constant(1, 0.5),
                    Eigen::VectorXd::Constant(1, 0.5));
  ASSERT_TRUE(fixed.solved());
  EXPECT_EQ(fixed.z(0), 0.5);
}

TEST(BoxLemke, RejectsBadInputNamingTheParameter) {
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(2);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(2), one = Eigen::VectorXd::Ones(2);
  expectErrorNaming([&] { solveBoxLemke(M, q, one, zero); }, "lo[0] > hi[0]");
  expectErrorNaming([&] { solveBoxLemke(M, q, Eigen::VectorXd::Zero(3), one); }, "lower bound lo");
  expectErrorNaming([&] { solveBoxLemke(M, q, zero, Eigen::VectorXd::Ones(1)); }, "upper bound hi");
  expectErrorNaming([&] { solveBoxLemke(M, q, Eigen::Vector2d(0.0, -INFINITY), one); },
                    "lo[1] must be finite");
  expectErrorNaming([&] { solveBoxLemke(M, q, zero, Eigen::Vector2d(NAN, 1.0)); }, "hi[0]");
  expectErrorNaming([&] { solveBoxLemke(Eigen::MatrixXd::Ones(2, 1), q, zero, one); }, "square");
  LemkeOptions options;
  options.coveringVector = Eigen::VectorXd::Ones(4);
  expectErrorNaming([&] { solveBoxLemke(M, q, zero, one, options); }, "covering vector");
}

}  // namespace
}  // namespace carom::core::lcp
