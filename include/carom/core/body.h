// A rigid body of the Bullet-free core: mass properties and the state (x, R, γ, Π) of Tran & Leok
// §4, with the energy and momenta that the integrator conserves.
#pragma once

#include <string>

#include "carom/core/types.h"

namespace carom::core {

/// Mass and inertia about the centre of mass, in the body frame. Immutable and always valid: the
/// only way to get one is `create`, which refuses what no rigid body has.
class MassProperties {
 public:
  /// Throws carom::Error naming the quantity when `mass` (kg) is not finite and positive, or when
  /// `inertia` (J, kg m², body frame about the centre of mass) is not finite, symmetric (to 1e-12
  /// relative), positive definite, or violates the triangle inequality of its principal moments
  /// (each at most the sum of the other two, to 1e-12 relative): a J that no mass distribution has.
  static MassProperties create(double mass, const Mat3& inertia);

  double mass() const { return mass_; }
  double inverseMass() const { return 1.0 / mass_; }
  /// J = ∫ S(ρ)ᵀS(ρ) dm (Tran & Leok (B.2)).
  const Mat3& inertia() const { return inertia_; }
  const Mat3& inverseInertia() const { return inverseInertia_; }
  /// J_d = ½ tr(J) I − J = ∫ ρρᵀ dm, the non-standard inertia of the discrete Lagrangian (4.1).
  const Mat3& nonStandardInertia() const { return nonStandardInertia_; }
  /// J = jI exactly (a uniform sphere or cube): the body turns about its angular momentum, and the
  /// LGVI's rotation equation has a closed-form solution (solveRotation).
  bool isotropic() const { return isotropic_; }

 private:
  MassProperties(double mass, const Mat3& inertia);
  double mass_;
  Mat3 inertia_;
  Mat3 inverseInertia_;
  Mat3 nonStandardInertia_;
  bool isotropic_;
};

/// Uniform solid ellipsoid with semi-axes (a, b, c) along the body axes: J = m/5 diag(b²+c², ...).
MassProperties uniformEllipsoid(double mass, const Vec3& semiAxes);
/// Uniform solid box with half extents along the body axes: J = m/3 diag(b²+c², ...).
MassProperties uniformBox(double mass, const Vec3& halfExtents);

/// The discrete state of Tran & Leok (4.11).
struct BodyState {
  Vec3 x = Vec3::Zero();      ///< centre of mass, world frame (m)
  Mat3 R = Mat3::Identity();  ///< attitude: a body point ρ sits at x + Rρ (2.8b)
  Vec3 gamma = Vec3::Zero();  ///< γ = m ẋ, linear momentum, world frame (kg m/s)
  Vec3 Pi = Vec3::Zero();     ///< Π = J Ω, angular momentum, body frame (kg m²/s)
};

/// Builds a state from world-frame velocities (what Bullet and scene files give).
BodyState stateFromVelocities(const MassProperties& body, const Vec3& position,
                              const Mat3& attitude, const Vec3& linearVelocity,
                              const Vec3& angularVelocityWorld);

/// Throws carom::Error, naming `what`, when a component is not finite or R is not a rotation
/// (‖RᵀR − I‖ > 1e-9 or det R < 0).
void validateState(const BodyState& state, const std::string& what = "body state");

Vec3 linearVelocity(const MassProperties& body, const BodyState& state);
/// Ω = J⁻¹Π, body frame (rad/s).
Vec3 angularVelocityBody(const MassProperties& body, const BodyState& state);
/// ω = RΩ, world frame (rad/s).
Vec3 angularVelocityWorld(const MassProperties& body, const BodyState& state);

/// The energy of Tran & Leok (4.19c) with a general uniform gravity vector g (m/s²):
/// E = |γ|²/2m + ½ΠᵀJ⁻¹Π − m g·x (J).
struct Energy {
  double translational = 0.0;  ///< |γ|²/2m
  double rotational = 0.0;     ///< ½ΠᵀJ⁻¹Π
  double potential = 0.0;      ///< −m g·x
  double kinetic() const { return translational + rotational; }
  double total() const { return translational + rotational + potential; }
};
Energy energy(const MassProperties& body, const BodyState& state, const Vec3& gravity);

/// Spatial angular momentum about the world point `about`: (x − p) × γ + RΠ (kg m²/s).
Vec3 spatialAngularMomentum(const BodyState& state, const Vec3& about = Vec3::Zero());

}  // namespace carom::core
