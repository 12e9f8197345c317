#include "carom/core/impact/strict.h"

#include <cmath>
#include <string>

#include "carom/error.h"
#include "law_support.h"

namespace carom::core::impact {
namespace {

// Tolerance (dimensionless) on |t| − 1 and on t·n for the rough direction t, as for the normal.
constexpr double kDirectionTolerance = 1e-9;

constexpr const char* kOwner = "strict parameters";

// The impulse within 𝒲 = span(n, rough directions) that arrests the relative velocity `du` there
// (roughness 1 or 2; roughness 0 uses the normal alone).
Vec3 roughArrestImpulse(const Vec3& normal, const StrictParameters& parameters,
                        const Mat3& inverseMass, const Vec3& du) {
  if (parameters.roughness == 2) {
    return impulseWithin<3>(Mat3::Identity(), inverseMass, -du);  // completely rough: 𝒲 = R³
  }
  ImpulseBasis<2> w;
  w << normal, parameters.roughDirection;
  return impulseWithin(w, inverseMass, -du);
}

}  // namespace

void validateStrictParameters(const StrictParameters& parameters, const Vec3& normal) {
  requireRoughnessRank(parameters.roughness, kOwner);
  if (parameters.roughness == 1) {
    const Vec3& t = parameters.roughDirection;
    if (!t.allFinite() || std::abs(t.norm() - 1.0) > kDirectionTolerance) {
      throw Error("strict parameters: roughDirection must be finite and of unit length");
    }
    if (std::abs(t.dot(normal)) > kDirectionTolerance) {
      throw Error("strict parameters: roughDirection must be perpendicular to the contact normal");
    }
  }
  requireUnitInterval(parameters.normalRestitution, kOwner, "normalRestitution");
  requireUnitInterval(parameters.tangentialRestitution, kOwner, "tangentialRestitution");
}

ImpactOutcome strictImpact(const Contact& contact, const StrictParameters& parameters) {
  const ContactKinematics kinematics = approachingContact(contact);
  validateStrictParameters(parameters, contact.normal);
  const Mat3& inverseMass = kinematics.inverseMass;
  const Vec3& du = kinematics.relativeVelocity;
  // Digest §6: C_e = I − (1 + e_n) P_n − (1 + e_r)(P_E − P_n); e_n = e_r = 1 gives C = I − 2P_E,
  // the engine form of the strict map (digest §2.2; Cor 2.1 of the paper). Below, the impulses
  // that arrest the relative velocity along n alone and along all of 𝒲 change the state by −P_n x
  // and −P_E x, P_E = M⁻¹GᵀW(WᵀKW)⁻¹WᵀG (digest §2.2, via BᵀMB = WᵀKW).
  const Vec3 normalArrest = impulseWithin(contact.normal, inverseMass, -du);
  const Vec3 roughArrest =
      parameters.roughness == 0
          ? Vec3::Zero()
          : Vec3(roughArrestImpulse(contact.normal, parameters, inverseMass, du) - normalArrest);
  ImpactOutcome outcome = applyImpulse(contact,
                                       (1.0 + parameters.normalRestitution) * normalArrest +
                                           (1.0 + parameters.tangentialRestitution) * roughArrest,
                                       kinematics);
  // A literal short enough for the small-string buffer: formatting the coefficients here cost
  // more than the map itself, and the caller already holds them.
  static constexpr const char* kTraces[] = {"strict, rank 0", "strict, rank 1", "strict, rank 2"};
  outcome.trace = kTraces[parameters.roughness];
  return outcome;
}

}  // namespace carom::core::impact
