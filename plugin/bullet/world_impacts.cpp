// Stage 4's resolution: the contacts touching at an impact instant mapped from pre- to
// post-impact velocities. One contact: the pair material's impact law (core::impact::applyLaw).
// Several: Halm–Posa's simultaneous model with the configured policy and per-contact energetic
// restitution (core::routh::resolveImpactWithRestitution).
#include <cmath>
#include <optional>

#include "bt_eigen.h"
#include "carom/core/routh/policy.h"
#include "carom/core/routh/restitution.h"
#include "disjoint_sets.h"
#include "partner_frame.h"
#include "variational_step.h"

namespace carom {

using detail::toBt;

namespace {

// Two unit tangents completing the unit normal n to a right-handed frame.
std::pair<core::Vec3, core::Vec3> tangentsOf(const core::Vec3& n) {
  const core::Vec3 helper = std::abs(n.x()) < 0.9 ? core::Vec3::UnitX() : core::Vec3::UnitY();
  const core::Vec3 t1 = n.cross(helper).normalized();
  return {t1, n.cross(t1)};
}

core::routh::ImpactPolicy policyOf(const SolverSettings& settings, Eigen::Index contacts,
                                   double impulseScale) {
  core::routh::ImpactPolicy policy;
  policy.seed = settings.seed;
  switch (settings.simultaneous) {
    case SimultaneousModel::routh:
      // Equal impulse rates at every contact (Halm & Posa policy B); a tenth of the largest
      // single-contact stopping impulse per step resolves a landing in about ten step LCPs.
      policy.kind = core::routh::PolicyKind::kEqualRate;
      policy.stepSize = impulseScale / 10;
      policy.sim.maxSteps = 40;
      break;
    case SimultaneousModel::simultaneous:
      policy.kind = core::routh::PolicyKind::kSimultaneous;
      break;
    case SimultaneousModel::sequential:
      policy.kind = core::routh::PolicyKind::kSequential;
      for (Eigen::Index i = 0; i < contacts; ++i)
        policy.order.push_back(i);
      break;
  }
  return policy;
}

}  // namespace

VariationalStep::Outcome VariationalStep::resolveImpact(const Island& island, double elapsed) {
  std::vector<PairContact> contacts;
  std::vector<core::impact::Contact> geometry;
  bool approaching = false;
  DistinctContacts distinct;
  for (const int p : island.pairs) {
    const CandidatePair& pair = m_pairs[p];
    if (!mayTouch(p)) continue;
    const double distance = gapNow(p).distance;
    if (distance + pair.slack > kContactTolerance) continue;
    const std::vector<PairContact> touching = contactsNow(p);
    // Whatever happens to them now, these contacts have been dealt with: an impact separates or
    // stops them, a graze separates them, a landing holds them.
    markTouching(p, distance, touching);
    const core::impact::ContactBody bodyA = contactBodyOf(pair.bodyA, pair.a);
    const core::impact::ContactBody bodyB = contactBodyOf(pair.bodyB, pair.b);
    const double restingSpeed = restingSpeedOf(materialOf(pair.a, pair.b));
    for (const PairContact& contact : touching) {
      const core::impact::Contact c{bodyA, bodyB, contact.point, contact.normal};
      const double approach = -contact.normal.dot(core::impact::relativeVelocity(c));
      approaching = approaching || approach > 0;
      // A contact approaching at most at the resting speed is a persistent one (stage 5), held or
      // to be held: it takes no part in the impact, which would otherwise spread over every resting
      // contact of a pile that gravity presses together within the step.
      if (approach > restingSpeed && distinct.add(contact)) {
        contacts.push_back(contact);
        geometry.push_back(c);
      }
    }
  }
  // A landing (contacts approach, none faster than the resting speed) is no bounce: its contacts
  // become persistent (stage 5), which stops the approach without a Zeno series of tiny bounces.
  // Nothing approaching at all is a graze: the gap closed and opens again.
  if (contacts.empty()) return approaching ? Outcome::kLanding : Outcome::kGraze;

  // Contacts that share no moving body are independent impacts at the same instant (a row of
  // balls dropped together): each group is resolved on its own, one contact by its law, several
  // by the simultaneous model, whose LCP grows with its contacts.
  DisjointSets groups(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      const CandidatePair& a = contacts[i].pair;
      const CandidatePair& b = contacts[j].pair;
      const bool shared = (a.bodyA != kFixed && (a.bodyA == b.bodyA || a.bodyA == b.bodyB)) ||
                          (a.bodyB != kFixed && (a.bodyB == b.bodyA || a.bodyB == b.bodyB));
      if (shared) groups.join(static_cast<int>(i), static_cast<int>(j));
    }
  }
  ImpactEvent event;
  event.time = m_world.m_simulatedTime + elapsed * m_timeStep;
  event.fraction = elapsed;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (groups.root(static_cast<int>(i)) != static_cast<int>(i)) continue;
    std::vector<PairContact> members;
    std::vector<core::impact::Contact> memberGeometry;
    for (std::size_t j = 0; j < contacts.size(); ++j) {
      if (groups.root(static_cast<int>(j)) != static_cast<int>(i)) continue;
      members.push_back(contacts[j]);
      memberGeometry.push_back(geometry[j]);
    }
    event.contacts = static_cast<int>(members.size());
    for (const PairContact& member : members) {  // struck: their pairs' gaps count again
      for (const int body : {member.pair.bodyA, member.pair.bodyB}) {
        if (body == kFixed) continue;
        for (const int p : m_pairsOf[body])
          m_tracks[p].quiet = false;
      }
    }
    if (members.size() == 1) {
      resolveOne(members[0], memberGeometry[0], event);
    } else {
      resolveSimultaneous(members, memberGeometry, event);
    }
  }
  return Outcome::kImpact;
}

void VariationalStep::resolveOne(const PairContact& contact, const core::impact::Contact& c,
                                 ImpactEvent event) {
  const CandidatePair& pair = contact.pair;
  const core::impact::ImpactLaw law = core::impact::impactLaw(materialOf(pair.a, pair.b));
  const core::impact::ImpactOutcome outcome = core::impact::applyLaw(c, law);
  applyVelocities(pair.bodyA, outcome.linearVelocityA, outcome.angularVelocityA);
  applyVelocities(pair.bodyB, outcome.linearVelocityB, outcome.angularVelocityB);
  core::impact::Contact after = c;
  after.a.linearVelocity = outcome.linearVelocityA;
  after.a.angularVelocity = outcome.angularVelocityA;
  after.b.linearVelocity = outcome.linearVelocityB;
  after.b.angularVelocity = outcome.angularVelocityB;
  event.bodyA = pair.a;
  event.bodyB = pair.b;
  event.point = toBt(c.point);
  event.normal = toBt(c.normal);
  event.impulse = toBt(outcome.impulse);
  event.law = core::impact::toString(core::impact::kindOf(law));
  event.normalVelocityBefore = c.normal.dot(core::impact::relativeVelocity(c));
  event.normalVelocityAfter = c.normal.dot(core::impact::relativeVelocity(after));
  event.energyChange = outcome.energyChange;
  m_events.emplace_back(m_running, event);
}

void VariationalStep::resolveOneByOne(const std::vector<PairContact>& contacts, ImpactEvent event) {
  event.contacts = 1;
  for (const PairContact& contact : contacts) {
    const core::impact::Contact c{contactBodyOf(contact.pair.bodyA, contact.pair.a),
                                  contactBodyOf(contact.pair.bodyB, contact.pair.b), contact.point,
                                  contact.normal};
    if (contact.normal.dot(core::impact::relativeVelocity(c)) < 0) resolveOne(contact, c, event);
  }
}

void VariationalStep::resolveSimultaneous(const std::vector<PairContact>& contacts,
                                          const std::vector<core::impact::Contact>& geometry,
                                          ImpactEvent event) {
  // Several contacts: generalized velocities v = [v_i; ω_i] of the step bodies involved, M =
  // blockdiag(m I, J_world), and per contact the rows u = d·(v_B + ω_B × r_B − v_A − ω_A × r_A)
  // for d = n, t1, t2 (Halm & Posa digest §1, rigid bodies in 3D).
  // Solved in the frame of the kinematic partners (partner_frame.h); contact by contact where
  // they have none.
  const std::optional<core::Vec3> frame = detail::partnersRestFrame(geometry);
  if (!frame) {
    resolveOneByOne(contacts, event);
    return;
  }
  const core::Vec3& shift = *frame;
  std::vector<int> involved;
  auto slotOf = [&](int index) {
    if (index == kFixed) return -1;
    const auto found = std::find(involved.begin(), involved.end(), index);
    if (found != involved.end()) return static_cast<int>(found - involved.begin());
    involved.push_back(index);
    return static_cast<int>(involved.size()) - 1;
  };
  for (const PairContact& contact : contacts) {
    slotOf(contact.pair.bodyA);
    slotOf(contact.pair.bodyB);
  }
  const Eigen::Index m = static_cast<Eigen::Index>(contacts.size());
  const Eigen::Index n = 6 * static_cast<Eigen::Index>(involved.size());
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd vMinus(n);
  for (std::size_t s = 0; s < involved.size(); ++s) {
    const StepBody& body = m_bodies[involved[s]];
    const core::impact::ContactBody c = contactBodyOf(involved[s], body.rigidBody);
    M.block<3, 3>(6 * s, 6 * s) = body.mass.mass() * core::Mat3::Identity();
    // A body whose rotation is locked keeps its spin: no contact row reaches it (below), and any
    // positive block leaves it as it is.
    M.block<3, 3>(6 * s + 3, 6 * s + 3) =
        body.rotationLocked
            ? core::Mat3::Identity()
            : core::Mat3(body.state.R * body.mass.inertia() * body.state.R.transpose());
    vMinus.segment<3>(6 * s) = c.linearVelocity - shift;
    vMinus.segment<3>(6 * s + 3) = c.angularVelocity;
  }
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(m, n);
  Eigen::MatrixXd Jt = Eigen::MatrixXd::Zero(2 * m, n);
  Eigen::VectorXd mu(m), restitution(m);
  std::vector<std::pair<core::Vec3, core::Vec3>> tangents;
  for (Eigen::Index i = 0; i < m; ++i) {
    const PairContact& contact = contacts[i];
    const core::impact::Contact& c = geometry[i];
    tangents.push_back(tangentsOf(contact.normal));
    const core::Vec3 directions[3] = {contact.normal, tangents.back().first,
                                      tangents.back().second};
    const core::impact::Material material = materialOf(contact.pair.a, contact.pair.b);
    mu(i) = material.friction;
    restitution(i) = material.restitution;
    for (int side = 0; side < 2; ++side) {
      const int slot = slotOf(side == 0 ? contact.pair.bodyA : contact.pair.bodyB);
      if (slot < 0) continue;
      const double sign = side == 0 ? -1.0 : 1.0;
      const core::Vec3 r = contact.point - (side == 0 ? c.a : c.b).centerOfMass;
      for (int k = 0; k < 3; ++k) {
        Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(n);
        row.segment<3>(6 * slot) = sign * directions[k].transpose();
        if (!m_bodies[involved[slot]].rotationLocked)
          row.segment<3>(6 * slot + 3) = sign * r.cross(directions[k]).transpose();
        if (k == 0)
          Jn.row(i) += row;
        else
          Jt.row(2 * i + k - 1) += row;
      }
    }
  }
  const core::routh::ImpactProblem problem = core::routh::ImpactProblem::spatial(M, Jn, Jt, mu);
  double impulseScale = 0;  // the largest impulse that stops one contact alone (N s)
  const Eigen::MatrixXd Minv = M.inverse();
  for (Eigen::Index i = 0; i < m; ++i) {
    const double approach = -Jn.row(i).dot(vMinus);
    impulseScale = std::max(impulseScale, approach / Jn.row(i).dot(Minv * Jn.row(i).transpose()));
  }
  const core::routh::RestitutionResult result = core::routh::resolveImpactWithRestitution(
      problem, vMinus, policyOf(m_world.getConfig().solver, m, impulseScale), restitution);
  Eigen::VectorXd toWorld = Eigen::VectorXd::Zero(n);  // back from the kinematic partner's frame
  for (std::size_t s = 0; s < involved.size(); ++s)
    toWorld.segment<3>(6 * s) = shift;
  for (std::size_t s = 0; s < involved.size(); ++s) {
    applyVelocities(involved[s], result.v.segment<3>(6 * s) + shift,
                    result.v.segment<3>(6 * s + 3));
  }
  const double energyChange =
      problem.kineticEnergy(result.v + toWorld) - problem.kineticEnergy(vMinus + toWorld);
  const core::routh::ImpactOutcome& compression = result.compression.outcome;
  const Eigen::Index k = problem.directions();
  for (Eigen::Index i = 0; i < m; ++i) {
    core::Vec3 impulse = compression.impulseN(i) * contacts[i].normal;
    for (Eigen::Index j = 0; j < k; ++j) {
      const double angle = 2 * M_PI * static_cast<double>(j) / static_cast<double>(k);
      impulse += compression.impulseD(i * k + j) *
                 (std::cos(angle) * tangents[i].first + std::sin(angle) * tangents[i].second);
    }
    event.bodyA = contacts[i].pair.a;
    event.bodyB = contacts[i].pair.b;
    event.point = toBt(contacts[i].point);
    event.normal = toBt(contacts[i].normal);
    event.impulse = toBt(impulse);
    event.law = toString(m_world.getConfig().solver.simultaneous);
    event.normalVelocityBefore = Jn.row(i).dot(vMinus);
    event.normalVelocityAfter = Jn.row(i).dot(result.v);
    event.energyChange = energyChange;
    m_events.emplace_back(m_running, event);
  }
}

}  // namespace carom
