#include <algorithm>
#include <cfloat>
#include <cmath>

#include "carom/bullet/scene.h"
#include "carom/error.h"
#include "config_values.h"

namespace carom {
namespace {

using config_values::numberText;

// A subnormal step (1e-320) is positive but divides the duration into an overflow.
bool finitePositive(double value) {
  return std::isfinite(value) && value >= DBL_MIN;
}

}  // namespace

std::string runStepsProblem(double duration, double timestep) {
  if (!finitePositive(timestep)) {
    return "timestep must be finite and positive (at least " + numberText(DBL_MIN) + "), got " +
           numberText(timestep);
  }
  if (!finitePositive(duration)) {
    return "duration must be finite and positive, got " + numberText(duration);
  }
  const double steps = duration / timestep;
  if (!(steps <= kMaxRunSteps)) {
    return "duration / timestep = " + numberText(duration) + " / " + numberText(timestep) +
           " s is " + numberText(steps) + " steps, more than the limit of " +
           numberText(kMaxRunSteps);
  }
  return {};
}

long long runSteps(double duration, double timestep) {
  const std::string problem = runStepsProblem(duration, timestep);
  if (!problem.empty()) throw Error(problem);
  return std::max(1LL, static_cast<long long>(std::ceil(duration / timestep - 1e-9)));
}

}  // namespace carom
