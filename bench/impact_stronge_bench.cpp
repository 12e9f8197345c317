// Cost of one Stronge/Jia–Wang impact (ns per impact) in the three regimes of the model:
// sliding throughout, slip that stops and sticks, and slip that stops and resumes along the
// centrifugal direction. Inputs are contact-frame W and v⁻ (digest design/digests/jia_wang.md).
#include <benchmark/benchmark.h>

#include "carom/core/impact/stronge.h"

namespace carom::core::impact {
namespace {

// Jia & Wang eq. (13), symmetrised, and the reconstructed v⁻ of Example A (digest §6.2).
Mat3 icosahedronW() {
  Mat3 W;
  W << 11.5984, -0.910367, 2.442355, -0.910367, 9.90134, 1.957465, 2.442355, 1.957465, 2.59042;
  return W;
}

void runImpact(benchmark::State& state, const Mat3& W, const Vec3& vMinus, double mu, double e) {
  StrongeParameters parameters;
  parameters.friction = mu;
  parameters.restitution = e;
  int steps = 0;
  for (auto _ : state) {
    const StrongeSolution solution = solveStrongeImpulse(W, vMinus, parameters);
    benchmark::DoNotOptimize(solution.impulse);
    steps = solution.steps;
  }
  state.counters["rk_steps"] = steps;
}

// Fig. 4(c): μ = 0.25, the slip never stops and leaves along the centrifugal direction.
void BM_StrongeSliding(benchmark::State& state) {
  runImpact(state, icosahedronW(), Vec3(-0.263568, 0.386418, -0.827174), 0.25, 0.95);
}
BENCHMARK(BM_StrongeSliding);

// Fig. 4(a), the paper's Example A: compression, the slip stops, then stick (sequence csr).
void BM_StrongeSticking(benchmark::State& state) {
  runImpact(state, icosahedronW(), Vec3(-0.263568, 0.386418, -0.0771741), 0.8, 0.95);
}
BENCHMARK(BM_StrongeSticking);

// A body pair with ‖B⁻¹d‖ > μ whose slip reaches zero before compression ends and then
// resumes along the centrifugal direction (found by a seeded random search).
void BM_StrongeSlipStopsThenResumes(benchmark::State& state) {
  Mat3 W;
  W << 0.24242, -0.0923872, -0.0591791, -0.0923872, 1.08628, -0.0724202, -0.0591791, -0.0724202,
      0.456077;
  runImpact(state, W, Vec3(0.101764, 0.00239473, -0.778188), 0.237, 0.8);
}
BENCHMARK(BM_StrongeSlipStopsThenResumes);

}  // namespace
}  // namespace carom::core::impact
