// Cost of Halm & Posa's impact model on the paper's examples (Table 3 reports 0.7–1.3 ms per LCP
// and 1.6–11 ms per sample in MATLAB + PATH): one step LCP (75) with random caps, one Algorithm 1
// sample, and a 2^14-sample set of the rocking block on 1, 2 and 4 threads. No main(): the
// benchmark program links benchmark_main.
#include <benchmark/benchmark.h>

#include <limits>

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

// A column of `boxes` unit cubes (1 kg) on the ground, each face held at its four corners, every
// box falling 0.05 m/s faster than the one under it: the simultaneous impact of a stack that a
// step's gravity let sag, 4·boxes contacts of (3 + 8) step-LCP variables each.
struct BoxStack {
  Eigen::MatrixXd M, Jn, Jt;
  Eigen::VectorXd friction, vMinus;
};

BoxStack boxStack(int boxes) {
  const Eigen::Index n = 6 * boxes, m = 4 * boxes;
  BoxStack stack{Eigen::MatrixXd::Identity(n, n), Eigen::MatrixXd::Zero(m, n),
                 Eigen::MatrixXd::Zero(2 * m, n), Eigen::VectorXd::Constant(m, 0.5),
                 Eigen::VectorXd::Zero(n)};
  const Eigen::Vector3d directions[3] = {Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX(),
                                         Eigen::Vector3d::UnitY()};
  for (int b = 0; b < boxes; ++b) {
    stack.M.block<3, 3>(6 * b + 3, 6 * b + 3) *= 1.0 / 6.0;  // a unit cube's inertia
    stack.vMinus(6 * b + 2) = -0.2 - 0.05 * b;
    for (int corner = 0; corner < 4; ++corner) {
      const Eigen::Index i = 4 * b + corner;
      const Eigen::Vector3d offset(corner % 2 ? 0.5 : -0.5, corner / 2 ? 0.5 : -0.5, -0.5);
      // Contact i: box b − 1 (or the ground) is A, box b is B, at box b's bottom corner.
      for (int d = 0; d < 3; ++d) {
        Eigen::MatrixXd& J = d == 0 ? stack.Jn : stack.Jt;
        const Eigen::Index row = d == 0 ? i : 2 * i + d - 1;
        J.block<1, 3>(row, 6 * b) = directions[d].transpose();
        J.block<1, 3>(row, 6 * b + 3) = offset.cross(directions[d]).transpose();
        if (b > 0) {
          const Eigen::Vector3d top(offset.x(), offset.y(), 0.5);
          J.block<1, 3>(row, 6 * (b - 1)) = -directions[d].transpose();
          J.block<1, 3>(row, 6 * (b - 1) + 3) = -top.cross(directions[d]).transpose();
        }
      }
    }
  }
  return stack;
}

ImpactProblem problemOf(const BoxStack& stack) {
  return ImpactProblem::spatial(stack.M, stack.Jn, stack.Jt, stack.friction);
}

// Building the stack's impact problem: W (75b) and M⁻¹J̄ᵀ, once per simultaneous impact.
void BM_RouthBoxStackProblem(benchmark::State& state) {
  const BoxStack stack = boxStack(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const ImpactProblem problem = problemOf(stack);
    benchmark::DoNotOptimize(problem.stepMatrix().data());
  }
  state.counters["contacts"] = static_cast<double>(stack.Jn.rows());
}
BENCHMARK(BM_RouthBoxStackProblem)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// One step LCP of the stack with every cap infinite (Anitescu–Potra's inelastic impact), the cost
// that grows with the stack.
void BM_RouthBoxStackStep(benchmark::State& state) {
  const BoxStack stack = boxStack(static_cast<int>(state.range(0)));
  const ImpactProblem problem = problemOf(stack);
  const Eigen::VectorXd& vMinus = stack.vMinus;
  const Eigen::VectorXd caps =
      Eigen::VectorXd::Constant(problem.contacts(), std::numeric_limits<double>::infinity());
  std::uint64_t j = 0;
  for (auto _ : state) {
    const StepResult step = solveStep(problem, vMinus, caps, j++);
    if (!step.solved()) state.SkipWithError(step.message.c_str());
    benchmark::DoNotOptimize(step.v.data());
  }
  state.counters["variables"] = static_cast<double>(problem.stepMatrix().rows());
}
BENCHMARK(BM_RouthBoxStackStep)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);

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
