#include "carom/core/impact/classical.h"

#include <cmath>
#include <string>

#include "carom/error.h"
#include "law_support.h"

namespace carom::core::impact {
namespace {

// The impulse of one phase and whether the Coulomb rule found it sticking.
struct Phase {
  Vec3 impulse;
  bool stuck;
};

const char* slipName(bool stuck) {
  return stuck ? "stick" : "slide";
}

// Phase ending at the relative normal velocity `normalVelocityEnd` (m/s), from relative velocity
// `du`: the Coulomb rule of classical.h with the normal condition n·Δu = normalVelocityEnd.
Phase velocityPhase(const Mat3& inverseMass, const Vec3& n, const Vec3& du,
                    double normalVelocityEnd, double friction) {
  const Vec3 trial = impulseWithin<3>(Mat3::Identity(), inverseMass, normalVelocityEnd * n - du);
  const double trialNormal = n.dot(trial);
  const Vec3 trialTangential = trial - trialNormal * n;
  if (trialNormal >= 0.0 && trialTangential.norm() <= friction * trialNormal) return {trial, true};
  // Slide: P = P_n (n + μ t̂), t̂ the trial's tangential direction; n·(Δu + K P) = end fixes P_n.
  const Vec3 direction = n + friction * trialTangential.normalized();
  const double normalGain = n.dot(inverseMass * direction);  // n·Δu per unit P_n (1/kg)
  if (!(normalGain > 0.0)) {
    throw Error(
        "classical impact: no sliding impulse meets the normal condition (nᵀK(n + μt) "
        "<= 0, a Painlevé-type inconsistency); lower the friction coefficient");
  }
  return {(normalVelocityEnd - n.dot(du)) / normalGain * direction, false};
}

// Phase with the normal impulse fixed to `normalImpulse` (N s), from relative velocity `du`: the
// tangential impulse follows the Coulomb rule of classical.h.
Phase normalImpulsePhase(const Mat3& inverseMass, const Vec3& n, const Vec3& du,
                         double normalImpulse, double friction) {
  const Vec3 t1 = n.unitOrthogonal();
  ImpulseBasis<2> tangents;
  tangents << t1, n.cross(t1);
  const Vec3 normalPart = normalImpulse * n;
  // Stick trial: the tangential impulse that zeroes the tangential slip left by normalPart.
  const Vec3 trial = impulseWithin(tangents, inverseMass, -(du + inverseMass * normalPart));
  const double bound = friction * normalImpulse;
  if (trial.norm() <= bound) return {normalPart + trial, true};
  return {normalPart + bound * trial.normalized(), false};
}

}  // namespace

void validateClassicalParameters(const ClassicalParameters& parameters) {
  requireUnitInterval(parameters.restitution, "classical parameters", "restitution");
  requireNonNegative(parameters.friction, "classical parameters", "friction");
}

ImpactOutcome newtonImpact(const Contact& contact, const ClassicalParameters& parameters) {
  const ContactKinematics kinematics = approachingContact(contact);
  validateClassicalParameters(parameters);
  const Phase phase =
      velocityPhase(kinematics.inverseMass, contact.normal, kinematics.relativeVelocity,
                    -parameters.restitution * kinematics.normalVelocity, parameters.friction);
  ImpactOutcome outcome = applyImpulse(contact, phase.impulse, kinematics);
  outcome.trace = std::string("newton: ") + slipName(phase.stuck);
  return outcome;
}

ImpactOutcome poissonImpact(const Contact& contact, const ClassicalParameters& parameters) {
  const ContactKinematics kinematics = approachingContact(contact);
  validateClassicalParameters(parameters);
  const Mat3& inverseMass = kinematics.inverseMass;
  const Vec3& n = contact.normal;
  const Vec3& du = kinematics.relativeVelocity;
  const Phase compression = velocityPhase(inverseMass, n, du, 0.0, parameters.friction);
  const Phase restitution =
      normalImpulsePhase(inverseMass, n, du + inverseMass * compression.impulse,
                         parameters.restitution * n.dot(compression.impulse), parameters.friction);
  ImpactOutcome outcome =
      applyImpulse(contact, compression.impulse + restitution.impulse, kinematics);
  outcome.trace = std::string("poisson: compression ") + slipName(compression.stuck) +
                  ", restitution " + slipName(restitution.stuck);
  return outcome;
}

}  // namespace carom::core::impact
