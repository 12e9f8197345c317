#include "carom/core/event.h"

#include <cmath>
#include <limits>

#include "carom/error.h"

namespace carom::core {

const char* toString(RootStatus status) {
  switch (status) {
    case RootStatus::kConverged:
      return "converged";
    case RootStatus::kIterationLimit:
      return "iteration limit reached";
    case RootStatus::kInvalidBracket:
      return "no sign change in the bracket";
    case RootStatus::kNonFiniteGap:
      return "gap function returned a non-finite value";
  }
  return "unknown";
}

RootResult locateRoot(const std::function<double(double)>& gap, double lo, double phiLo, double hi,
                      double phiHi, const RootSettings& settings) {
  if (!(settings.fractionTolerance > 0.0) || !(settings.gapTolerance >= 0.0) ||
      settings.maxIterations < 1) {
    throw Error("RootSettings: tolerances must be positive and maxIterations at least 1");
  }
  RootResult result{lo, phiLo, hi, 0, RootStatus::kConverged};
  if (!std::isfinite(phiLo) || !std::isfinite(phiHi)) {
    result.status = RootStatus::kNonFiniteGap;
    return result;
  }
  if (!(phiLo >= 0.0) || !(phiHi < 0.0) || !(lo <= hi)) {
    result.status = RootStatus::kInvalidBracket;
    return result;
  }
  // Illinois weights: the interpolation uses scaled copies of Φ at the ends, the convergence test
  // the true values.
  double weightLo = phiLo, weightHi = phiHi;
  int lastMoved = 0;         // +1: lo moved last, −1: hi moved last
  bool loWasProbed = false;  // the gap rule applies to probed points only (see RootSettings)
  // Bracket widths at the top of the previous two iterations (none yet: infinite).
  double widthTwoStepsAgo = std::numeric_limits<double>::infinity();
  double widthOneStepAgo = widthTwoStepsAgo;
  while (true) {
    const bool atContact = loWasProbed && result.phi <= settings.gapTolerance;
    if (atContact || result.upper - result.alpha <= settings.fractionTolerance) {
      return result;
    }
    if (result.evaluations >= settings.maxIterations) {
      result.status = RootStatus::kIterationLimit;
      return result;
    }
    const double a = result.alpha, b = result.upper;
    double c = 0.5 * (a + b);
    // Regula falsi unless the bracket failed to halve over the last two steps (a stalled end).
    const bool stalled = (b - a) > 0.5 * widthTwoStepsAgo;
    widthTwoStepsAgo = widthOneStepAgo;
    widthOneStepAgo = b - a;
    if (settings.method == RootMethod::kIllinois && !stalled) {
      const double secant = a + weightLo * (b - a) / (weightLo - weightHi);
      if (secant > a && secant < b) c = secant;
    }
    if (!(c > a && c < b)) {  // the bracket is a single ulp wide
      return result;
    }
    const double phiC = gap(c);
    ++result.evaluations;
    if (!std::isfinite(phiC)) {
      result.status = RootStatus::kNonFiniteGap;
      return result;
    }
    if (phiC < 0.0) {
      result.upper = c;
      weightHi = phiC;
      if (lastMoved == -1) weightLo *= 0.5;  // Illinois: lo retained twice
      lastMoved = -1;
    } else {
      result.alpha = c;
      result.phi = phiC;
      loWasProbed = true;
      weightLo = phiC;
      if (lastMoved == 1) weightHi *= 0.5;  // Illinois: hi retained twice
      lastMoved = 1;
    }
  }
}

}  // namespace carom::core
