// A single-point impact between two rigid bodies, described in world coordinates: the input of
// every impact law in carom::core::impact. A static or kinematic body is a body with zero inverse
// mass and zero inverse inertia; no law needs a special case for it.
#pragma once

#include <string>

#include "carom/core/types.h"

namespace carom::core::impact {

/// One body of the pair, just before the impact.
struct ContactBody {
  double inverseMass = 0.0;                 ///< 1/m (1/kg); 0 for an immovable body
  Mat3 inverseInertiaWorld = Mat3::Zero();  ///< J⁻¹ in the world frame (1/(kg m²))
  Vec3 centerOfMass = Vec3::Zero();         ///< world frame (m)
  Vec3 linearVelocity = Vec3::Zero();       ///< of the centre of mass, world frame (m/s)
  Vec3 angularVelocity = Vec3::Zero();      ///< world frame (rad/s)
};

struct Contact {
  ContactBody a;
  ContactBody b;
  Vec3 point = Vec3::Zero();    ///< the contact point, world frame (m)
  Vec3 normal = Vec3::UnitZ();  ///< unit contact normal, world frame, pointing from A into B
};

/// Post-impact velocities and what the law did.
struct ImpactOutcome {
  Vec3 linearVelocityA = Vec3::Zero();
  Vec3 angularVelocityA = Vec3::Zero();
  Vec3 linearVelocityB = Vec3::Zero();
  Vec3 angularVelocityB = Vec3::Zero();
  Vec3 impulse = Vec3::Zero();  ///< impulse on B at the contact point (N s); A receives −impulse
  double energyChange = 0.0;  ///< kinetic energy after minus before (J); never > 0 for carom's laws
  std::string trace;          ///< a short human-readable account (phases, stick/slip, iterations)
  ///< False when the law could not finish (a Stronge integration that did not converge; the trace
  ///< says why): then the impulse is zero and the velocities are the pre-impact ones. The caller
  ///< decides what to do; carom never substitutes another law silently.
  bool resolved = true;
};

/// Throws carom::Error naming the field when a value is not finite, an inverse mass is negative,
/// an inverse inertia is not symmetric positive semi-definite, the normal is not unit length (to
/// 1e-9), or both bodies are immovable.
void validateContact(const Contact& contact);

/// validateContact's checks of one body, named `role` ("A" or "B") in the message: for a solver of
/// many contacts that checks each body once, not once per contact.
void validateContactBody(const ContactBody& body, const std::string& role);

/// validateContact's checks of the contact itself: its point, its normal, and that one of its
/// bodies can move.
void validateContactGeometry(const Contact& contact);

/// Velocity of B's material point at the contact minus A's (m/s).
Vec3 relativeVelocity(const Contact& contact);
/// Velocity of the body's material point at `point` (world frame, m/s).
inline Vec3 pointVelocity(const ContactBody& body, const Vec3& point) {
  return body.linearVelocity + body.angularVelocity.cross(point - body.centerOfMass);
}

/// K = (1/m_A + 1/m_B) I − S(r_A) J_A⁻¹ S(r_A) − S(r_B) J_B⁻¹ S(r_B), r = point − centre of mass:
/// the change of relativeVelocity per unit impulse on B (1/kg), symmetric positive semi-definite.
Mat3 inverseMassMatrix(const Contact& contact);

/// Kinetic energy of the pair (J), computed from inverse masses and inertias (an immovable body
/// contributes nothing).
double kineticEnergy(const Contact& contact);

/// Applies `impulseOnB` (N s) at the contact point (and its opposite to A) and fills the outcome's
/// velocities, impulse and energyChange.
ImpactOutcome applyImpulse(const Contact& contact, const Vec3& impulseOnB);

/// A contact whose inverse mass matrix is `inverseMass` (K, symmetric positive semi-definite, not
/// zero; 1/kg) and whose relative velocity is `relativeVelocity` (m/s), along `normal`: A
/// immovable, B one body with 1/m the smallest eigenvalue of K and an inertia that gives the rest.
/// Every single-contact law sees a contact only through K, the relative velocity and the normal
/// (contact space), so a law applied to it gives the law's impulse for any mechanism with that
/// response at its contact: a jointed body, whose K is contact::heldInverseMassMatrix. Throws
/// carom::Error for a K that is not finite, symmetric and positive semi-definite, or is zero.
Contact contactWithResponse(const Mat3& inverseMass, const Vec3& relativeVelocity,
                            const Vec3& normal);

/// What the laws and solvers need of a contact, computed once and reused.
struct ContactKinematics {
  Vec3 relativeVelocity;  ///< Δu⁻, relativeVelocity(contact) (m/s)
  Mat3 inverseMass;       ///< K, inverseMassMatrix(contact) (1/kg)
  double normalVelocity;  ///< n·Δu⁻ (m/s)
};

/// applyImpulse with the kinematics already known: no recomputation of Δu⁻ and K.
ImpactOutcome applyImpulse(const Contact& contact, const Vec3& impulseOnB,
                           const ContactKinematics& kinematics);

}  // namespace carom::core::impact
