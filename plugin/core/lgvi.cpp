#include "carom/core/lgvi.h"

#include <Eigen/LU>  // computeInverseWithCheck
#include <cmath>

#include "carom/core/lie.h"
#include "carom/error.h"

namespace carom::core {
namespace {

// Below this angle (rad) the trigonometric coefficients of the exponential chart switch to their
// Taylor series; the neglected terms are O(θ⁴) ≈ 1e-12 relative and affect only the Jacobian.
constexpr double kSeriesAngle = 1e-3;
// How far below the tolerance the estimate of Newton's next update must fall for the solve to stop
// before it (solveRotation), dimensionless: the estimate from two updates is rough. At 0.1, over
// 400,000 random bodies and impulses up to 0.9 of the least moment, F is within 2.8e-15 of the
// solve continued to round-off; at 1 a residual reached 1.1e-14 |g|.
constexpr double kQuadraticMargin = 0.1;

struct ChartEvaluation {
  Vec3 value;     // G(f)
  Mat3 jacobian;  // ∇G(f)
};

// Cayley chart, Tran & Leok (D.8): G(f) = 2/(1+|f|²) (Jf + f × Jf) and its Jacobian.
ChartEvaluation evaluateCayley(const Mat3& J, const Vec3& f) {
  const double c = 2.0 / (1.0 + f.squaredNorm());
  const Vec3 Jf = J * f;
  const Vec3 w = Jf + f.cross(Jf);
  return {c * w, c * (J + hat(f) * J - hat(Jf) - c * w * f.transpose())};
}

// Exponential chart, Tran & Leok (D.3)–(D.4).
ChartEvaluation evaluateExponential(const Mat3& J, const Vec3& f) {
  const double t = f.norm();
  const double t2 = t * t;
  double a, b, da, db;  // a = sin t/t, b = (1−cos t)/t², da = a'(t)/t, db = b'(t)/t
  if (t < kSeriesAngle) {
    a = 1.0 - t2 / 6.0;
    b = 0.5 - t2 / 24.0;
    da = -1.0 / 3.0 + t2 / 30.0;
    db = -1.0 / 12.0 + t2 / 180.0;
  } else {
    const double s = std::sin(t), halfSin = std::sin(0.5 * t);
    a = s / t;
    b = 2.0 * halfSin * halfSin / t2;
    da = (t * std::cos(t) - s) / (t2 * t);
    db = (t * s - 4.0 * halfSin * halfSin) / (t2 * t2);
  }
  const Vec3 Jf = J * f;
  const Vec3 fxJf = f.cross(Jf);
  return {a * Jf + b * fxJf,
          da * Jf * f.transpose() + a * J + db * fxJf * f.transpose() + b * (hat(f) * J - hat(Jf))};
}

Mat3 chartToRotation(RotationChart chart, const Vec3& f) {
  return chart == RotationChart::kCayley ? cayley(f) : expSO3(f);
}

void validateSettings(const NewtonSettings& settings) {
  if (!(settings.tolerance > 0.0) || !std::isfinite(settings.tolerance)) {
    throw Error("NewtonSettings.tolerance must be finite and positive");
  }
  if (settings.maxIterations < 1) throw Error("NewtonSettings.maxIterations must be at least 1");
}

}  // namespace

const char* toString(SolveStatus status) {
  switch (status) {
    case SolveStatus::kConverged:
      return "converged";
    case SolveStatus::kIterationLimit:
      return "iteration limit reached";
    case SolveStatus::kSingular:
      return "singular Newton Jacobian";
  }
  return "unknown";
}

RotationSolution solveRotation(const MassProperties& body, const Vec3& g,
                               const NewtonSettings& settings) {
  validateSettings(settings);
  if (!g.allFinite()) throw Error("solveRotation: angular impulse g is not finite");
  const Mat3& J = body.inertia();
  RotationSolution solution;
  // J = jI: J_d = (j/2)I, and the rotation F by θ about û has F − Fᵀ = 2 sin θ S(û), so (D.1) is
  // j sin θ S(û) = S(g): F turns about g by θ = asin(|g|/j), with Cayley parameter
  // tan(θ/2) ĝ = g / (j + √(j² − |g|²)). Beyond |g| = j no F solves (D.1); Newton says so below.
  const double j = J(0, 0);
  if (body.isotropic() && g.squaredNorm() <= j * j) {
    solution.F = cayley(g / (j + std::sqrt(j * j - g.squaredNorm())));
    // The residual below with J_d = (j/2)I, without its two matrix products.
    if (settings.residual) {
      solution.residual =
          (0.5 * j * (solution.F - solution.F.transpose()) - hat(g)).cwiseAbs().maxCoeff();
    }
    return solution;
  }
  const bool isCayley = settings.chart == RotationChart::kCayley;
  // Small-rotation guesses: G(f) ≈ 2Jf (Cayley) and G(f) ≈ Jf (exponential).
  Vec3 f = (isCayley ? 0.5 : 1.0) * (body.inverseInertia() * g);

  solution.status = SolveStatus::kIterationLimit;
  double lastStep = 0;  // ‖Δf‖ of the iteration before (none yet: 0)
  for (int iteration = 1; iteration <= settings.maxIterations; ++iteration) {
    const ChartEvaluation e = isCayley ? evaluateCayley(J, f) : evaluateExponential(J, f);
    // The closed-form 3×3 inverse (cofactors) costs a third of a pivoted LU here.
    Mat3 inverse;
    bool invertible = false;
    e.jacobian.computeInverseWithCheck(inverse, invertible, 0.0);
    const Vec3 step = inverse * (e.value - g);
    solution.iterations = iteration;
    if (!invertible || !step.allFinite()) {
      solution.status = SolveStatus::kSingular;
      break;
    }
    f -= step;
    // Newton's updates shrink quadratically near the root, ‖Δf_{k+1}‖ ≈ C‖Δf_k‖² with C estimated
    // from the last two as ‖Δf_k‖/‖Δf_{k−1}‖²: where the next update would already be within
    // kQuadraticMargin of the tolerance, so is f, and that update is not taken.
    const double size = step.norm(), bound = settings.tolerance * std::max(1.0, f.norm());
    const double next = size * size * size / (lastStep * lastStep);  // ∞ at the first iteration
    if (size <= bound || (size < lastStep && next <= kQuadraticMargin * bound)) {
      solution.status = SolveStatus::kConverged;
      break;
    }
    lastStep = size;
  }
  solution.F = chartToRotation(settings.chart, f);
  if (settings.residual) {
    const Mat3& Jd = body.nonStandardInertia();
    solution.residual =
        (solution.F * Jd - Jd * solution.F.transpose() - hat(g)).cwiseAbs().maxCoeff();
  }
  return solution;
}

Mat3 rotationSensitivity(const MassProperties& body, const Mat3& F) {
  const Mat3 A = F * body.nonStandardInertia();
  return ((A.trace() * Mat3::Identity() - A) * F).inverse();
}

FlowResult flow(const MassProperties& body, const BodyState& state, double h,
                const ExternalLoad& load, const NewtonSettings& settings) {
  if (!std::isfinite(h)) throw Error("flow: step length h is not finite");
  if (!load.gravity.allFinite() || !load.force.allFinite() || !load.torque.allFinite()) {
    throw Error("flow: external load (gravity, force or torque) is not finite");
  }
  const Vec3 bodyTorque = state.R.transpose() * load.torque;  // M_k
  const Vec3 halfImpulse = 0.5 * h * bodyTorque;              // ½hM_k
  FlowResult result{state, solveRotation(body, h * (state.Pi + halfImpulse), settings)};
  if (!result.ok()) return result;

  const Mat3& F = result.rotation.F;
  const Vec3 totalForce = body.mass() * load.gravity + load.force;
  BodyState& next = result.state;
  next.x = state.x + h * body.inverseMass() * (state.gamma + 0.5 * h * totalForce);  // (5.9a)
  next.gamma = state.gamma + h * totalForce;                                         // (5.9b)
  next.R = state.R * F;                                                              // (5.9e)
  next.Pi = F.transpose() * (state.Pi + halfImpulse) +
            (0.5 * h) * (next.R.transpose() * load.torque);  // (5.9d) with forcing
  return result;
}

FlowResult flowInSubsteps(const MassProperties& body, const BodyState& state, double h,
                          const ExternalLoad& load, int maxSubsteps, const NewtonSettings& settings,
                          int fewestSubsteps) {
  if (maxSubsteps < 1) throw Error("flowInSubsteps: maxSubsteps must be at least 1");
  if (fewestSubsteps < 1 || fewestSubsteps > maxSubsteps) {
    throw Error("flowInSubsteps: fewestSubsteps must be between 1 and maxSubsteps");
  }
  // Each attempt doubles n: the rotation per sub-step halves, and with it |g| against J. Flowed in
  // place, sub-step after sub-step (a variational step flows a few hundred bodies a step, most
  // of them once).
  FlowResult result;
  for (int n = fewestSubsteps; n <= maxSubsteps; n *= 2) {
    result = flow(body, state, h / n, load, settings);
    for (int i = 1; i < n && result.ok(); ++i)
      result = flow(body, result.state, h / n, load, settings);
    result.substeps = n;
    if (result.ok()) return result;
    result.state = state;  // a failed attempt leaves the state as it was
  }
  return result;
}

}  // namespace carom::core
