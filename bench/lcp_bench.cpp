// Cost of one LCP solve: Lemke on random P-matrix LCPs of the sizes one Halm–Posa step produces
// for a few contacts (digest §8 reports ≈ 3–6 µs at n = 10), and one warm- and cold-started PGS
// solve. No main(): the benchmark program links benchmark_main.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <limits>
#include <random>
#include <vector>

#include "carom/core/lcp/lemke.h"
#include "carom/core/lcp/pgs.h"

namespace {

using carom::core::lcp::LcpResult;

// A fixed batch of LCPs per size, so the loop times the solver, not the generator, and the
// number of pivots averages over instances instead of repeating one.
struct Batch {
  std::vector<Eigen::MatrixXd> M;
  std::vector<Eigen::VectorXd> q;
};

// Positive definite, non-symmetric (SPD + skew): a P-matrix, so every instance has one solution.
// With `symmetric`, the skew part is left out (PGS converges only for symmetric M).
Batch randomBatch(Eigen::Index n, bool symmetric) {
  std::mt19937_64 engine(1234 + n);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  const auto random = [&](Eigen::Index rows, Eigen::Index cols) {
    Eigen::MatrixXd A(rows, cols);
    for (double& a : A.reshaped())
      a = entry(engine);
    return A;
  };
  Batch batch;
  for (int i = 0; i < 64; ++i) {
    const Eigen::MatrixXd A = random(n, n), S = random(n, n);
    Eigen::MatrixXd M = A * A.transpose() + 0.1 * n * Eigen::MatrixXd::Identity(n, n);
    if (!symmetric) M += S - S.transpose();
    batch.M.push_back(M);
    batch.q.push_back(random(n, 1));
  }
  return batch;
}

void BM_LemkePMatrix(benchmark::State& state) {
  const Batch batch = randomBatch(state.range(0), /*symmetric=*/false);
  std::size_t i = 0;
  for (auto _ : state) {
    const LcpResult result = carom::core::lcp::solveLemke(batch.M[i], batch.q[i]);
    if (!result.solved()) state.SkipWithError(result.message.c_str());
    benchmark::DoNotOptimize(result.z.data());
    i = (i + 1) % batch.M.size();
  }
}
BENCHMARK(BM_LemkePMatrix)->Arg(2)->Arg(4)->Arg(8)->Arg(16);

// state.range(1) = 1: warm start from the solution of a problem with q perturbed by 1e-3, the
// persistent-contact case; 0: cold start from z = 0.
void BM_Pgs(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const bool warm = state.range(1) != 0;
  const Batch batch = randomBatch(n, /*symmetric=*/true);
  const Eigen::VectorXd lo = Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd hi = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
  std::vector<Eigen::VectorXd> starts;
  for (std::size_t k = 0; k < batch.M.size(); ++k) {
    const Eigen::VectorXd nearby = batch.q[k] + 1e-3 * Eigen::VectorXd::Ones(n);
    starts.push_back(warm ? carom::core::lcp::solvePgs(batch.M[k], nearby, lo, hi, lo).z : lo);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const LcpResult result = carom::core::lcp::solvePgs(batch.M[i], batch.q[i], lo, hi, starts[i]);
    if (!result.solved()) state.SkipWithError(result.message.c_str());
    benchmark::DoNotOptimize(result.z.data());
    i = (i + 1) % batch.M.size();
  }
}
BENCHMARK(BM_Pgs)->ArgsProduct({{2, 4, 8, 16}, {0, 1}});

}  // namespace
