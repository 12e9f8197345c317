// The first root of a quadratic in time: where a gap that moves quadratically first closes (the
// variational step's closed-form sphere impacts and its swept search's separation bound).
#pragma once

#include <cmath>
#include <limits>
#include <optional>

namespace carom {

// The first t ≥ 0 at which p0 + p1 t + p2 t² = 0, from p0 ≥ 0, if any; each root in the form
// free of cancellation (q = −½ (p1 + sign(p1) √D), the roots q / p2 and p0 / q).
inline std::optional<double> firstRoot(double p0, double p1, double p2) {
  if (!(p0 >= 0)) return std::nullopt;  // touching already, or closer
  if (p2 == 0) {
    if (p1 < 0) return -p0 / p1;
    return std::nullopt;
  }
  const double discriminant = p1 * p1 - 4 * p2 * p0;
  if (!(discriminant >= 0)) return std::nullopt;
  const double q = -0.5 * (p1 + std::copysign(std::sqrt(discriminant), p1));
  double first = std::numeric_limits<double>::infinity();
  for (const double root : {q / p2, p0 / q}) {
    if (root >= 0 && root < first) first = root;
  }
  if (!std::isfinite(first)) return std::nullopt;
  return first;
}

}  // namespace carom
