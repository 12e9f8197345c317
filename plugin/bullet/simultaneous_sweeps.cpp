// resolveBySweeps (simultaneous_impact.h): a simultaneous impact too large for Halm–Posa's dense
// step LCPs, as one Anitescu–Potra impact solved by the persistent contacts' sweeps.
#include <algorithm>

#include "carom/core/contact/persistent_contact.h"
#include "carom/core/routh/restitution.h"
#include "simultaneous_impact.h"

namespace carom::detail {
namespace {

// The compression phase's sweep cap, and its tolerance: the change of every contact's relative
// velocity over a sweep, as a fraction of the fastest approach, below which it has converged.
// What a capped solve leaves closing is a small part of the approach, which both modes take on
// (lcp mode strikes it again in its next round or holds it as a persistent contact below its
// resting threshold; the variational mode locates it again or holds it).
constexpr int kCompressionSweeps = 100;
constexpr double kCompressionTolerance = 1e-4;

double normalVelocityOf(const std::vector<core::impact::ContactBody>& bodies,
                        const SimultaneousContact& contact) {
  return contact.normal.dot(core::impact::relativeVelocity(contactOf(bodies, contact)));
}

// The sweeps' buffers, kept per thread from impact to impact (about 1 kB a contact, the largest
// impact's): made afresh, an impact of a few hundred contacts maps them from the system and gives
// them back each time, a page fault per page (about 10 µs each on a virtual machine).
core::contact::PersistentContactWorkspace& sweepsWorkspace() {
  thread_local core::contact::PersistentContactWorkspace kept;
  return kept;
}

}  // namespace

SimultaneousOutcome resolveBySweeps(std::vector<core::impact::ContactBody>& bodies,
                                    const std::vector<SimultaneousContact>& contacts,
                                    const core::Vec3& frame) {
  const auto kinetic = [&] {
    double energy = 0.0;
    for (const core::impact::ContactBody& body : bodies)
      energy += core::impact::kineticEnergy({body, core::impact::ContactBody{}});
    return energy;
  };
  SimultaneousOutcome outcome;
  outcome.energyChange = -kinetic();
  // In the frame where every immovable partner rests: the solver's world does not move. The
  // restitution's energy guard is taken there too, as resolveSimultaneously takes it.
  for (core::impact::ContactBody& body : bodies)
    body.linearVelocity -= frame;
  const double energyBefore = kinetic();
  std::vector<core::contact::PersistentContact> rows;
  for (const SimultaneousContact& contact : contacts) {
    outcome.normalVelocityBefore.push_back(normalVelocityOf(bodies, contact));
    rows.push_back({contact.bodyA, contact.bodyB, contact.point, contact.normal,
                    core::impact::frictionAtImpact(contact.material), 0.0, core::Vec3::Zero()});
  }
  // (1) Compression: no contact closing after it (c = 0), Coulomb's law at the velocity after.
  core::contact::PersistentContactSettings settings;
  settings.maxIterations = kCompressionSweeps;
  double fastest = 0.0;  // approach (m/s)
  for (const double before : outcome.normalVelocityBefore)
    fastest = std::max(fastest, -before);
  settings.tolerance = kCompressionTolerance * fastest;
  const core::contact::PersistentContactReport report =
      core::contact::solvePersistentContacts(bodies, rows, settings, sweepsWorkspace());
  if (!report.ok()) outcome.message = "compression by sweeps: " + report.message;
  // (2) Restitution: each contact's compression impulse again times its e, as a linear impulse ΔP
  // and an angular one ΔL about the centre of mass on each body, Δv = ΔP/m and Δω = J⁻¹ΔL; the
  // kinetic energy along s is K_c + a s + ½ b s² with a = ΔP·v_c + ΔL·ω_c and b = ΔP·Δv + ΔL·Δω.
  std::vector<core::Vec3> linear(bodies.size(), core::Vec3::Zero());
  std::vector<core::Vec3> angular(bodies.size(), core::Vec3::Zero());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const SimultaneousContact& contact = contacts[i];
    const core::Vec3 impulse = contact.material.restitution * rows[i].impulse;  // on B
    for (const auto& [index, sign] : {std::pair{contact.bodyA, -1.0}, {contact.bodyB, 1.0}}) {
      if (index == kImmovable) continue;
      const core::impact::ContactBody& body = bodies[static_cast<std::size_t>(index)];
      linear[static_cast<std::size_t>(index)] += sign * impulse;
      angular[static_cast<std::size_t>(index)] +=
          sign * (contact.point - body.centerOfMass).cross(impulse);
    }
  }
  double a = 0.0, b = 0.0;
  std::vector<core::impact::ContactBody> change = bodies;  // Δ: the velocities' change at s = 1
  for (std::size_t s = 0; s < bodies.size(); ++s) {
    const core::impact::ContactBody& body = bodies[s];
    if (rotationLocked(body)) angular[s].setZero();  // it keeps its spin
    change[s].linearVelocity = body.inverseMass * linear[s];
    change[s].angularVelocity = body.inverseInertiaWorld * angular[s];
    a += linear[s].dot(body.linearVelocity) + angular[s].dot(body.angularVelocity);
    b += linear[s].dot(change[s].linearVelocity) + angular[s].dot(change[s].angularVelocity);
  }
  const double energyCompressed = kinetic();
  Eigen::VectorXd un(static_cast<Eigen::Index>(contacts.size()));
  Eigen::VectorXd dn(un.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    un(static_cast<Eigen::Index>(i)) = normalVelocityOf(bodies, contacts[i]);
    dn(static_cast<Eigen::Index>(i)) = normalVelocityOf(change, contacts[i]);
  }
  const double scale =
      core::routh::restitutionScale(std::max(0.0, energyBefore - energyCompressed), a, b, un, dn);
  for (std::size_t s = 0; s < bodies.size(); ++s) {
    bodies[s].linearVelocity += scale * change[s].linearVelocity + frame;
    bodies[s].angularVelocity += scale * change[s].angularVelocity;
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    outcome.impulse.push_back((1 + scale * contacts[i].material.restitution) * rows[i].impulse);
    outcome.normalVelocityAfter.push_back(un(static_cast<Eigen::Index>(i)) +
                                          scale * dn(static_cast<Eigen::Index>(i)));
  }
  outcome.energyChange += kinetic();
  return outcome;
}

}  // namespace carom::detail
