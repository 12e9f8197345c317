#include "fit.h"

#include <cstdio>
#include <ostream>
#include <string>

#include "evaluate.h"
#include "nelder_mead.h"

namespace carom::validation {

double trainingError(const std::vector<const Toss*>& tosses, const CubeModel& model, int threads) {
  return aggregate(evaluate(tosses, model, threads)).meanPosition.mean;
}

FittedCase fitCase(const CubeModel& start, const std::vector<const Toss*>& train,
                   const FitOptions& options, std::ostream* progress) {
  const FitBounds& b = options.bounds;
  // x = (restitution, friction, height offset[, η² for a compliant case]); a law without friction
  // keeps μ fixed at 0.
  const bool friction = usesFriction(start);
  std::vector<double> lower{b.restitutionLow, friction ? b.frictionLow : 0.0, b.heightLow};
  std::vector<double> upper{b.restitutionHigh, friction ? b.frictionHigh : 0.0, b.heightHigh};
  std::vector<double> x0{start.restitution, friction ? start.friction : 0.0, start.heightOffset};
  if (start.compliant) {
    lower.push_back(b.complianceLow);
    upper.push_back(b.complianceHigh);
    x0.push_back(start.tangentialCompliance);
  }
  auto modelAt = [&](const std::vector<double>& x) {
    CubeModel model = start;
    model.restitution = x[0];
    model.friction = x[1];
    model.heightOffset = x[2];
    if (start.compliant) model.tangentialCompliance = x[3];
    return model;
  };
  NelderMeadOptions nm;
  nm.maxEvaluations = options.maxEvaluations;
  auto report = [&](int evaluation, const std::vector<double>& x, double f, double best) {
    if (!progress) return;
    char line[240];
    const std::string eta2 = start.compliant ? "  eta2 " + std::to_string(x[3]) : "";
    std::snprintf(line, sizeof line,
                  "  %-22s %3d/%d  e %.4f  mu %.4f  dz %+.5f m%s  -> %.4f  (best %.4f)\n",
                  caseName(start).c_str(), evaluation, options.maxEvaluations, x[0], x[1], x[2],
                  eta2.c_str(), f, best);
    *progress << line << std::flush;
  };
  const NelderMeadResult result = nelderMead(
      [&](const std::vector<double>& x) {
        return trainingError(train, modelAt(x), options.threads);
      },
      x0, lower, upper, nm, report);
  return {modelAt(result.x), result.f, result.evaluations};
}

}  // namespace carom::validation
