#include "carom/core/routh/policy.h"

#include <memory>

#include "carom/core/routh/seeding.h"
#include "carom/error.h"

namespace carom::core::routh {
namespace {

constexpr std::uint64_t kCompletionStream = 3;  // covering vectors of stage (2)

std::unique_ptr<CapSchedule> scheduleFor(const ImpactProblem& problem, const ImpactPolicy& policy,
                                         std::unique_ptr<CapSampler>& sampler) {
  switch (policy.kind) {
    case PolicyKind::kSimultaneous:
      return std::make_unique<UnboundedCaps>();
    case PolicyKind::kEqualRate:
      return std::make_unique<EqualCaps>(policy.stepSize);
    case PolicyKind::kSequential:
      return std::make_unique<SequentialCaps>(policy.order, problem.contacts(),
                                              policy.sim.terminationTolerance);
    case PolicyKind::kSampled:
      sampler = std::make_unique<CapSampler>(policy.distribution, policy.stepSize,
                                             problem.contacts(), policy.sim.maxSteps, policy.seed);
      return std::make_unique<SampledCaps>(*sampler, 0);
  }
  throw Error("policy kind is not one of PolicyKind");
}

}  // namespace

PolicyResult resolveImpact(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                           const ImpactPolicy& policy) {
  std::unique_ptr<CapSampler> sampler;
  const std::unique_ptr<CapSchedule> schedule = scheduleFor(problem, policy, sampler);
  PolicyResult result;
  result.outcome = simulate(problem, vMinus, *schedule, policy.seed, policy.sim);
  if (result.outcome.terminated()) return result;

  // Stage (2): one Anitescu–Potra step from the last iterate (every earlier step dissipated).
  result.completedSimultaneously = true;
  result.message = std::string(toString(result.outcome.status)) + ": " + result.outcome.message;
  UnboundedCaps unbounded;
  SimOptions once = policy.sim;
  once.maxSteps = 1;
  const ImpactOutcome completion =
      simulate(problem, result.outcome.v, unbounded, mixSeed(policy.seed, kCompletionStream), once);
  result.outcome.v = completion.v;
  result.outcome.impulseN += completion.impulseN;
  result.outcome.impulseD += completion.impulseD;
  result.outcome.steps += completion.steps;
  result.outcome.status = completion.status;
  result.outcome.message = completion.message;
  if (!completion.terminated()) {
    result.message += "; simultaneous completion failed: " + completion.message;
  }
  return result;
}

}  // namespace carom::core::routh
