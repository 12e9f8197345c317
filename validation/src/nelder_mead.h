// A bounded Nelder–Mead simplex search (Nelder & Mead 1965, the standard coefficients of Lagarias
// et al. 1998): derivative-free, deterministic, for a few parameters and a noisy objective.
#pragma once

#include <functional>
#include <vector>

namespace carom::validation {

struct NelderMeadOptions {
  int maxEvaluations = 60;  // the objective's budget, the initial simplex included
  // The initial simplex: the start and one vertex moved along each axis by this fraction of the
  // axis's box (towards the box's middle when that side has no room).
  double initialStep = 0.2;
  // Stops early once the simplex's values differ by less than this (objective units) and its
  // vertices by less than xTolerance (fractions of the box) along every axis.
  double fTolerance = 1e-4;
  double xTolerance = 1e-3;
};

struct NelderMeadResult {
  std::vector<double> x;  // the best point found
  double f = 0;           // its value
  int evaluations = 0;
};

// Called after every evaluation: its count, the point, its value and the best value so far.
using NelderMeadProgress =
    std::function<void(int evaluation, const std::vector<double>& x, double f, double best)>;

// Minimises f over the box [lower, upper] from `start` (clamped into the box). Points are kept in
// the box by clamping each trial vertex; a dimension with lower == upper stays fixed.
// Throws std::invalid_argument for mismatched sizes or lower > upper.
NelderMeadResult nelderMead(const std::function<double(const std::vector<double>&)>& f,
                            std::vector<double> start, const std::vector<double>& lower,
                            const std::vector<double>& upper, const NelderMeadOptions& options = {},
                            const NelderMeadProgress& progress = nullptr);

}  // namespace carom::validation
