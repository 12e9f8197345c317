// The energy-conserving jump of Tran & Leok Corollary 4.4 (4.21): an elastic, frictionless impact
// of one body against a fixed plane, along the gap gradient (∂Φ/∂x, χ).
#pragma once

#include "carom/core/body.h"
#include "carom/core/sdf.h"

namespace carom::core {

/// Φ̇ = ∂Φ/∂x·γ/m + χ·J⁻¹Π (m/s): the rate of change of the gap along the free motion.
double gapRate(const MassProperties& body, const BodyState& state, const GapSample& gap);

struct JumpResult {
  BodyState state;           ///< post-impact: pose unchanged, momenta jumped
  double lambda = 0.0;       ///< impulse along the contact normal (N s), ≥ 0
  double phiDotMinus = 0.0;  ///< Φ̇⁻ (m/s); < 0 at a genuine impact
  double phiDotPlus = 0.0;   ///< Φ̇⁺ = −Φ̇⁻ when applied (m/s)
  bool applied = false;      ///< false when Φ̇⁻ ≥ 0: the body is not approaching
};

/// (4.21a,b) γ⁺ = γ⁻ + λ∂Φ/∂x, Π⁺ = Π⁻ + λχ, with λ the non-zero root of the energy condition
/// (4.21c) in closed form: λ = −2Φ̇⁻ / (|∂Φ/∂x|²/m + χᵀJ⁻¹χ) (digest §4.2). The guard the paper
/// omits: when Φ̇⁻ ≥ 0 nothing changes, since the formula would pull the body into the plane.
JumpResult elasticJump(const MassProperties& body, const BodyState& state, const GapSample& gap);

}  // namespace carom::core
