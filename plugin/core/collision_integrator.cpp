#include "carom/core/collision_integrator.h"

#include <cmath>
#include <limits>

#include "carom/error.h"

namespace carom::core {

const char* toString(StepStatus status) {
  switch (status) {
    case StepStatus::kOk:
      return "ok";
    case StepStatus::kZenoLimit:
      return "Zeno guard: too many impacts in one step";
    case StepStatus::kNewtonFailed:
      return "rotation solve failed";
    case StepStatus::kLocalizationFailed:
      return "impact-time localization failed";
  }
  return "unknown";
}

CollisionIntegrator::CollisionIntegrator(const MassProperties& body,
                                         std::shared_ptr<const Shape> shape, const Plane& plane,
                                         const ExternalLoad& load,
                                         const CollisionIntegratorSettings& settings)
    : body_(body), shape_(std::move(shape)), plane_(plane), load_(load), settings_(settings) {
  if (!shape_) throw Error("CollisionIntegrator: shape is null");
  if (!std::isfinite(settings.h) || !(settings.h > 0.0)) {
    throw Error("CollisionIntegratorSettings.h must be finite and positive");
  }
  if (settings.maxEventsPerStep < 1) {
    throw Error("CollisionIntegratorSettings.maxEventsPerStep must be at least 1");
  }
}

StepReport CollisionIntegrator::step(const BodyState& state, double t) const {
  validateState(state);
  const double h = settings_.h;
  const GapSample startGap = gap(state);
  if (!(startGap.phi >= 0.0)) {
    throw Error("CollisionIntegrator::step: the state penetrates the plane (gap " +
                std::to_string(startGap.phi) + " m)");
  }
  StepReport report{state, {}, StepStatus::kOk, {}};
  const auto fail = [&](StepStatus status, std::string message) {
    report.state = state;
    report.status = status;
    report.message = std::move(message);
    return report;
  };

  BodyState current = state;
  double currentPhi = startGap.phi;
  double elapsed = 0.0;  // α_Σ: fraction of the step already taken
  while (true) {
    const double remaining = 1.0 - elapsed;
    const FlowResult trial =
        flowInSubsteps(body_, current, remaining * h, load_, kMaxFlowSubsteps, settings_.newton);
    if (!trial.ok()) return fail(StepStatus::kNewtonFailed, toString(trial.rotation.status));
    const double trialPhi = gap(trial.state).phi;
    if (trialPhi >= 0.0) {  // admissible: the rest of the step is free flight
      report.state = trial.state;
      return report;
    }
    if (static_cast<int>(report.impacts.size()) >= settings_.maxEventsPerStep) {
      return fail(StepStatus::kZenoLimit,
                  std::to_string(report.impacts.size()) +
                      " impacts in the step starting at t = " + std::to_string(t) + " s");
    }
    // Each probe is a sub-step F̃[αh] from the current state plus one gap query (5.11). A body
    // spinning faster than one step's rotation solve reaches takes each flow in sub-steps
    // (flowInSubsteps).
    const auto phiAt = [&](double alpha) {
      const FlowResult probe =
          flowInSubsteps(body_, current, alpha * h, load_, kMaxFlowSubsteps, settings_.newton);
      return probe.ok() ? gap(probe.state).phi : std::numeric_limits<double>::quiet_NaN();
    };
    const RootResult root = locateRoot(phiAt, 0.0, currentPhi, remaining, trialPhi, settings_.root);
    if (root.status != RootStatus::kConverged) {
      return fail(StepStatus::kLocalizationFailed, toString(root.status));
    }
    const FlowResult atImpact =
        flowInSubsteps(body_, current, root.alpha * h, load_, kMaxFlowSubsteps, settings_.newton);
    const GapSample impactGap = gap(atImpact.state);
    const JumpResult jump = elasticJump(body_, atImpact.state, impactGap);  // F̃_Jump (4.21)
    elapsed += root.alpha;
    report.impacts.push_back(
        {t + elapsed * h, elapsed, jump.lambda, jump.phiDotMinus, impactGap.phi, jump.applied});
    current = jump.state;
    currentPhi = impactGap.phi;
  }
}

}  // namespace carom::core
