// Stage 4's resolution: the contacts touching at an impact instant mapped from pre- to
// post-impact velocities. One contact: the pair material's impact law (core::impact::applyLaw).
// Several: Halm–Posa's simultaneous model with the configured policy and per-contact energetic
// restitution (core::routh::resolveImpactWithRestitution).
#include <algorithm>
#include <cmath>
#include <optional>

#include "bt_eigen.h"
#include "carom/core/routh/policy.h"
#include "disjoint_sets.h"
#include "partner_frame.h"
#include "simultaneous_impact.h"
#include "variational_step.h"

namespace carom {

using detail::toBt;

namespace {

// The configured simultaneous model's policy (detail::ImpactPolicyChooser).
core::routh::ImpactPolicy policyOf(const SolverSettings& settings, const Eigen::VectorXd& approach,
                                   const Eigen::VectorXd& effectiveMass) {
  core::routh::ImpactPolicy policy = detail::oneOutcomePolicy(settings.seed);
  switch (settings.simultaneous) {
    case SimultaneousModel::routh:
      // Equal impulse rates at every contact (Halm & Posa policy B); a tenth of the largest
      // single-contact stopping impulse per step resolves a landing in about ten step LCPs.
      policy.kind = core::routh::PolicyKind::kEqualRate;
      policy.stepSize = approach.cwiseProduct(effectiveMass).maxCoeff() / 10;
      policy.sim.maxSteps = 40;
      break;
    case SimultaneousModel::simultaneous:
      policy.kind = core::routh::PolicyKind::kSimultaneous;
      break;
    case SimultaneousModel::sequential:
      policy.kind = core::routh::PolicyKind::kSequential;
      for (Eigen::Index i = 0; i < approach.size(); ++i)
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
    if (!mayTouch(p) && p != m_nextPair) continue;  // the event's own pair may be a near one's dip
    // Apart beyond touching by its lower bound, with no gap query (the event's own pair is asked).
    if (p != m_nextPair && gapNowAtLeast(p) + pair.slack > kContactTolerance) continue;
    const double distance = gapNow(p).distance;
    // The event's own pair touches where its impact was located: at a vertex
    // (earliestVertexImpact), half the contact tolerance inside touching, its gap is up to the
    // tolerance, above what its slack (from an earlier touch) leaves. Left out, the vertex would
    // meet no impact and the island would be held as if landing; the vertex, still approaching,
    // would be found again at once.
    const bool located = p == m_nextPair && distance <= kContactTolerance;
    if (distance + pair.slack > kContactTolerance && !located) continue;
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
      // Bodies joined by joints move as one (an impact on one link moves the whole chain).
      const bool shared = linked(a.bodyA, b.bodyA) || linked(a.bodyA, b.bodyB) ||
                          linked(a.bodyB, b.bodyA) || linked(a.bodyB, b.bodyB);
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
        for (const int p : m_pairsOf[body]) {
          m_tracks[p].quiet = false;
          rescan(p);
        }
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
  core::impact::Contact after = c;
  core::impact::ImpactOutcome outcome;
  event.law = core::impact::toString(core::impact::kindOf(law));
  if (jointed(pair.bodyA) || jointed(pair.bodyB)) {
    const std::optional<core::impact::ImpactOutcome> held = resolveJointed(pair, c, law, after);
    if (!held) return;  // the joints hold the contact still: nothing to strike
    outcome = *held;
    event.law += " (jointed)";
  } else {
    outcome = core::impact::applyLaw(c, law, core::impact::TraceWhen::kOnFailure);
    applyVelocities(pair.bodyA, outcome.linearVelocityA, outcome.angularVelocityA);
    applyVelocities(pair.bodyB, outcome.linearVelocityB, outcome.angularVelocityB);
    after.a.linearVelocity = outcome.linearVelocityA;
    after.a.angularVelocity = outcome.angularVelocityA;
    after.b.linearVelocity = outcome.linearVelocityB;
    after.b.angularVelocity = outcome.angularVelocityB;
  }
  event.bodyA = pair.a;
  event.bodyB = pair.b;
  event.point = toBt(c.point);
  event.normal = toBt(c.normal);
  event.impulse = toBt(outcome.impulse);
  event.normalVelocityBefore = c.normal.dot(core::impact::relativeVelocity(c));
  event.normalVelocityAfter = c.normal.dot(core::impact::relativeVelocity(after));
  event.energyChange = outcome.energyChange;
  if (!outcome.resolved) event.law += " (unresolved: " + outcome.trace + ")";
  m_events.emplace_back(m_running, event);
}

int VariationalStep::addToProblem(JointedProblem& problem, int index,
                                  const core::impact::ContactBody& side) const {
  std::vector<int>& involved = problem.involved;
  const auto found = std::find(involved.begin(), involved.end(), index);
  if (index != kFixed && found != involved.end()) return static_cast<int>(found - involved.begin());
  if (!jointed(index)) {
    involved.push_back(index);
    problem.bodies.push_back(side);
    return static_cast<int>(problem.bodies.size()) - 1;
  }
  const detail::JointGroup& group = m_joints.groups[m_joints.groupOf[index]];
  std::vector<int> slots;
  std::vector<core::BodyState> states;
  for (const int member : group.bodies) {
    slots.push_back(static_cast<int>(problem.bodies.size()));
    involved.push_back(member);
    problem.bodies.push_back(contactBodyOf(member, m_bodies[member].rigidBody));
    states.push_back(stateNow(member));
  }
  const std::vector<core::contact::JointRow> rows = detail::jointRowsOf(group, states, slots);
  problem.groups.emplace_back(m_joints.groupOf[index], problem.rows.size());
  problem.rows.insert(problem.rows.end(), rows.begin(), rows.end());
  return static_cast<int>(std::find(involved.begin(), involved.end(), index) - involved.begin());
}

VariationalStep::JointedProblem VariationalStep::jointedProblemOf(
    const CandidatePair& pair, const core::impact::ContactBody& sideA,
    const core::impact::ContactBody& sideB) const {
  JointedProblem problem;
  problem.a = addToProblem(problem, pair.bodyA, sideA);
  problem.b = addToProblem(problem, pair.bodyB, sideB);
  return problem;
}

std::optional<core::impact::ImpactOutcome> VariationalStep::resolveJointed(
    const CandidatePair& pair, const core::impact::Contact& c, const core::impact::ImpactLaw& law,
    core::impact::Contact& after) {
  JointedProblem problem = jointedProblemOf(pair, c.a, c.b);
  const core::contact::JointSystem joints(problem.bodies, problem.rows);
  Eigen::VectorXd jointImpulses;
  const std::optional<core::impact::ImpactOutcome> outcome = core::contact::applyHeldLaw(
      problem.bodies, joints, problem.a, problem.b, c.point, c.normal, law, &jointImpulses);
  if (!outcome) return std::nullopt;
  addJointImpulses(problem, jointImpulses);
  for (std::size_t i = 0; i < problem.involved.size(); ++i) {
    applyVelocities(problem.involved[i], problem.bodies[i].linearVelocity,
                    problem.bodies[i].angularVelocity);
  }
  after.a = problem.bodies[problem.a];
  after.b = problem.bodies[problem.b];
  return outcome;
}

void VariationalStep::addJointImpulses(const JointedProblem& problem,
                                       const Eigen::VectorXd& lambda) {
  for (const auto& [g, first] : problem.groups)
    detail::addRowImpulses(m_joints.groups[g].system, problem.rows, lambda, first, m_jointsNow[g]);
}

void VariationalStep::resolveOneByOne(const std::vector<PairContact>& contacts, ImpactEvent event,
                                      std::size_t overCap) {
  event.contacts = 1;
  for (const PairContact& contact : contacts) {
    const core::impact::Contact c{contactBodyOf(contact.pair.bodyA, contact.pair.a),
                                  contactBodyOf(contact.pair.bodyB, contact.pair.b), contact.point,
                                  contact.normal};
    if (contact.normal.dot(core::impact::relativeVelocity(c)) >= 0) continue;
    resolveOne(contact, c, event);
    if (overCap > 0)
      m_events.back().second.law = detail::inTurnLaw(m_events.back().second.law, overCap);
  }
}

void VariationalStep::resolveSimultaneous(const std::vector<PairContact>& contacts,
                                          const std::vector<core::impact::Contact>& geometry,
                                          ImpactEvent event) {
  // Solved in the frame of the kinematic partners (partner_frame.h); contact by contact where
  // they have none.
  const std::optional<core::Vec3> frame = detail::partnersRestFrame(geometry);
  if (!frame) {
    resolveOneByOne(contacts, event);
    return;
  }
  // The step bodies the contacts touch, in the impact's order, with every body jointed to them
  // and their joint groups' rows: an impact on one link moves the whole chain.
  JointedProblem problem;
  const auto slotOf = [&](int index) {
    if (index == kFixed) return detail::kImmovable;
    return addToProblem(problem, index, contactBodyOf(index, m_bodies[index].rigidBody));
  };
  std::vector<detail::SimultaneousContact> rows;
  for (const PairContact& contact : contacts) {
    rows.push_back({slotOf(contact.pair.bodyA), slotOf(contact.pair.bodyB), contact.point,
                    contact.normal, materialOf(contact.pair.a, contact.pair.b)});
  }
  if (!detail::jointsHoldInFrame(problem.rows, *frame)) {  // the world moves in that frame
    resolveOneByOne(contacts, event);
    return;
  }
  const SolverSettings& settings = m_world.getConfig().solver;
  const detail::SimultaneousPath path =
      detail::simultaneousPath(settings, contacts.size(), !problem.rows.empty());
  if (path == detail::SimultaneousPath::kInTurn) {
    ++m_diagnostics.impactsInTurn;
    resolveOneByOne(contacts, event, contacts.size());
    return;
  }
  const bool sweeps = path == detail::SimultaneousPath::kSweeps;
  if (sweeps) ++m_diagnostics.impactsBySweeps;
  const detail::SimultaneousOutcome outcome =
      sweeps ? detail::resolveBySweeps(problem.bodies, rows, *frame)
             : detail::resolveSimultaneously(
                   problem.bodies, rows, *frame,
                   [&](const Eigen::VectorXd& approach, const Eigen::VectorXd& mass) {
                     return policyOf(settings, approach, mass);
                   },
                   problem.rows);
  for (std::size_t s = 0; s < problem.involved.size(); ++s) {
    applyVelocities(problem.involved[s], problem.bodies[s].linearVelocity,
                    problem.bodies[s].angularVelocity);
  }
  if (!problem.rows.empty()) addJointImpulses(problem, outcome.jointImpulses);
  event.law = sweeps ? detail::bySweepsLaw(settings.simultaneous, contacts.size())
                     : toString(settings.simultaneous);
  if (!outcome.message.empty()) event.law += " (" + outcome.message + ")";
  event.energyChange = outcome.energyChange;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    event.bodyA = contacts[i].pair.a;
    event.bodyB = contacts[i].pair.b;
    event.point = toBt(contacts[i].point);
    event.normal = toBt(contacts[i].normal);
    event.impulse = toBt(outcome.impulse[i]);
    event.normalVelocityBefore = outcome.normalVelocityBefore[i];
    event.normalVelocityAfter = outcome.normalVelocityAfter[i];
    m_events.emplace_back(m_running, event);
  }
}

}  // namespace carom
