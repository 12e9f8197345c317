// Stage 5 of the variational step: persistent (resting and sliding) contacts. The contacts that
// touch at the start of the step with a normal speed of at most kRestingSpeed are solved once per
// step by the velocity-level LCP with Coulomb friction (core::contact::solvePersistentContacts),
// on the velocities the step's loads would give at its end (v + h a), warm-started from the last
// step. Its impulse P is applied half before and half after the LGVI flow: for a body at rest
// under gravity the flow then gives x⁺ = x + h(−½hg) + ½h²g = x exactly (Tran & Leok (5.9a)), so a
// box at rest neither creeps nor sinks, and a sliding one loses μ g h of speed per step.
#include "bt_eigen.h"
#include "variational_step.h"

namespace carom {

using detail::toBt;
using detail::toEigen;

void VariationalStep::solvePersistentContacts() {
  std::vector<core::BodyState> current;
  for (const StepBody& body : m_bodies)
    current.push_back(body.state);
  // LCP bodies: the step bodies (same indices), then the fixed objects the contacts touch.
  std::vector<core::impact::ContactBody> bodies;
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    const StepBody& body = m_bodies[i];
    core::impact::ContactBody c = contactBodyOf(static_cast<int>(i), body.rigidBody);
    c.linearVelocity +=
        m_timeStep * (body.load.gravity + body.mass.inverseMass() * body.load.force);
    c.angularVelocity += m_timeStep * (c.inverseInertiaWorld * body.load.torque);
    bodies.push_back(c);
  }
  std::vector<core::contact::PersistentContact> contacts;
  const auto lcpIndex = [&](int index, const btCollisionObject* object) {
    if (index != kFixed) return index;
    bodies.push_back(contactBodyOf(kFixed, object));
    return static_cast<int>(bodies.size()) - 1;
  };
  for (const CandidatePair& pair : m_pairs) {
    if (gapOf(pair, current).distance > kContactTolerance) continue;
    for (const PairContact& contact : contactsOf(pair, current)) {
      const core::impact::Contact c{contactBodyOf(pair.bodyA, pair.a),
                                    contactBodyOf(pair.bodyB, pair.b), contact.point,
                                    contact.normal};
      if (std::abs(contact.normal.dot(core::impact::relativeVelocity(c))) > kRestingSpeed) continue;
      const auto warm = m_world.m_warmStart.find({{pair.a, pair.b}, contact.feature});
      core::contact::PersistentContact held;
      held.bodyA = lcpIndex(pair.bodyA, pair.a);
      held.bodyB = lcpIndex(pair.bodyB, pair.b);
      held.point = contact.point;
      held.normal = contact.normal;
      held.friction = materialOf(pair.a, pair.b).friction;
      if (warm != m_world.m_warmStart.end()) held.impulse = toEigen(warm->second);
      contacts.push_back(held);
      const auto lever = [&](int index) {
        return index == kFixed ? core::Vec3::Zero().eval()
                               : (m_bodies[index].state.R.transpose() *
                                  (contact.point - m_bodies[index].state.x))
                                     .eval();
      };
      m_held.push_back({held, lever(pair.bodyA), lever(pair.bodyB), pair, contact.feature});
    }
  }
  m_world.m_warmStart.clear();
  if (contacts.empty()) return;
  const core::contact::PersistentContactReport report =
      core::contact::solvePersistentContacts(bodies, contacts);
  if (!report.ok()) m_diagnostics.message = "persistent contacts: " + report.message;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    m_held[i].contact.impulse = contacts[i].impulse;
    m_world.m_warmStart[{{m_held[i].pair.a, m_held[i].pair.b}, m_held[i].feature}] =
        toBt(contacts[i].impulse);
  }
  m_diagnostics.persistentContacts = static_cast<int>(contacts.size());
}

// Half of each persistent impulse P (on B, −P on A): γ += ½P, Π += ½ ρ × RᵀP with ρ the contact
// point's body-frame lever arm, which moves with the body through the flow.
void VariationalStep::applyPersistentHalf() {
  for (const HeldContact& held : m_held) {
    const core::Vec3 half = 0.5 * held.contact.impulse;
    const auto kick = [&](int index, const core::Vec3& lever, double sign) {
      if (index == kFixed) return;
      core::BodyState& state = m_bodies[index].state;
      state.gamma += sign * half;
      state.Pi += sign * lever.cross(state.R.transpose() * half);
    };
    kick(held.pair.bodyA, held.leverA, -1.0);
    kick(held.pair.bodyB, held.leverB, 1.0);
  }
}

}  // namespace carom
