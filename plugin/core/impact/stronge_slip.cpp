// The integrated part of the impact: sliding before the slip stops or reaches an invariant ray.
// Jia & Wang integrate the hodograph with explicit Euler and a curvature-based step (eq. 36);
// here an embedded Dormand–Prince 5(4) pair with error control does it, and the events are
// located on its continuous extension instead of being caught at step ends.
#include <algorithm>
#include <cmath>

#include "carom/core/event.h"
#include "dormand_prince.h"
#include "stronge_path.h"

namespace carom::core::impact {
namespace {

using State = Eigen::Vector4d;  // (γ_x, γ_y, absorbed energy, friction work)

// |f(ŝ)| below this fraction of μ‖B‖ + ‖d‖ is round-off: ŝ is on an invariant ray already
// (a slip that starts on one, or every direction invariant).
constexpr double kOnRayRoundOff = 1e-12;
// Largest angle (rad) for which one Newton step on f(θ) is trusted as the distance to the root.
constexpr double kNewtonRange = 0.1;
constexpr int kRayPolishIterations = 4;
// Step-size controller (HNW II.4): safety factor and the bounds on the change per step.
constexpr double kSafety = 0.9;
constexpr double kMinShrink = 0.2;
constexpr double kMaxGrowth = 5.0;
// A step may move γ by at most this fraction of ‖γ‖ (bounding ‖γ'‖ by μ‖B‖ + ‖d‖), so that no
// stage reaches the origin, where γ̂ jumps: without it, steps near a sticking point straddle the
// origin and the integration chatters there instead of reaching ‖γ‖ ≤ ε.
constexpr double kOriginFraction = 0.5;
// First step as a fraction of the shorter of the slip's and the compression's impulse scales.
constexpr double kFirstStepFraction = 1e-2;

Vec2 unitAt(double theta) {
  return Vec2(std::cos(theta), std::sin(theta));
}

// Event s or l at slip γ, if either has happened to the tolerance ε (digest §5.5). The slip counts
// as stopped when ‖γ‖ ≤ ε. It counts as on an invariant ray when it is on one to round-off, or
// when it is heading into the origin near an attracting centripetal ray (f' < 0, λ < 0) with a
// distance to that ray, ‖γ‖ times the angle, within ε: there the remaining path to the origin is
// that ray up to an error of order ε, so the closed form (eq. 42) replaces the integration.
SlipOutcome slipEvent(const Hodograph& h, const Vec2& gamma, double epsilon) {
  SlipOutcome outcome;
  const double rho = gamma.norm();
  if (rho <= epsilon) {
    outcome.end = SlipEnd::kStopped;
    return outcome;
  }
  Vec2 s = gamma / rho;
  const double f = h.angularRate(s);
  const double scale = h.mu * h.B.norm() + h.d.norm();
  const auto onRay = [&](const Vec2& direction) {
    outcome.end = SlipEnd::kOnRay;
    outcome.rayDirection = direction;
    outcome.rayLambda = h.radialRate(direction);
    return outcome;
  };
  if (std::abs(f) <= kOnRayRoundOff * scale) return onRay(s);
  const double slope = h.angularRateSlope(s);
  if (slope >= 0.0 || h.radialRate(s) >= 0.0) return outcome;
  const double angle = f / slope;
  if (std::abs(angle) > kNewtonRange || rho * std::abs(angle) > epsilon) return outcome;
  double theta = std::atan2(s.y(), s.x());
  for (int i = 0; i < kRayPolishIterations; ++i) {
    s = unitAt(theta);
    theta -= h.angularRate(s) / h.angularRateSlope(s);
  }
  s = unitAt(theta);
  return h.radialRate(s) < 0.0 ? onRay(s) : outcome;
}

}  // namespace

SlipOutcome integrateSlip(const StrongeProblem& problem, const StrongeParameters& parameters,
                          ImpactPath& path, int& steps) {
  const Hodograph& h = problem.hodograph;
  const double restitution = problem.restitution;
  // Right-hand side in I_z: γ' (eq. 31), E' = −v_z (eq. 11), and the friction work rate −μ‖γ‖.
  const auto rate = [&](double Iz, const State& y) {
    const Vec2 gamma = y.head<2>();
    const double rho = gamma.norm();
    const Vec2 s = rho > 0.0 ? Vec2(gamma / rho) : Vec2::Zero();
    const double vz = problem.normalVelocity(Iz, problem.tangentialImpulse(Iz, gamma));
    State r;
    r << h.rate(s), -vz, -h.mu * rho;
    return r;
  };
  // The event function of the current phase: −v_z while compressing (end of compression, v_z = 0),
  // then the stored energy (end of restitution, E = 0). Non-negative before its event.
  const auto eventGap = [&](double Iz, const State& y) {
    if (path.compressing) {
      return -problem.normalVelocity(Iz, problem.tangentialImpulse(Iz, y.head<2>()));
    }
    return y(2) - (1.0 - restitution * restitution) * path.compressionEnergy;
  };
  const auto store = [&](double Iz, const State& y) {
    path.normalImpulse = Iz;
    path.tangentialImpulse = problem.tangentialImpulse(Iz, y.head<2>());
    path.absorbed = y(2);
    path.frictionWork = y(3);
  };

  // Error per step, relative to the tolerance: the slip's error against ε + rtol‖γ‖ (a norm, so
  // the control does not depend on the tangent axes), the absorbed energy's against
  // rtol(v_z⁻²/w + |E|). The friction work only follows along: an output, not a driver of the path.
  const double rtol = parameters.relativeTolerance;
  const double energyTolerance = rtol * problem.normalVelocityBefore *
                                 problem.normalVelocityBefore / problem.normalInverseMass;
  const auto relativeError = [&](const State& from, const DormandPrinceStep<4>& to) {
    const double slipScale =
        problem.slipTolerance + rtol * std::max(from.head<2>().norm(), to.y.head<2>().norm());
    const double energyScale =
        energyTolerance + rtol * std::max(std::abs(from(2)), std::abs(to.y(2)));
    return std::max(to.error.head<2>().norm() / slipScale, std::abs(to.error(2)) / energyScale);
  };

  double Iz = path.normalImpulse;
  State y;
  y << problem.slip(Iz, path.tangentialImpulse), path.absorbed, path.frictionWork;
  State k1 = rate(Iz, y);
  double step =
      kFirstStepFraction * std::min(-problem.normalVelocityBefore / problem.normalInverseMass,
                                    y.head<2>().norm() / std::max(k1.head<2>().norm(), 1e-300));
  const double rateBound = h.mu * h.B.norm() + h.d.norm();
  const int startSteps = steps;
  const auto note = [&](const char* how) {
    path.note("slip integrated (", steps - startSteps, " Runge-Kutta steps) ", how,
              " at I_z = ", Iz);
  };

  while (true) {
    const SlipOutcome event = slipEvent(h, y.head<2>(), problem.slipTolerance);
    if (event.end != SlipEnd::kEnded) {
      store(Iz, y);
      note(event.end == SlipEnd::kStopped ? "until the slip stops" : "until an invariant ray");
      return event;
    }
    step = std::min(step, kOriginFraction * y.head<2>().norm() / rateBound);
    if (steps >= parameters.maxSteps || Iz + step == Iz) {
      store(Iz, y);
      note("stopped by the step cap or a vanishing step");
      return {SlipEnd::kStepLimit};
    }
    DormandPrinceStep<4> trial = dormandPrinceStep<4>(rate, Iz, y, k1, step);
    ++steps;
    const double error = relativeError(y, trial);
    const double change = std::isfinite(error)
                              ? std::clamp(kSafety * std::pow(error, -0.2), kMinShrink, kMaxGrowth)
                              : kMinShrink;
    if (!(error <= 1.0)) {
      step *= std::min(change, 1.0);
      continue;
    }

    double taken = step;
    const double gapEnd = eventGap(Iz + step, trial.y);
    if (gapEnd < 0.0) {
      // The phase's event lies inside the step: locate it on the continuous extension, then redo
      // the step up to it so the state there has the pair's full order.
      const auto gapAt = [&](double theta) { return eventGap(Iz + theta * step, trial.at(theta)); };
      RootSettings settings;
      settings.maxIterations = parameters.maxEventIterations;
      settings.gapTolerance = 0.0;
      const RootResult root = locateRoot(gapAt, 0.0, eventGap(Iz, y), 1.0, gapEnd, settings);
      if (root.status != RootStatus::kConverged) {
        store(Iz, y);
        note("stopped: an event could not be located");
        return {SlipEnd::kEventIterationLimit};
      }
      taken = root.alpha * step;
      if (taken > 0.0) {
        trial = dormandPrinceStep<4>(rate, Iz, y, k1, taken);
        ++steps;
      } else {
        trial.y = y;
        trial.rateEnd = k1;
      }
    }
    Iz += taken;
    y = trial.y;
    k1 = trial.rateEnd;
    store(Iz, y);
    path.recordImpulse();
    if (gapEnd < 0.0) {
      if (path.compressing) {
        endCompression(problem, path);
      } else {
        endRestitution(path);
      }
      if (path.ended) {
        note("until restitution ends");
        return {SlipEnd::kEnded};
      }
    }
    step *= change;
  }
}

}  // namespace carom::core::impact
