// Cross-check of carom's Lemke against Siconos numerics (STYLE.md, "Test against peers"): its
// lexicographic Lemke (lcp_lexicolemke) and its enumerative solver (lcp_enum), on the same seeded
// random instances. Where the LCP has one solution (P-matrices) the three answers must agree;
// where it may have several (PSD, copositive-plus) each answer must pass the same residual check.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "carom/core/lcp/lemke.h"
#include "core/lcp/cases.h"

// The Siconos headers are C with extern "C" guards (BUILD_AS_CPP is off in the Debian build).
#include "LCP_Solvers.h"
#include "LinearComplementarityProblem.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

// Siconos 4.4's option and enumeration setup leaks a few small blocks per solve (inside
// libsiconos_numerics, after solver_options_delete and lcp_enum_reset). Not ours to fix; tell
// LeakSanitizer (./run sanitize) to ignore leaks allocated there. Unused without a sanitizer.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libsiconos_numerics.so\n";
}

namespace carom::core::lcp {
namespace {

using test::Random;
using namespace test::lcp;

constexpr double kTolerance = 1e-9;

struct SiconosAnswer {
  int info = -1;  // 0: success
  Eigen::VectorXd z, w;
};

enum class SiconosSolver { kLexicoLemke, kEnum };

SiconosAnswer solveWithSiconos(SiconosSolver solver, const Eigen::MatrixXd& M,
                               const Eigen::VectorXd& q) {
  const int n = static_cast<int>(q.size());
  NumericsMatrix* matrix = NM_create(NM_DENSE, n, n);
  std::memcpy(matrix->matrix0, M.data(), sizeof(double) * n * n);  // both column-major
  Eigen::VectorXd qCopy = q;
  LinearComplementarityProblem problem{n, matrix, qCopy.data()};
  SiconosAnswer answer;
  answer.z = Eigen::VectorXd::Zero(n);
  answer.w = Eigen::VectorXd::Zero(n);
  if (solver == SiconosSolver::kLexicoLemke) {
    SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
    lcp_lexicolemke(&problem, answer.z.data(), answer.w.data(), &answer.info, options);
    solver_options_delete(options);
  } else {
    SolverOptions* options = solver_options_create(SICONOS_LCP_ENUM);
    lcp_enum_init(&problem, options, 1);
    lcp_enum(&problem, answer.z.data(), answer.w.data(), &answer.info, options);
    lcp_enum_reset(&problem, options, 1);
    solver_options_delete(options);
  }
  NM_clear(matrix);   // the contents
  std::free(matrix);  // the struct NM_create allocated
  return answer;
}

double lcpResidual(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z) {
  const Eigen::Index n = q.size();
  return naturalResidual(z, M * z + q, Eigen::VectorXd::Zero(n),
                         Eigen::VectorXd::Constant(n, INFINITY));
}

// The worst numbers over a family, printed so that a run documents them.
struct Worst {
  int instances = 0;
  double caromResidual = 0.0, lemkeResidual = 0.0, enumResidual = 0.0;
  double lemkeDifference = 0.0, enumDifference = 0.0;

  void print(const char* family) const {
    std::printf(
        "[siconos] %s: %d instances; max residual carom %.3g, lexicolemke %.3g, enum %.3g; "
        "max |z − z_carom| lexicolemke %.3g, enum %.3g\n",
        family, instances, caromResidual, lemkeResidual, enumResidual, lemkeDifference,
        enumDifference);
  }
};

// Solves one instance three ways, checks each answer, and records the worst numbers. `unique`:
// the LCP has one solution, so the z must agree too; otherwise the differences are only reported.
void crossCheck(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, bool unique, Worst& worst) {
  const double bound = kTolerance * std::max(1.0, q.lpNorm<Eigen::Infinity>());
  const LcpResult carom = solveLemke(M, q);
  expectSolvesLcp(carom, M, q, kTolerance);
  const SiconosAnswer lemke = solveWithSiconos(SiconosSolver::kLexicoLemke, M, q);
  const SiconosAnswer enumerated = solveWithSiconos(SiconosSolver::kEnum, M, q);
  ASSERT_EQ(lemke.info, 0) << "lcp_lexicolemke failed";
  ASSERT_EQ(enumerated.info, 0) << "lcp_enum failed";
  const double lemkeResidual = lcpResidual(M, q, lemke.z);
  const double enumResidual = lcpResidual(M, q, enumerated.z);
  EXPECT_LE(lemkeResidual, bound);
  EXPECT_LE(enumResidual, bound);
  ++worst.instances;
  worst.caromResidual = std::max(worst.caromResidual, carom.residual);
  worst.lemkeResidual = std::max(worst.lemkeResidual, lemkeResidual);
  worst.enumResidual = std::max(worst.enumResidual, enumResidual);
  const double lemkeDifference = (lemke.z - carom.z).lpNorm<Eigen::Infinity>();
  const double enumDifference = (enumerated.z - carom.z).lpNorm<Eigen::Infinity>();
  if (unique) {
    EXPECT_LE(lemkeDifference, 1e-8);
    EXPECT_LE(enumDifference, 1e-8);
  }
  worst.lemkeDifference = std::max(worst.lemkeDifference, lemkeDifference);
  worst.enumDifference = std::max(worst.enumDifference, enumDifference);
}

// lcp_enum visits up to 2ⁿ index sets, so n stays at most 10.
TEST(SiconosCrossCheck, PMatrixLcpsHaveTheSameSolution) {
  Random random(401);
  Worst worst;
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Index n = 1 + trial % 10;
    const Eigen::MatrixXd M = pMatrix(random, n, trial);
    crossCheck(M, uniformVector(random, n), /*unique=*/true, worst);
  }
  worst.print("P-matrix");
}

TEST(SiconosCrossCheck, PsdLcpsAllPassTheResidualCheck) {
  Random random(402);
  Worst worst;
  for (int trial = 0; trial < 500; ++trial) {
    const Eigen::Index n = 1 + trial % 10;
    const Eigen::MatrixXd M = psdMatrix(random, n);
    crossCheck(M, feasibleQ(random, M, /*degenerate=*/trial % 2 == 1), /*unique=*/false, worst);
  }
  worst.print("PSD (feasible, half degenerate)");
}

TEST(SiconosCrossCheck, CopositivePlusLcpsAllPassTheResidualCheck) {
  Random random(403);
  Worst worst;
  for (int trial = 0; trial < 500; ++trial) {
    const Eigen::Index n = 1 + trial % 10;
    crossCheck(copositivePlusMatrix(random, n), uniformVector(random, n), /*unique=*/false, worst);
  }
  worst.print("copositive-plus");
}

// Problems of a few dozen contacts' size, sparse as theirs are: from 32 variables Lemke takes its
// pivots' products over nonzeros (lemke.cpp, Tableau). lcp_enum cannot go this far; Siconos'
// lexicographic Lemke is the peer. P-matrices must give its solution; singular PSD ones with
// degenerate solutions, whose ratio tests tie, must pass the residual check.
TEST(SiconosCrossCheck, LargeSparseLcpsAgreeWithLexicoLemke) {
  Random random(404);
  Worst worst;
  for (int trial = 0; trial < 48; ++trial) {
    const Eigen::Index n = 32 + 8 * (trial % 12), band = 1 + (trial / 2) % 3;
    const bool unique = trial % 2 == 0;
    const Eigen::MatrixXd M =
        unique ? bandedMatrix(random, n, n, band, 0.1) : bandedMatrix(random, n, n / 2, 1, 0.0);
    ASSERT_LT((M.array() != 0.0).count(), n * n / 2) << "not sparse: trial " << trial;
    const Eigen::VectorXd q =
        unique ? uniformVector(random, n) : feasibleQ(random, M, /*degenerate=*/true);
    const double bound = kTolerance * std::max(1.0, q.lpNorm<Eigen::Infinity>());
    const LcpResult carom = solveLemke(M, q);
    expectSolvesLcp(carom, M, q, kTolerance);
    const SiconosAnswer lemke = solveWithSiconos(SiconosSolver::kLexicoLemke, M, q);
    ASSERT_EQ(lemke.info, 0) << "lcp_lexicolemke failed: trial " << trial;
    const double residual = lcpResidual(M, q, lemke.z);
    EXPECT_LE(residual, bound);
    const double difference = (lemke.z - carom.z).lpNorm<Eigen::Infinity>();
    if (unique) {
      EXPECT_LE(difference, 1e-8) << "trial " << trial;
    }
    ++worst.instances;
    worst.caromResidual = std::max(worst.caromResidual, carom.residual);
    worst.lemkeResidual = std::max(worst.lemkeResidual, residual);
    if (unique) worst.lemkeDifference = std::max(worst.lemkeDifference, difference);
  }
  worst.print("sparse, 32 to 120 variables (half P, half singular PSD and degenerate)");
}

}  // namespace
}  // namespace carom::core::lcp
