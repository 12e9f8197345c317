// Pieces shared by the single-contact impact laws (private to plugin/core/impact).
#pragma once

#include <Eigen/Cholesky>
#include <cmath>
#include <string>
#include <string_view>

#include "carom/core/impact/contact.h"
#include "carom/error.h"

namespace carom::core::impact {

// Impulse directions, as the `Columns` columns of a fixed-size matrix (1 to 3).
template <int Columns>
using ImpulseBasis = Eigen::Matrix<double, 3, Columns>;

// The parameter checks every law and the materials share, so that a coefficient means the same
// range everywhere. `owner` says whose parameter it is ("strict parameters", "material 'steel'").

// A coefficient of restitution (of any kind): a finite number in [0, 1].
inline void requireUnitInterval(double value, std::string_view owner, std::string_view name) {
  if (!std::isfinite(value) || value < 0.0 || value > 1.0) {
    throw Error(std::string(owner) + ": " + std::string(name) + " must be in [0, 1]");
  }
}

// A Coulomb friction coefficient: finite and ≥ 0.
inline void requireNonNegative(double value, std::string_view owner, std::string_view name) {
  if (!std::isfinite(value) || value < 0.0) {
    throw Error(std::string(owner) + ": " + std::string(name) + " must be finite and non-negative");
  }
}

// The roughness rank k of a strict map (Cox, Feres & Ward Def 2.6): 0, 1 or 2 in 3D.
inline void requireRoughnessRank(int roughness, std::string_view owner) {
  if (roughness < 0 || roughness > 2) {
    throw Error(std::string(owner) + ": roughness must be 0, 1 or 2, got " +
                std::to_string(roughness));
  }
}

// Validates `contact`, refuses separating bodies and returns its kinematics. An impact law maps
// incoming to outgoing states (Cox, Feres & Ward §2.4: C maps T⁻M to T⁺M); applied to separating
// bodies it would pull them together, so that is refused, not ignored.
inline ContactKinematics approachingContact(const Contact& contact) {
  validateContact(contact);
  const Vec3 du = relativeVelocity(contact);
  const double normalVelocity = contact.normal.dot(du);
  if (normalVelocity > 0.0) {
    throw Error(
        "contact: relative normal velocity is positive (bodies separate); impact laws "
        "apply to approaching bodies only");
  }
  return {du, inverseMassMatrix(contact), normalVelocity};
}

// W (WᵀKW)⁻¹ Wᵀ c: the impulse on B within span(W) that changes the components Wᵀ Δu of the
// relative contact velocity by Wᵀ c (K = inverseMassMatrix). Throws carom::Error when WᵀKW is
// singular, its pivots min D / max D below 1e-12: the bodies cannot exchange an impulse along some
// column of W. Fixed sizes: a dynamic-size factorization costs more than the rest of a strict map.
template <int Columns>
Vec3 impulseWithin(const ImpulseBasis<Columns>& w, const Mat3& inverseMass,
                   const Vec3& velocityChange) {
  using Restricted = Eigen::Matrix<double, Columns, Columns>;
  const Restricted restricted = w.transpose() * inverseMass * w;
  const Eigen::LDLT<Restricted> ldlt(restricted);
  // WᵀKW is positive semi-definite, so the pivoting puts the largest diagonal first and |L_ij| ≤ 1:
  // min D / max D is then its reciprocal condition number within a factor bounded for sizes ≤ 3.
  // LDLT::rcond() estimates the same thing with several extra solves, more than the map costs.
  const auto pivots = ldlt.vectorD();
  if (ldlt.info() != Eigen::Success || !(pivots.minCoeff() > 1e-12 * pivots.maxCoeff())) {
    throw Error(
        "contact: the inverse mass matrix restricted to the impulse directions is "
        "singular; the bodies cannot exchange an impulse along them");
  }
  return w * ldlt.solve(w.transpose() * velocityChange);
}

}  // namespace carom::core::impact
