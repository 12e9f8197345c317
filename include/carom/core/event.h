// Impact-time localization: the fraction α of a step at which a gap function crosses zero
// (Tran & Leok §4.1, Algorithm 5.2 "Bisection"). The gap is any scalar function of α; along the
// LGVI flow each evaluation is one sub-step F̃[αh] plus one gap query.
#pragma once

#include <functional>

namespace carom::core {

enum class RootMethod {
  kBisection,  ///< the paper's: ~50 halvings to reach 1e-15
  kIllinois,  ///< regula falsi with the Illinois weight, bisection-safeguarded: ~5–10 evaluations
};

struct RootSettings {
  RootMethod method = RootMethod::kIllinois;
  /// Stop when the bracket is at most this wide. Unit: fraction of the step h. Default 1e-15, the
  /// paper's ε_tol (§6.1): a few ulps of α.
  double fractionTolerance = 1e-15;
  /// Or stop when an evaluated admissible point has 0 ≤ Φ ≤ gapTolerance (m). Default 0: off, as
  /// in the paper, whose bisection stops on the bracket only. A gap rule cannot tell the crossing
  /// sought from the points just after a contact resolved earlier in the step (Φ ≈ 0 there too,
  /// but separating): with a positive value, a second vertex of a cube striking 1 ms after the
  /// first (Tran & Leok Case IV) would be located at the first. Use it for noisy gap functions
  /// only when no two contacts of one body can strike within one step.
  double gapTolerance = 0.0;
  /// Evaluation cap; reaching it is reported as RootStatus::kIterationLimit. Default 200: bisection
  /// needs ~50, the safeguarded Illinois method at most about twice that.
  int maxIterations = 200;
};

enum class RootStatus {
  kConverged,
  kIterationLimit,  ///< the cap was hit first
  kInvalidBracket,  ///< Φ(lo) < 0 or Φ(hi) ≥ 0: nothing to locate
  kNonFiniteGap,    ///< the gap function returned NaN or infinity (e.g. a failed sub-step)
};
const char* toString(RootStatus status);

struct RootResult {
  double alpha = 0.0;  ///< the admissible end of the final bracket: Φ(alpha) ≥ 0, always
  double phi = 0.0;    ///< Φ(alpha) (m)
  double upper = 0.0;  ///< the other end of the final bracket: Φ(upper) < 0
  int evaluations = 0;
  RootStatus status = RootStatus::kConverged;
};

/// Locates the first sign change of `gap` in [lo, hi], given Φ(lo) = phiLo ≥ 0 and
/// Φ(hi) = phiHi < 0 (both already evaluated). Returns the admissible side of the root, as the
/// paper's bisection does (§7.3). Throws carom::Error for inconsistent settings.
RootResult locateRoot(const std::function<double(double)>& gap, double lo, double phiLo, double hi,
                      double phiHi, const RootSettings& settings = {});

}  // namespace carom::core
