#include "carom/core/lcp/lemke.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <tuple>

#include "core/lcp/cases.h"
#include "support/same_entries.h"

namespace carom::core::lcp {
namespace {

using test::Random;
using namespace test::lcp;
using test::expectErrorNaming;

// The tolerance the tests state for every answer: the solver's default residual tolerance.
constexpr double kTolerance = 1e-9;

TEST(Lemke, SolvesRandomPMatrixLcps) {
  // A P-matrix LCP has exactly one solution for every q, so a random covering vector must find the
  // same one as d = 1.
  Random random(101);
  for (int trial = 0; trial < 3000; ++trial) {
    const Eigen::Index n = 1 + trial % 12;
    const Eigen::MatrixXd M = pMatrix(random, n, trial);
    const Eigen::VectorXd q = uniformVector(random, n);
    const LcpResult plain = solveLemke(M, q);
    expectSolvesLcp(plain, M, q, kTolerance);
    LemkeOptions covered;
    covered.coveringVector = randomCoveringVector(n, trial);
    const LcpResult randomized = solveLemke(M, q, covered);
    expectSolvesLcp(randomized, M, q, kTolerance);
    ASSERT_LE((plain.z - randomized.z).lpNorm<Eigen::Infinity>(), 1e-8) << "trial " << trial;
  }
}

TEST(Lemke, SolvesFeasiblePsdLcps) {
  Random random(102);
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Index n = 1 + trial % 12;
    const Eigen::MatrixXd M = psdMatrix(random, n);
    const Eigen::VectorXd q = feasibleQ(random, M, /*degenerate=*/false);
    expectSolvesLcp(solveLemke(M, q), M, q, kTolerance);
  }
}

TEST(Lemke, SolvesCopositivePlusLcps) {
  Random random(103);
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Index n = 1 + trial % 12;
    const Eigen::MatrixXd M = copositivePlusMatrix(random, n);
    const Eigen::VectorXd q = uniformVector(random, n);
    expectSolvesLcp(solveLemke(M, q), M, q, kTolerance);
  }
}

TEST(Lemke, SolvesDegenerateLcpsWithDegenerateSolutions) {
  // z*_i = w*_i = 0 for a third of the indices: basic variables at zero along the path, so the
  // minimum-ratio test ties and only the lexicographic rule decides.
  Random random(104);
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::Index n = 2 + trial % 11;
    const Eigen::MatrixXd M = trial % 2 ? psdMatrix(random, n) : pMatrix(random, n, trial / 2);
    const Eigen::VectorXd q = feasibleQ(random, M, /*degenerate=*/true);
    expectSolvesLcp(solveLemke(M, q), M, q, kTolerance);
  }
}

TEST(Lemke, SolvesLcpsWithRepeatedColumnsAndTiedRatios) {
  // Every entry of q equal with d = 1: the first ratio test ties across all rows. Repeated columns
  // (and rows) of M make later ratio tests tie as well. Breaking the ties by the first tied row
  // instead of lexicographically makes this test fail.
  Random random(105);
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Index n = 2 + trial % 9;
    const Eigen::MatrixXd B = gaussianLike(random, n, 2);
    Eigen::MatrixXd M = B * B.transpose();  // PSD, rank 2
    const Eigen::Index copy = trial % n, original = (trial + 1) % n;
    M.col(copy) = M.col(original);
    M.row(copy) = M.row(original);  // still PSD: the same variable twice
    M += 0.5 * Eigen::MatrixXd::Ones(n, n);
    const Eigen::VectorXd q = -Eigen::VectorXd::Ones(n);
    expectSolvesLcp(solveLemke(M, q), M, q, kTolerance);
  }
  const Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(4, 4);
  const Eigen::VectorXd q = Eigen::Vector4d(-1.0, -1.0, 0.0, -1.0);
  expectSolvesLcp(solveLemke(ones, q), ones, q, kTolerance);
}

TEST(Lemke, SolvesHalmPosaStepLcps) {
  // The step LCP of the simultaneous-impact law, with the random covering vectors the sampler uses
  // (digest §8). The digest saw double-precision failures only from m = 8 on; up to m = 4 every
  // instance must be solved.
  Random random(108);
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Index m = 1 + trial % 4;
    Eigen::MatrixXd W;
    Eigen::VectorXd w;
    halmPosaStepLcp(random, m, W, w);
    LemkeOptions options;
    options.coveringVector = randomCoveringVector(5 * m, trial);
    expectSolvesLcp(solveLemke(W, w, options), W, w, kTolerance);
  }
}

TEST(Lemke, SolvesAnIllConditionedLcpWhoseLastBasisIsOneIndexOff) {
  // Found by carom-fuzz-laws: M = A Aᵀ + 1e-3 I with four equal rows of A (condition number 3e4).
  // Lemke's last basis leaves w_1 basic at −5.7e-9 where the solution has z_1 = 5.3e-6; without
  // the principal-pivoting polish its answer fails the residual check.
  const double a = -0x1.cdcdcdcdcdcdcp-2;
  Eigen::MatrixXd A(7, 7);
  A.row(0) << 0x1.4747474747452p-1, a, a, a, a, a, a;
  A.row(1).setConstant(a);
  A.row(2) << -0x1.cdc9709971718p-2, 0x1.4747474747474p-1, 0x1.4545454145654p-1,
      -0x1.d5d5d5d5d5ep-4, -0x1.fffffffffffe8p-1, -0x1.ff7f1687aa2p-1, -1.0;
  A.bottomRows(4).setConstant(-1.0);
  Eigen::VectorXd q(7);
  q << -0x1.6ffffffffebacp-1, a, a, -0x1.ffffbfc6bbfcp-1, -1.0, -1.0, -1.0;
  const Eigen::MatrixXd M = A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(7, 7);
  const LcpResult result = solveLemke(M, q);
  expectSolvesLcp(result, M, q, kTolerance);
  EXPECT_NEAR(result.z(1), 5.2986e-6, 1e-9);  // the enumerated solution's (support {0,1,2,4,5,6})
}

// Murty's LCPs (Murty 1978): M lower triangular with 1 on the diagonal and 2 below it, q = −1.
// Lemke with d = 1 takes 2ⁿ pivots to its one solution z = e₁ (w = (0, 1, …, 1)): many times n,
// so the tableau's etas are folded into its explicit B⁻¹ again and again (lemke.cpp, Tableau).
TEST(Lemke, TakesTwoToTheNPivotsOnMurtysLcpsAndSolvesThem) {
  for (Eigen::Index n = 2; n <= 11; ++n) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n);
    M.triangularView<Eigen::StrictlyLower>().setConstant(2.0);
    const Eigen::VectorXd q = -Eigen::VectorXd::Ones(n);
    LemkeOptions options;
    options.maxPivots = 1 << 12;
    const LcpResult result = solveLemke(M, q, options);
    expectSolvesLcp(result, M, q, kTolerance);
    EXPECT_EQ(result.steps, 1 << n) << n;
    EXPECT_LE((result.z - Eigen::VectorXd::Unit(n, 0)).lpNorm<Eigen::Infinity>(), kTolerance) << n;
  }
}

TEST(Lemke, SolvesZeroQAndTheEmptyProblemWithoutPivoting) {
  const Eigen::MatrixXd M =
      -Eigen::MatrixXd::Identity(3, 3);  // no class at all: z = 0 still solves
  const LcpResult zero = solveLemke(M, Eigen::VectorXd::Zero(3));
  expectSolvesLcp(zero, M, Eigen::VectorXd::Zero(3), kTolerance);
  EXPECT_EQ(zero.steps, 0);
  EXPECT_TRUE(zero.z.isZero(0.0));
  const LcpResult empty = solveLemke(Eigen::MatrixXd(0, 0), Eigen::VectorXd(0));
  EXPECT_TRUE(empty.solved());
  EXPECT_EQ(empty.z.size(), 0);
}

TEST(Lemke, ReportsRayTerminationOnHandMadeInfeasibleLcps) {
  // w1 = z1 − z2 − 1 and w2 = z2 − z1 − 1 cannot both be ≥ 0 (their sum is −2); M is PSD.
  Eigen::MatrixXd psd(2, 2);
  psd << 1.0, -1.0, -1.0, 1.0;
  const LcpResult r1 = solveLemke(psd, Eigen::Vector2d(-1.0, -1.0));
  EXPECT_EQ(r1.status, LcpStatus::kRayTermination);
  EXPECT_NE(r1.message.find("secondary ray"), std::string::npos) << r1.message;
  // w = −z − 1 < 0 for every z ≥ 0.
  const LcpResult r2 = solveLemke(-Eigen::MatrixXd::Identity(3, 3), -Eigen::VectorXd::Ones(3));
  EXPECT_EQ(r2.status, LcpStatus::kRayTermination);
  EXPECT_FALSE(r2.solved());
}

TEST(Lemke, ReportsRayTerminationOnRandomInfeasiblePsdLcps) {
  // M PSD with a positive u in the null space of M and Mᵀ, and uᵀq = −1: any z ≥ 0 would give
  // uᵀw = uᵀq < 0, impossible for w ≥ 0. For copositive-plus M Lemke must end on a ray.
  Random random(106);
  for (int trial = 0; trial < 500; ++trial) {
    const Eigen::Index n = 2 + trial % 10;
    Eigen::VectorXd u(n);
    for (Eigen::Index i = 0; i < n; ++i)
      u(i) = random.uniform(0.1, 1.0);
    const Eigen::MatrixXd P = Eigen::MatrixXd::Identity(n, n) - u * u.transpose() / u.squaredNorm();
    const Eigen::MatrixXd B = P * gaussianLike(random, n, n);
    const Eigen::MatrixXd M = B * B.transpose() + P * skew(random, n) * P;
    Eigen::VectorXd q = uniformVector(random, n);
    q -= (u.dot(q) + 1.0) / u.squaredNorm() * u;
    const LcpResult result = solveLemke(M, q);
    EXPECT_EQ(result.status, LcpStatus::kRayTermination) << "trial " << trial;
  }
}

TEST(Lemke, ReportsThePivotLimit) {
  // M = I, q = −1 needs one pivot per index plus the artificial one's.
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(5, 5);
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(5);
  LemkeOptions options;
  options.maxPivots = 2;
  const LcpResult limited = solveLemke(M, q, options);
  EXPECT_EQ(limited.status, LcpStatus::kPivotLimit);
  EXPECT_EQ(limited.steps, 2);
  EXPECT_NE(limited.message.find("pivot limit"), std::string::npos);
  const LcpResult unlimited = solveLemke(M, q);
  expectSolvesLcp(unlimited, M, q, kTolerance);
  EXPECT_GT(unlimited.steps, 2);
}

TEST(Lemke, ReportsAFailedResidualCheck) {
  // A bound of 1e-300 is below round-off: an honest solver must say the check failed, with the
  // numbers, rather than call the answer solved.
  Random random(107);
  LemkeOptions strict;
  strict.residualTolerance = 1e-300;
  int failed = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::MatrixXd M = pMatrix(random, 8, trial);
    const Eigen::VectorXd q = uniformVector(random, 8);
    const LcpResult result = solveLemke(M, q, strict);
    if (result.status == LcpStatus::kResidualCheckFailed) {
      ++failed;
      EXPECT_GT(result.residual, result.residualBound);
      EXPECT_NE(result.message.find("residual"), std::string::npos);
    } else {
      EXPECT_LE(result.residual, result.residualBound);
    }
  }
  EXPECT_GT(failed, 25);
}

// A result kept from solve to solve answers as a fresh one does, bit for bit, after problems of
// other sizes and outcomes: a ray, a pivot limit, z = 0.
TEST(Lemke, AKeptResultAnswersAsAFreshOne) {
  Random random(108);
  LcpResult kept;
  for (int trial = 0; trial < 400; ++trial) {
    const Eigen::Index n = 1 + trial % 9;
    Eigen::MatrixXd M = pMatrix(random, n, trial);
    Eigen::VectorXd q = uniformVector(random, n);
    LemkeOptions options;
    if (trial % 5 == 1) {  // w = −z − 1 < 0 for every z ≥ 0: a ray
      M = -Eigen::MatrixXd::Identity(n, n);
      q = -Eigen::VectorXd::Ones(n);
    }
    if (trial % 5 == 2) options.maxPivots = 1;
    if (trial % 5 == 3) q = q.cwiseAbs();
    const LcpResult fresh = solveLemke(M, q, options);
    solveLemke(M, q, options, kept);
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    EXPECT_EQ(
        std::tie(kept.status, kept.message, kept.steps, kept.residual, kept.residualBound),
        std::tie(fresh.status, fresh.message, fresh.steps, fresh.residual, fresh.residualBound));
    EXPECT_TRUE(test::sameEntries(kept.z, fresh.z));
    EXPECT_TRUE(test::sameEntries(kept.w, fresh.w));
  }
}

TEST(Lemke, RandomCoveringVectorsReachDifferentSolutions) {
  // z1 + z2 = 1, z ≥ 0 is the whole solution set of this LCP (repeated columns). Plain Lemke picks
  // one point every time: the bias of digest §8. Random covering vectors spread over the segment.
  const Eigen::MatrixXd M = Eigen::MatrixXd::Ones(2, 2);
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(2);
  const LcpResult plain = solveLemke(M, q);
  expectSolvesLcp(plain, M, q, kTolerance);
  double least = 1.0, most = 0.0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    LemkeOptions options;
    options.coveringVector = randomCoveringVector(2, seed);
    const LcpResult result = solveLemke(M, q, options);
    expectSolvesLcp(result, M, q, kTolerance);
    least = std::min(least, result.z(0));
    most = std::max(most, result.z(0));
  }
  EXPECT_LT(least, 0.2);
  EXPECT_GT(most, 0.8);
}

TEST(Lemke, RandomCoveringVectorIsSeededAndPositive) {
  const Eigen::VectorXd a = randomCoveringVector(50, 7), b = randomCoveringVector(50, 7);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, randomCoveringVector(50, 8));
  EXPECT_GE(a.minCoeff(), 0.01);
  EXPECT_LE(a.maxCoeff(), 1.0);
}

// The vector of n entries is the head of the seed's stream, whatever was asked before on the thread
// (randomCoveringVector keeps the streams of recent seeds): a longer one after a shorter, a shorter
// after a longer, and after enough other seeds to have replaced every kept stream.
TEST(Lemke, RandomCoveringVectorIsItsSeedsStreamWhateverCameBefore) {
  const auto stream = [](Eigen::Index n, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    Eigen::VectorXd d(n);
    for (Eigen::Index i = 0; i < n; ++i)
      d(i) = 0.01 + 0.99 * (static_cast<double>(engine() >> 11) * 0x1.0p-53);
    return d;
  };
  EXPECT_EQ(randomCoveringVector(12, 99), stream(12, 99));
  EXPECT_EQ(randomCoveringVector(40, 99), stream(40, 99));
  EXPECT_EQ(randomCoveringVector(5, 99), stream(5, 99));
  for (std::uint64_t other = 100; other < 100 + 4096; other += 1)
    randomCoveringVector(3, other);
  EXPECT_EQ(randomCoveringVector(40, 99), stream(40, 99));
  EXPECT_EQ(randomCoveringVector(0, 99).size(), 0);
}

TEST(Lemke, RejectsBadInputNamingTheParameter) {
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::VectorXd q = -Eigen::VectorXd::Ones(2);
  expectErrorNaming([&] { solveLemke(Eigen::MatrixXd::Identity(2, 3), q); }, "square");
  expectErrorNaming([&] { solveLemke(M, Eigen::VectorXd::Ones(3)); }, "vector q");
  Eigen::MatrixXd badM = M;
  badM(1, 0) = NAN;
  expectErrorNaming([&] { solveLemke(badM, q); }, "matrix M");
  badM(1, 0) = -INFINITY;
  expectErrorNaming([&] { solveLemke(badM, q); }, "matrix M");
  expectErrorNaming([&] { solveLemke(M, Eigen::Vector2d(1.0, INFINITY)); }, "vector q");
  // Finite entries whose sum overflows are finite: z = 0 solves q ≥ 0.
  const Eigen::MatrixXd huge = Eigen::MatrixXd::Constant(2, 2, 1e308);
  EXPECT_TRUE(solveLemke(huge, Eigen::Vector2d(1e308, 1e308)).solved());
  LemkeOptions options;
  options.coveringVector = Eigen::VectorXd::Ones(3);
  expectErrorNaming([&] { solveLemke(M, q, options); }, "covering vector");
  options.coveringVector = Eigen::Vector2d(1.0, 0.0);
  expectErrorNaming([&] { solveLemke(M, q, options); }, "covering vector");
  options.coveringVector = Eigen::Vector2d(1.0, NAN);
  expectErrorNaming([&] { solveLemke(M, q, options); }, "covering vector");
  LemkeOptions tolerance;
  tolerance.residualTolerance = 0.0;
  expectErrorNaming([&] { solveLemke(M, q, tolerance); }, "residualTolerance");
}

}  // namespace
}  // namespace carom::core::lcp
