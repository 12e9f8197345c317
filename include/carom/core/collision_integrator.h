// The Lie group variational collision integrator (LGVCI) of one rigid body against a fixed plane:
// Algorithm 5.2 of Tran & Leok, written as an outer grid step with an inner remaining-fraction
// loop (digest §5, "equivalent implementable inner loop").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "carom/core/body.h"
#include "carom/core/event.h"
#include "carom/core/jump.h"
#include "carom/core/lgvi.h"
#include "carom/core/sdf.h"

namespace carom::core {

struct CollisionIntegratorSettings {
  double h = 0.01;  ///< grid step (s); fixed, as the variational structure assumes (digest §9.5)
  NewtonSettings newton;
  RootSettings root;
  /// Zeno guard: the most impacts one grid step may resolve. Reaching it fails the step with
  /// StepStatus::kZenoLimit. Default 64; the paper's four cases never exceed 3 (digest §5).
  int maxEventsPerStep = 64;
};

/// One resolved impact inside a grid step.
struct ImpactRecord {
  double time = 0.0;         ///< instant of the impact (s)
  double fraction = 0.0;     ///< α_Σ: where inside its grid step, as a fraction of h
  double lambda = 0.0;       ///< impulse (N s)
  double phiDotMinus = 0.0;  ///< approach speed Φ̇⁻ (m/s)
  double phi = 0.0;          ///< gap at the accepted impact state (m), ≥ 0
  bool applied = false;      ///< false when the Φ̇⁻ ≥ 0 guard left the momenta unchanged
};

enum class StepStatus {
  kOk,
  kZenoLimit,           ///< maxEventsPerStep impacts and the step is still not finished
  kNewtonFailed,        ///< the rotation solve of a (sub)step did not converge, even in sub-steps
  kLocalizationFailed,  ///< the impact-time search did not converge
};
const char* toString(StepStatus status);

struct StepReport {
  /// The state at the end of the grid step. When status is not kOk it is the input state: a failed
  /// step changes nothing, and `impacts` and `message` say how far it got and why it stopped.
  BodyState state;
  std::vector<ImpactRecord> impacts;
  StepStatus status = StepStatus::kOk;
  std::string message;
  bool ok() const { return status == StepStatus::kOk; }
};

class CollisionIntegrator {
 public:
  /// Throws carom::Error for a non-finite or non-positive h, maxEventsPerStep < 1, or a null shape.
  CollisionIntegrator(const MassProperties& body, std::shared_ptr<const Shape> shape,
                      const Plane& plane, const ExternalLoad& load,
                      const CollisionIntegratorSettings& settings = {});

  /// Algorithm 5.2 for the grid step [t, t + h]: take the remaining fraction of the step; if the
  /// trial pose penetrates (Φ < 0), discard it, locate the impact fraction on Φ along the flow,
  /// advance to it, apply the jump (4.21), and repeat for what is left of the step.
  /// Throws carom::Error when the state is not finite or penetrates the plane (Φ < 0).
  StepReport step(const BodyState& state, double t) const;

  GapSample gap(const BodyState& state) const { return shape_->gap(plane_, state.x, state.R); }
  const MassProperties& body() const { return body_; }
  const ExternalLoad& load() const { return load_; }
  const CollisionIntegratorSettings& settings() const { return settings_; }

 private:
  MassProperties body_;
  std::shared_ptr<const Shape> shape_;
  Plane plane_;
  ExternalLoad load_;
  CollisionIntegratorSettings settings_;
};

}  // namespace carom::core
