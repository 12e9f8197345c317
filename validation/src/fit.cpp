#include "fit.h"

#include <cstdio>
#include <ostream>

#include "evaluate.h"
#include "nelder_mead.h"

namespace carom::validation {

double trainingError(const std::vector<const Toss*>& tosses, const CubeModel& model, int threads) {
  return aggregate(evaluate(tosses, model, threads)).meanPosition.mean;
}

FittedCase fitCase(const CubeModel& start, const std::vector<const Toss*>& train,
                   const FitOptions& options, std::ostream* progress) {
  const FitBounds& b = options.bounds;
  // x = (restitution, friction, height offset); a law without friction keeps μ fixed at 0.
  const bool friction = usesFriction(start);
  const std::vector<double> lower{b.restitutionLow, friction ? b.frictionLow : 0.0, b.heightLow};
  const std::vector<double> upper{b.restitutionHigh, friction ? b.frictionHigh : 0.0, b.heightHigh};
  auto modelAt = [&](const std::vector<double>& x) {
    CubeModel model = start;
    model.restitution = x[0];
    model.friction = x[1];
    model.heightOffset = x[2];
    return model;
  };
  NelderMeadOptions nm;
  nm.maxEvaluations = options.maxEvaluations;
  auto report = [&](int evaluation, const std::vector<double>& x, double f, double best) {
    if (!progress) return;
    char line[200];
    std::snprintf(
        line, sizeof line, "  %-22s %3d/%d  e %.4f  mu %.4f  dz %+.5f m  -> %.4f  (best %.4f)\n",
        caseName(start).c_str(), evaluation, options.maxEvaluations, x[0], x[1], x[2], f, best);
    *progress << line << std::flush;
  };
  const NelderMeadResult result = nelderMead(
      [&](const std::vector<double>& x) {
        return trainingError(train, modelAt(x), options.threads);
      },
      {start.restitution, friction ? start.friction : 0.0, start.heightOffset}, lower, upper, nm,
      report);
  return {modelAt(result.x), result.f, result.evaluations};
}

}  // namespace carom::validation
