#include "carom/core/routh/sample_set.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "carom/core/routh/seeding.h"
#include "carom/error.h"

namespace carom::core::routh {
namespace {

// Stream ids under the set's seed, so caps and covering vectors never share random bits.
constexpr std::uint64_t kCoveringStream = 1;
constexpr std::uint64_t kFinishingStream = 2;

// Algorithm 2's extra step f_q(v, (ε/(3ψ))·1), folded into the outcome.
void finish(const ImpactProblem& problem, double cap, std::uint64_t seed, const SimOptions& sim,
            ImpactOutcome& outcome) {
  const StepResult step = solveStep(
      problem, outcome.v, Eigen::VectorXd::Constant(problem.contacts(), cap), seed, sim.step);
  if (!step.solved()) {
    outcome.status = SimStatus::kStepFailed;
    outcome.message = "finishing step: " + step.message;
    return;
  }
  outcome.v = step.v;
  outcome.impulseN += step.lambdaN;
  outcome.impulseD += step.lambdaD;
  ++outcome.steps;
  if (approaching(problem, outcome.v, sim.terminationTolerance)) {
    outcome.status = SimStatus::kStepLimit;
    outcome.message = "still approaching after the finishing step";
  } else {
    outcome.status = SimStatus::kTerminated;
    outcome.message.clear();
  }
}

}  // namespace

std::vector<Eigen::VectorXd> ImpactSet::postImpactVelocities() const {
  std::vector<Eigen::VectorXd> velocities;
  velocities.reserve(outcomes.size());
  for (const ImpactOutcome& outcome : outcomes)
    if (outcome.terminated()) velocities.push_back(outcome.v);
  return velocities;
}

std::size_t ImpactSet::terminatedCount() const {
  return static_cast<std::size_t>(
      std::count_if(outcomes.begin(), outcomes.end(),
                    [](const ImpactOutcome& outcome) { return outcome.terminated(); }));
}

double ImpactSet::meanSteps() const {
  double steps = 0.0;
  for (const ImpactOutcome& outcome : outcomes)
    steps += outcome.steps;
  return outcomes.empty() ? 0.0 : steps / static_cast<double>(outcomes.size());
}

ImpactSet sampleImpactSet(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                          double stepSize, const SampleSetOptions& options) {
  problem.checkVelocity(vMinus, "velocity");
  if (options.samples < 0) throw Error("samples must be ≥ 0");
  if (options.threads < 1) throw Error("threads must be at least 1");
  if (!(options.finishingEpsilon >= 0.0) || !std::isfinite(options.finishingEpsilon)) {
    throw Error("finishingEpsilon must be finite and ≥ 0");
  }
  if (!(options.sim.terminationTolerance >= 0.0)) throw Error("terminationTolerance must be ≥ 0");
  if (options.sim.step.maxAttempts < 1) throw Error("maxAttempts must be at least 1");
  const CapSampler sampler(options.distribution, stepSize, problem.contacts(), options.sim.maxSteps,
                           options.seed);
  const double finishingCap = options.finishingEpsilon > 0.0
                                  ? options.finishingEpsilon / (3.0 * problem.algorithm2Psi())
                                  : 0.0;
  const std::uint64_t coveringSeed = mixSeed(options.seed, kCoveringStream);
  const std::uint64_t finishingSeed = mixSeed(options.seed, kFinishingStream);

  ImpactSet set;
  set.outcomes.resize(static_cast<std::size_t>(options.samples));
  // Every input is checked above, so a worker cannot throw carom::Error.
  const auto run = [&](std::size_t begin, std::size_t end) {
    for (std::size_t j = begin; j < end; ++j) {
      SampledCaps caps(sampler, j);
      ImpactOutcome& outcome = set.outcomes[j];
      outcome = simulate(problem, vMinus, caps, mixSeed(coveringSeed, j), options.sim);
      if (finishingCap > 0.0 && outcome.status != SimStatus::kStepFailed) {
        finish(problem, finishingCap, mixSeed(finishingSeed, j), options.sim, outcome);
      }
    }
  };
  const std::size_t count = set.outcomes.size();
  const std::size_t threads =
      std::min<std::size_t>(options.threads, std::max<std::size_t>(count, 1));
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t)
    workers.emplace_back(run, count * t / threads, count * (t + 1) / threads);
  run(0, count / threads);
  for (std::thread& worker : workers)
    worker.join();
  return set;
}

}  // namespace carom::core::routh
