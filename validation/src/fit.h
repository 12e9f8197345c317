// Fitting one case's material parameters (restitution, friction where the law has it, the height
// offset, and the tangential compliance η² for the compliant cases) on the training tosses by a
// bounded Nelder–Mead search of the mean trajectory position error.
#pragma once

#include <iosfwd>
#include <vector>

#include "parameters_file.h"
#include "toss.h"

namespace carom::validation {

// The search box.
struct FitBounds {
  double restitutionLow = 0.0, restitutionHigh = 1.0;  // e, dimensionless: every law's range
  // μ, dimensionless: plastic on wood is 0.1–0.4; the source fitted 0.18.
  double frictionLow = 0.0, frictionHigh = 0.6;
  // m: the tracked centre rests 0.4–2.4 mm below the half side (data README), so the true centre
  // is up to a few mm above the measured one; a little below allowed so the bound does not bind.
  double heightLow = -0.002, heightHigh = 0.004;
  // η² = k_n/k_t, dimensionless, for the compliant cases only: 0 is the rigid law, an elastic
  // contact has 1.1–1.4 (Mindlin, ν = 0.2–0.45); up to 4 so that the bound does not bind.
  double complianceLow = 0.0, complianceHigh = 4.0;
};

struct FitOptions {
  int maxEvaluations = 40;  // the objective's budget (each a run over every training toss)
  int threads = 0;          // 0: the hardware's count; the result does not depend on it
  FitBounds bounds;
};

// The objective: mean over `tosses` of the trajectory-averaged position error (fraction of side).
double trainingError(const std::vector<const Toss*>& tosses, const CubeModel& model, int threads);

// Fits `start`'s parameters from `start`'s values; a line per evaluation goes to `progress`
// (nullptr: silent).
FittedCase fitCase(const CubeModel& start, const std::vector<const Toss*>& train,
                   const FitOptions& options, std::ostream* progress);

}  // namespace carom::validation
