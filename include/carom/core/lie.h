// The Lie group SO(3): hat/vee, Cayley and exponential maps and their inverses.
// Notation of Tran & Leok §2: S(x) is the hat map, S(x)y = x × y.
#pragma once

#include "carom/core/types.h"

namespace carom::core {

/// S(x), the skew matrix with S(x)y = x × y (Tran & Leok (2.1)). Inline: the LGVI's rotation
/// solve builds a few per Newton iteration, and products with them fold their zeros.
inline Mat3 hat(const Vec3& x) {
  Mat3 s;
  s << 0.0, -x.z(), x.y(), x.z(), 0.0, -x.x(), -x.y(), x.x(), 0.0;
  return s;
}

/// S⁻¹(Ω) = (Ω₃₂, Ω₁₃, Ω₂₁) (Tran & Leok (2.2)). Reads only those three entries: the caller passes
/// a skew matrix.
Vec3 vee(const Mat3& omega);

/// Asym(A) = A − Aᵀ, without a factor ½ (Tran & Leok (2.3)).
Mat3 asym(const Mat3& a);

/// Cayley transform F = (I + S(f))(I − S(f))⁻¹ = I + 2/(1+|f|²)(S(f) + S(f)²) (Tran & Leok (D.7)).
/// A rotation by angle θ about unit axis u has f = tan(θ/2) u.
Mat3 cayley(const Vec3& f);

/// Inverse Cayley map f = vee(F − Fᵀ)/(1 + tr F). Throws carom::Error for a rotation by π (tr F =
/// −1), which has no Cayley coordinates.
Vec3 cayleyInverse(const Mat3& rotation);

/// exp(S(w)) by Rodrigues' formula (Tran & Leok (D.2)); series near w = 0.
Mat3 expSO3(const Vec3& w);

/// The rotation vector w with exp(S(w)) = R, |w| ≤ π; accurate near 0 and near π.
Vec3 logSO3(const Mat3& rotation);

/// ‖RᵀR − I‖ (max-norm): how far a matrix is from orthogonal.
double orthogonalityError(const Mat3& rotation);

}  // namespace carom::core
