#include "carom/core/routh/step.h"

#include <cmath>
#include <string>
#include <vector>

#include "carom/core/lcp/lemke.h"
#include "carom/core/routh/seeding.h"
#include "carom/error.h"

namespace carom::core::routh {
namespace {

void checkInputs(const ImpactProblem& problem, const Eigen::VectorXd& v,
                 const Eigen::VectorXd& caps, const StepOptions& options) {
  problem.checkVelocity(v, "velocity");
  if (caps.size() != problem.contacts()) {
    throw Error("caps must have one entry per contact (" + std::to_string(problem.contacts()) +
                "), got " + std::to_string(caps.size()));
  }
  if (caps.hasNaN() || (caps.array() < 0.0).any()) throw Error("caps must be ≥ 0 (may be +∞)");
  if (options.maxAttempts < 1) throw Error("maxAttempts must be at least 1");
  if (options.pivotsPerUnknown < 1) throw Error("pivotsPerUnknown must be at least 1");
  if (!(options.plainCoveringAboveZero > 0.0) || !std::isfinite(options.plainCoveringAboveZero))
    throw Error("plainCoveringAboveZero must be finite and > 0");
}

// The LCP (75) restricted to the finitely capped β's: W and w over `keep`, which lists the β
// indices of finite caps followed by every λ_n, λ_D, γ index.
struct StepLcp {
  // W over `keep`; empty where every cap is finite and W is the problem's own step matrix (not
  // copied: an impact's LCPs have up to a few hundred unknowns, and it solves one per step).
  Eigen::MatrixXd restricted;
  Eigen::VectorXd w;
  Eigen::Index betas = 0;  // number of β variables kept
  const Eigen::MatrixXd& W(const ImpactProblem& problem) const {
    return restricted.size() == 0 ? problem.stepMatrix() : restricted;
  }
};

// Builds `lcp` over its kept storage.
void buildLcp(const ImpactProblem& problem, const Eigen::VectorXd& v, const Eigen::VectorXd& caps,
              StepLcp& lcp) {
  const Eigen::Index m = problem.contacts(), nD = problem.frictionRows();
  Eigen::VectorXd& w = lcp.w;
  w.resize(problem.stepMatrix().rows());
  w.head(m) = caps;
  w.segment(m, m).noalias() = problem.normalJacobian() * v;
  w.segment(2 * m, nD).noalias() = problem.directionJacobian() * v;
  w.tail(m).setZero();
  lcp.restricted.resize(0, 0);
  lcp.betas = m;
  if (caps.allFinite()) return;
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < m; ++i)
    if (std::isfinite(caps(i))) keep.push_back(i);
  lcp.betas = static_cast<Eigen::Index>(keep.size());
  for (Eigen::Index i = m; i < 3 * m + nD; ++i)
    keep.push_back(i);
  lcp.restricted = problem.stepMatrix()(keep, keep);
  lcp.w = Eigen::VectorXd(w(keep));
}

// What a step keeps per thread from one step LCP to the next: an impact solves several of one
// size, a busy scene's step hundreds, and each allocated its vectors afresh.
struct Scratch {
  StepLcp lcp;
  lcp::LemkeOptions lemke;  // its covering vector written in place
  lcp::LcpResult answer;
  Eigen::VectorXd change;  // M⁻¹J̄ᵀλ, (75c)
};

// The plain covering vector of `w`: 1 where w_i < 0, `aboveZero` elsewhere.
void plainCovering(const Eigen::VectorXd& w, double aboveZero, Eigen::VectorXd& d) {
  d.resize(w.size());
  for (Eigen::Index i = 0; i < w.size(); ++i)
    d(i) = w(i) < 0.0 ? 1.0 : aboveZero;
}

}  // namespace

void solveStep(const ImpactProblem& problem, const Eigen::VectorXd& v, const Eigen::VectorXd& caps,
               std::uint64_t seed, const StepOptions& options, StepResult& step) {
  checkInputs(problem, v, caps, options);
  const Eigen::Index m = problem.contacts(), nD = problem.frictionRows();
  thread_local Scratch scratch;
  StepLcp& lcp = scratch.lcp;
  buildLcp(problem, v, caps, lcp);
  const double energyBound = problem.kineticEnergy(v) * (1.0 + options.energyTolerance);
  step.status = lcp::LcpStatus::kSolved;
  step.message.clear();
  step.residual = 0.0;
  lcp::LemkeOptions& lemke = scratch.lemke;
  lemke.residualTolerance = options.residualTolerance;
  lemke.matrixChecked = true;  // W, checked finite when the problem was built
  lemke.maxPivots = options.pivotsPerUnknown * static_cast<int>(lcp.w.size()) + 100;
  lcp::LcpResult& result = scratch.answer;
  for (step.attempts = 1; step.attempts <= options.maxAttempts; ++step.attempts) {
    if (step.attempts == 1 && !options.randomCovering) {
      plainCovering(lcp.w, options.plainCoveringAboveZero, lemke.coveringVector);
    } else {
      lemke.coveringVector = lcp::randomCoveringVector(lcp.w.size(), mixSeed(seed, step.attempts));
    }
    lcp::solveLemke(lcp.W(problem), lcp.w, lemke, result);
    step.status = result.status;
    if (!result.solved()) {
      step.message += "attempt " + std::to_string(step.attempts) + ": " + result.message + "; ";
      continue;
    }
    const auto lambdaN = result.z.segment(lcp.betas, m);
    const auto lambdaD = result.z.segment(lcp.betas + m, nD);
    problem.velocityChange(lambdaN, lambdaD, scratch.change);
    step.v = v + scratch.change;
    if (problem.kineticEnergy(step.v) > energyBound) {  // Theorem 7 violated: round-off
      step.status = lcp::LcpStatus::kResidualCheckFailed;
      step.message += "attempt " + std::to_string(step.attempts) + ": kinetic energy rose; ";
      continue;
    }
    step.lambdaN = lambdaN;
    step.lambdaD = lambdaD;
    step.residual = result.residual;
    step.message.clear();
    return;
  }
  step.attempts = options.maxAttempts;
  step.v = v;
  step.lambdaN.setZero(m);
  step.lambdaD.setZero(nD);
  step.message = "step LCP (75) unsolved: " + step.message;
}

StepResult solveStep(const ImpactProblem& problem, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& caps, std::uint64_t seed, const StepOptions& options) {
  StepResult step;
  solveStep(problem, v, caps, seed, options, step);
  return step;
}

}  // namespace carom::core::routh
