// The invariant directions of the hodograph (Jia & Wang §5.1, Theorem 5): unit sliding directions
// ŝ along which γ' is parallel to γ, so that a sliding velocity on such a ray stays on it and the
// impulse grows linearly (eq. 32). There are 2 to 4 of them unless every direction is invariant
// (B ∝ identity and d = 0: balls).
#pragma once

#include <array>

#include "carom/core/impact/hodograph.h"

namespace carom::core::impact {

struct InvariantDirection {
  Vec2 direction = Vec2::UnitX();  ///< ŝ, unit
  double lambda = 0.0;  ///< λ = ŝ·(−μBŝ + d) (m/s per N s): ≤ 0 centripetal, > 0 centrifugal
  bool attracting = false;  ///< f'(θ) < 0: nearby hodographs turn towards this ray (digest §2.4)
};

struct InvariantDirections {
  std::array<InvariantDirection, 4> directions{};
  int count = 0;                ///< the first `count` entries are valid, by increasing angle
  bool everyDirection = false;  ///< f ≡ 0: every ŝ is invariant (then count = 0)
};

/// Roots of the quartic in η = tan(θ/2) obtained from f(θ) = ŝ × (−μBŝ + d) = 0 (eq. 33; general
/// coefficients of digest §2.4), from the eigenvalues of the companion matrix, each polished by
/// Newton's method on f(θ) and de-duplicated. θ = π, the root the substitution cannot represent, is
/// tested separately (the paper's first step).
InvariantDirections invariantDirections(const Hodograph& hodograph);

}  // namespace carom::core::impact
