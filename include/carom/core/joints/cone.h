// The swing and twist of two joint frames as Bullet's btConeTwistConstraint splits their relative
// rotation (calcAngleInfo2): a swing, the shortest arc turning x_A onto x_B, bounded by an
// elliptic cone, and a twist about x, bounded by ±twistSpan.
#pragma once

#include "carom/core/types.h"

namespace carom::core::joints {

/// The gap of x_A to the elliptic cone about x_B: g = r(ψ) − θ (rad), ≥ 0 inside the cone, at
/// c = E_Bᵀx_A (x_A in B's frame): θ = atan2(ρ, c_x) the swing angle, ρ = √(c_y² + c_z²), and
/// r = ρ / √(c_y²/span1² + c_z²/span2²) the cone's half-angle toward the swing, span1 toward y_B
/// and span2 toward z_B (Bullet's computeConeLimitInfo: swingSpan1, swingSpan2).
struct SwingGap {
  double value = 0;              ///< g (rad)
  Vec3 gradient = Vec3::Zero();  ///< ∂g/∂c (rad per unit of c); zero on the axis (ρ < 1e-12)
};
SwingGap swingGap(const Vec3& c, double span1, double span2);

/// The twist τ (rad, in (−π, π]) of frame A against frame B about x: τ = atan2(y'·z_B, y'·y_B),
/// y' = S y_A with S the shortest arc turning x_A onto x_B, and its rate: τ̇ = (ω_A − ω_B)·rate
/// with rate = (x_A + x_B)/(1 + x_A·x_B) (the only vector with rate·x_A = rate·x_B = 1, a spin
/// about either x axis turning τ alone, and rate·(x_A × x_B) = 0, a pure swing leaving it).
/// Undefined where x_A = −x_B.
struct Twist {
  double angle = 0;          ///< τ (rad)
  Vec3 rate = Vec3::Zero();  ///< world frame (1/rad of relative turn, dimensionless)
};
Twist twistOf(const Mat3& axesA, const Mat3& axesB);

}  // namespace carom::core::joints
