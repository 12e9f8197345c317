// The hodograph of the sliding velocity in a frictional impact (Jia & Wang §5): with the normal
// impulse I_z as the independent variable, the sliding velocity γ = (v_x, v_y) obeys
// γ' = −μ B γ̂ + d (eq. 31), where B is the tangential block and d the tangential–normal coupling
// column of the contact-frame inverse mass matrix W (eqs. 21–22). Written in polar form
// γ = ρ ŝ(θ) (digest §2.2), ρ' = g(ŝ) and θ' = f(ŝ)/ρ.
#pragma once

#include <Eigen/Dense>

namespace carom::core::impact {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

/// 2-D cross product a × b = a_x b_y − a_y b_x.
inline double cross2(const Vec2& a, const Vec2& b) {
  return a.x() * b.y() - a.y() * b.x();
}

struct Hodograph {
  Mat2 B = Mat2::Identity();  ///< tangential block of W (1/kg), symmetric positive definite
  Vec2 d = Vec2::Zero();      ///< tangential–normal coupling column of W (1/kg)
  double mu = 0.0;            ///< Coulomb friction coefficient (dimensionless)

  /// γ' = −μBŝ + d for a unit sliding direction ŝ (eq. 31): change of γ per unit normal impulse.
  Vec2 rate(const Vec2& s) const { return -mu * (B * s) + d; }
  /// g(ŝ) = ŝ·γ', the rate of the sliding speed ρ; on an invariant direction this is its λ (eq.
  /// 32).
  double radialRate(const Vec2& s) const { return s.dot(rate(s)); }
  /// f(ŝ) = ŝ × γ' (ρ times the rate of the sliding angle); its zeros are the invariant
  /// directions (eq. 33).
  double angularRate(const Vec2& s) const { return cross2(s, rate(s)); }
  /// df/dθ at ŝ = (cos θ, sin θ): negative at an angularly attracting invariant direction.
  double angularRateSlope(const Vec2& s) const {
    const Vec2 sPerp(-s.y(), s.x());  ///< dŝ/dθ
    return cross2(sPerp, rate(s)) - mu * cross2(s, B * sPerp);
  }
};

}  // namespace carom::core::impact
