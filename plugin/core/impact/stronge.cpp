// The sequence of one Stronge/Jia–Wang impact (Algorithm 1 with the case analysis of §6.2–6.3):
// integrate the slip while it is curved, then finish on straight impulse segments.
#include "carom/core/impact/stronge.h"

#include <cmath>
#include <limits>

#include "carom/core/impact/invariant_directions.h"
#include "carom/error.h"
#include "law_support.h"
#include "stronge_path.h"

namespace carom::core::impact {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

void validateParameters(const StrongeParameters& p) {
  requireNonNegative(p.friction, "Stronge impact", "friction (mu)");
  requireUnitInterval(p.restitution, "Stronge impact", "restitution (e)");
  requireNonNegative(p.tangentialCompliance, "Stronge impact", "tangential compliance (eta^2)");
  if (!std::isfinite(p.relativeTolerance) || p.relativeTolerance <= 0.0 ||
      p.relativeTolerance > 1e-2) {
    throw Error("Stronge impact: relativeTolerance must lie in (0, 1e-2]");
  }
  if (p.maxSteps < 1) throw Error("Stronge impact: maxSteps must be at least 1");
  if (p.maxEventIterations < 1) {
    throw Error("Stronge impact: maxEventIterations must be at least 1");
  }
}

void validateInput(const Mat3& W, const Vec3& vMinus) {
  if (!vMinus.allFinite()) throw Error("Stronge impact: pre-impact velocity is not finite");
  const double scale = W.cwiseAbs().maxCoeff();
  if (!W.allFinite() || scale == 0.0 || (W - W.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale) {
    throw Error("Stronge impact: inverse mass matrix W must be finite, non-zero and symmetric");
  }
  const Eigen::LLT<Mat3> cholesky(W);
  if (cholesky.info() != Eigen::Success ||
      cholesky.matrixL().toDenseMatrix().diagonal().minCoeff() <= 1e-7 * std::sqrt(scale)) {
    throw Error("Stronge impact: inverse mass matrix W must be positive definite");
  }
}

// The contact-frame problem: B, d, w from W (eqs. 21–22) and the tolerance ε in velocity units.
StrongeProblem makeProblem(const Mat3& W, const Vec3& vMinus, const StrongeParameters& p) {
  StrongeProblem problem;
  problem.hodograph.B = W.topLeftCorner<2, 2>();
  problem.hodograph.d = W.topRightCorner<2, 1>();
  problem.hodograph.mu = p.friction;
  problem.inverseB = problem.hodograph.B.inverse();
  problem.normalInverseMass = W(2, 2);
  problem.slipBefore = vMinus.head<2>();
  problem.normalVelocityBefore = vMinus.z();
  problem.restitution = p.restitution;
  problem.slipTolerance = p.relativeTolerance * vMinus.norm();
  return problem;
}

// Event s: the slip has stopped. Put the impulse on the line of sticking (eq. 35 at I_zs, the
// paper's "polish" of §6.2; after a ray it removes the ray's O(ε) miss of the origin), then stick
// if ‖B⁻¹d‖ ≤ μ (§6.1), otherwise slide again along the centrifugal direction (Corollary 6).
StrongeStatus afterSlipStops(const StrongeProblem& problem, ImpactPath& path) {
  const Hodograph& h = problem.hodograph;
  path.slipStopImpulse = path.normalImpulse;
  path.tangentialImpulse = -problem.inverseB * (problem.slipBefore + path.normalImpulse * h.d);
  path.sequence += 's';
  path.note("slip stops at I_z = ", path.normalImpulse);
  const Vec2 stickRate = -problem.inverseB * h.d;  // eq. 34
  SegmentEnd end;
  if (stickRate.norm() <= h.mu) {
    path.note("stick");
    end = advanceLinearly(problem, path, stickRate, kInfinity, 0.0, 0.0);
  } else {
    const InvariantDirections directions = invariantDirections(h);
    const InvariantDirection* centrifugal = nullptr;
    for (int i = 0; i < directions.count; ++i) {
      if (directions.directions[i].lambda > 0.0) centrifugal = &directions.directions[i];
    }
    if (!centrifugal) {
      path.note("cannot stick and no centrifugal invariant direction was found");
      return StrongeStatus::kNoSlipDirection;
    }
    const Vec2& s = centrifugal->direction;
    path.note("resumed slip along the centrifugal direction ",
              std::atan2(s.y(), s.x()) * 180.0 / M_PI, " deg (lambda = ", centrifugal->lambda, ")");
    end = advanceLinearly(problem, path, -h.mu * s, kInfinity, 0.0, centrifugal->lambda);
  }
  return end == SegmentEnd::kEnded ? StrongeStatus::kConverged : StrongeStatus::kNoTermination;
}

// Event l: the slip is on the invariant ray ŝ with rate λ (eq. 32). Slide along it in closed form
// until restitution ends or, if λ < 0, until the slip reaches the origin (eq. 42; with the
// erratum: never if λ ≥ 0).
StrongeStatus alongRay(const StrongeProblem& problem, ImpactPath& path, const Vec2& s,
                       double lambda) {
  const Vec2 gamma = problem.slip(path.normalImpulse, path.tangentialImpulse);
  const double speed = gamma.dot(s);
  path.sequence += 'l';
  path.note("slip on the invariant direction ", std::atan2(s.y(), s.x()) * 180.0 / M_PI,
            " deg (lambda = ", lambda, ") from I_z = ", path.normalImpulse);
  const double length = lambda < 0.0 ? speed / -lambda : kInfinity;
  switch (advanceLinearly(problem, path, -problem.hodograph.mu * s, length, speed, lambda)) {
    case SegmentEnd::kEnded:
      return StrongeStatus::kConverged;
    case SegmentEnd::kNoTermination:
      return StrongeStatus::kNoTermination;
    case SegmentEnd::kFullLength:
      break;
  }
  return afterSlipStops(problem, path);
}

StrongeStatus runSequence(const StrongeProblem& problem, const StrongeParameters& parameters,
                          ImpactPath& path, int& steps) {
  if (problem.hodograph.mu == 0.0) {
    // Frictionless (§2.4): I_⊥ = 0 throughout, one straight segment.
    path.note("frictionless");
    return advanceLinearly(problem, path, Vec2::Zero(), kInfinity, 0.0, 0.0) == SegmentEnd::kEnded
               ? StrongeStatus::kConverged
               : StrongeStatus::kNoTermination;
  }
  const SlipOutcome slip = integrateSlip(problem, parameters, path, steps);
  switch (slip.end) {
    case SlipEnd::kEnded:
      return StrongeStatus::kConverged;
    case SlipEnd::kStopped:
      return afterSlipStops(problem, path);
    case SlipEnd::kOnRay:
      return alongRay(problem, path, slip.rayDirection, slip.rayLambda);
    case SlipEnd::kStepLimit:
      return StrongeStatus::kStepLimit;
    case SlipEnd::kEventIterationLimit:
      return StrongeStatus::kEventIterationLimit;
  }
  return StrongeStatus::kStepLimit;
}

// A contact frame (t₁, t₂, n), right-handed, as the columns of a rotation.
Mat3 contactFrame(const Vec3& normal) {
  const Vec3 helper = std::abs(normal.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 t1 = normal.cross(helper).normalized();
  Mat3 frame;
  frame << t1, normal.cross(t1), normal;
  return frame;
}

}  // namespace

const char* toString(StrongeStatus status) {
  switch (status) {
    case StrongeStatus::kConverged:
      return "converged";
    case StrongeStatus::kSeparating:
      return "separating (no impact)";
    case StrongeStatus::kStepLimit:
      return "step limit";
    case StrongeStatus::kEventIterationLimit:
      return "event iteration limit";
    case StrongeStatus::kNoTermination:
      return "no termination";
    case StrongeStatus::kNoSlipDirection:
      return "no slip direction";
  }
  return "unknown";
}

StrongeSolution solveStrongeImpulse(const Mat3& W, const Vec3& vMinus,
                                    const StrongeParameters& parameters) {
  validateParameters(parameters);
  validateInput(W, vMinus);
  StrongeSolution solution;
  if (vMinus.z() >= 0.0) {
    solution.status = StrongeStatus::kSeparating;
    if (parameters.trace) solution.trace = "Stronge: not approaching (v_z >= 0), no impulse";
    return solution;
  }
  if (parameters.tangentialCompliance > 0.0 && parameters.friction > 0.0) {
    // Its time integration costs far more than its trace: written, and dropped where not asked.
    StrongeSolution compliant = solveCompliantStronge(W, vMinus, parameters);
    if (!parameters.trace) compliant.trace.clear();
    return compliant;
  }
  const StrongeProblem problem = makeProblem(W, vMinus, parameters);
  ImpactPath path;
  path.tracing = parameters.trace;
  if (parameters.recordPath) {
    path.record = &solution.path;
    path.recordImpulse();
  }
  solution.status = runSequence(problem, parameters, path, solution.steps);
  if (parameters.trace)
    solution.trace = std::string("Stronge (") + toString(solution.status) + "): " + path.trace;
  solution.sequence = path.sequence;
  if (solution.status != StrongeStatus::kConverged) return solution;
  solution.impulse << path.tangentialImpulse, path.normalImpulse;
  solution.compressionImpulse = path.compressionImpulse;
  solution.compressionEnergy = path.compressionEnergy;
  solution.slipStopImpulse = path.slipStopImpulse;
  solution.normalWork = -path.absorbed;
  solution.frictionWork = path.frictionWork;
  solution.finalSlip = problem.slip(path.normalImpulse, path.tangentialImpulse);
  return solution;
}

StrongeImpact resolveStrongeImpact(const Contact& contact, const StrongeParameters& parameters) {
  const ContactKinematics kinematics = approachingContact(contact);
  const Mat3 frame = contactFrame(contact.normal);
  StrongeImpact impact;
  impact.solution =
      solveStrongeImpulse(frame.transpose() * kinematics.inverseMass * frame,
                          frame.transpose() * kinematics.relativeVelocity, parameters);
  const bool converged = impact.solution.status == StrongeStatus::kConverged;
  impact.outcome = applyImpulse(
      contact, converged ? Vec3(frame * impact.solution.impulse) : Vec3::Zero(), kinematics);
  impact.outcome.trace = impact.solution.trace;
  impact.outcome.resolved = converged || impact.solution.status == StrongeStatus::kSeparating;
  return impact;
}

}  // namespace carom::core::impact
