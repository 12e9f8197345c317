#include "carom/core/routh/sim.h"

#include "carom/core/routh/seeding.h"
#include "carom/error.h"

namespace carom::core::routh {

const char* toString(SimStatus status) {
  switch (status) {
    case SimStatus::kTerminated:
      return "terminated";
    case SimStatus::kStepLimit:
      return "step limit";
    case SimStatus::kStepFailed:
      return "step failed";
  }
  return "unknown";
}

namespace {

// Whether some contact of normal velocities `un` approaches (approaching()).
bool anyApproaches(const Eigen::VectorXd& un, double tolerance) {
  return un.minCoeff() < -tolerance;
}

}  // namespace

bool approaching(const ImpactProblem& problem, const Eigen::VectorXd& v, double tolerance) {
  return anyApproaches(problem.normalJacobian() * v, tolerance);
}

ImpactOutcome simulate(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                       CapSchedule& schedule, std::uint64_t seed, const SimOptions& options) {
  problem.checkVelocity(vMinus, "velocity");
  if (options.maxSteps < 1) throw Error("maxSteps must be at least 1");
  if (!(options.terminationTolerance >= 0.0)) throw Error("terminationTolerance must be ≥ 0");
  ImpactOutcome outcome;
  outcome.v = vMinus;
  outcome.impulseN = Eigen::VectorXd::Zero(problem.contacts());
  outcome.impulseD = Eigen::VectorXd::Zero(problem.frictionRows());
  Eigen::VectorXd normalVelocity = problem.normalJacobian() * outcome.v;  // for the caps too
  StepResult step;  // each step's result, its vectors kept from step to step
  while (anyApproaches(normalVelocity, options.terminationTolerance)) {
    if (outcome.steps == options.maxSteps) {
      outcome.status = SimStatus::kStepLimit;
      outcome.message = "still approaching after " + std::to_string(outcome.steps) + " steps";
      return outcome;
    }
    const Eigen::VectorXd caps = schedule.caps(outcome.steps, normalVelocity);
    solveStep(problem, outcome.v, caps, mixSeed(seed, static_cast<std::uint64_t>(outcome.steps)),
              options.step, step);
    if (!step.solved()) {
      outcome.status = SimStatus::kStepFailed;
      outcome.message = "step " + std::to_string(outcome.steps) + ": " + step.message;
      return outcome;
    }
    outcome.v.swap(step.v);  // v' becomes the iterate; the old iterate's storage the next v'
    outcome.impulseN += step.lambdaN;
    outcome.impulseD += step.lambdaD;
    ++outcome.steps;
    normalVelocity.noalias() = problem.normalJacobian() * outcome.v;
  }
  return outcome;
}

}  // namespace carom::core::routh
