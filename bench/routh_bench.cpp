// Cost of Halm & Posa's impact model on the paper's examples (Table 3 reports 0.7–1.3 ms per LCP
// and 1.6–11 ms per sample in MATLAB + PATH): one step LCP (75) with random caps, one Algorithm 1
// sample, and a 2^14-sample set of the rocking block on 1, 2 and 4 threads. No main(): the
// benchmark program links benchmark_main.
#include <benchmark/benchmark.h>

#include "carom/core/routh/examples.h"
#include "carom/core/routh/sample_set.h"

namespace {

using namespace carom::core::routh;

ImpactExample example(int index) {
  switch (index) {
    case 0:
      return rockingBlock();
    case 1:
      return compassGait();
    case 2:
      return boxAndWall();
    default:
      return diskStack();
  }
}

constexpr const char* kNames[] = {"rocking block", "compass gait", "box and wall", "disk stack"};

// One step LCP from v⁻ with the first caps of successive samples.
void BM_RouthStepLcp(benchmark::State& state) {
  const ImpactExample e = example(static_cast<int>(state.range(0)));
  const CapSampler sampler(CapDistribution::kUniform, e.stepSize, e.problem.contacts(), 1, 7);
  std::uint64_t j = 0;
  for (auto _ : state) {
    const StepResult step = solveStep(e.problem, e.vMinus, sampler.caps(j, 0), j);
    if (!step.solved()) state.SkipWithError(step.message.c_str());
    benchmark::DoNotOptimize(step.v.data());
    ++j;
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_RouthStepLcp)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

// One Algorithm 1 sample (Table 3 "time/sample"); reports LCPs per sample as a counter.
void BM_RouthSample(benchmark::State& state) {
  const ImpactExample e = example(static_cast<int>(state.range(0)));
  const CapSampler sampler(CapDistribution::kUniform, e.stepSize, e.problem.contacts(), e.maxSteps,
                           7);
  SimOptions options;
  options.maxSteps = e.maxSteps;
  std::uint64_t j = 0;
  double steps = 0.0;
  for (auto _ : state) {
    SampledCaps caps(sampler, j);
    const ImpactOutcome outcome = simulate(e.problem, e.vMinus, caps, j, options);
    benchmark::DoNotOptimize(outcome.v.data());
    steps += outcome.steps;
    ++j;
  }
  state.counters["LCPs/sample"] = steps / static_cast<double>(j);
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_RouthSample)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

// 2^14 rocking-block samples (h = 0.3, N = 10) on state.range(0) threads; wall-clock time.
void BM_RouthRockingBlockSet(benchmark::State& state) {
  const ImpactExample e = rockingBlock();
  SampleSetOptions options;
  options.samples = 1 << 14;
  options.threads = static_cast<int>(state.range(0));
  options.sim.maxSteps = e.maxSteps;
  for (auto _ : state) {
    const ImpactSet set = sampleImpactSet(e.problem, e.vMinus, e.stepSize, options);
    benchmark::DoNotOptimize(set.outcomes.data());
  }
}
BENCHMARK(BM_RouthRockingBlockSet)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
