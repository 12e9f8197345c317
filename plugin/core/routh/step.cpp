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

StepLcp buildLcp(const ImpactProblem& problem, const Eigen::VectorXd& v,
                 const Eigen::VectorXd& caps) {
  const Eigen::Index m = problem.contacts(), nD = problem.frictionRows();
  const Eigen::Index n = problem.stepMatrix().rows();
  Eigen::VectorXd wFull(n);
  wFull << caps, problem.normalJacobian() * v, problem.directionJacobian() * v,
      Eigen::VectorXd::Zero(m);
  StepLcp lcp;
  if (caps.allFinite()) {
    lcp.w = std::move(wFull);
    lcp.betas = m;
    return lcp;
  }
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < m; ++i)
    if (std::isfinite(caps(i))) keep.push_back(i);
  lcp.betas = static_cast<Eigen::Index>(keep.size());
  for (Eigen::Index i = m; i < 3 * m + nD; ++i)
    keep.push_back(i);
  lcp.restricted = problem.stepMatrix()(keep, keep);
  lcp.w = wFull(keep);
  return lcp;
}

}  // namespace

StepResult solveStep(const ImpactProblem& problem, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& caps, std::uint64_t seed, const StepOptions& options) {
  checkInputs(problem, v, caps, options);
  const Eigen::Index m = problem.contacts(), nD = problem.frictionRows();
  const StepLcp lcp = buildLcp(problem, v, caps);
  const double energyBound = problem.kineticEnergy(v) * (1.0 + options.energyTolerance);
  StepResult step;
  lcp::LemkeOptions lemke;
  lemke.residualTolerance = options.residualTolerance;
  lemke.matrixChecked = true;  // W, checked finite when the problem was built
  lemke.maxPivots = options.pivotsPerUnknown * static_cast<int>(lcp.w.size()) + 100;
  for (step.attempts = 1; step.attempts <= options.maxAttempts; ++step.attempts) {
    const bool plain = step.attempts == 1 && !options.randomCovering;
    lemke.coveringVector =
        plain ? Eigen::VectorXd()
              : lcp::randomCoveringVector(lcp.w.size(), mixSeed(seed, step.attempts));
    const lcp::LcpResult result = lcp::solveLemke(lcp.W(problem), lcp.w, lemke);
    step.status = result.status;
    if (!result.solved()) {
      step.message += "attempt " + std::to_string(step.attempts) + ": " + result.message + "; ";
      continue;
    }
    Eigen::VectorXd lambdaN = result.z.segment(lcp.betas, m);
    Eigen::VectorXd lambdaD = result.z.segment(lcp.betas + m, nD);
    Eigen::VectorXd next = v + problem.velocityChange(lambdaN, lambdaD);
    if (problem.kineticEnergy(next) > energyBound) {  // Theorem 7 violated: round-off
      step.status = lcp::LcpStatus::kResidualCheckFailed;
      step.message += "attempt " + std::to_string(step.attempts) + ": kinetic energy rose; ";
      continue;
    }
    step.v = std::move(next);
    step.lambdaN = std::move(lambdaN);
    step.lambdaD = std::move(lambdaD);
    step.residual = result.residual;
    step.message.clear();
    return step;
  }
  step.attempts = options.maxAttempts;
  step.v = v;
  step.lambdaN = Eigen::VectorXd::Zero(m);
  step.lambdaD = Eigen::VectorXd::Zero(nD);
  step.message = "step LCP (75) unsolved: " + step.message;
  return step;
}

}  // namespace carom::core::routh
