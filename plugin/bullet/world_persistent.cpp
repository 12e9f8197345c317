// Stage 5 of the variational step: persistent (resting and sliding) contacts. The contacts that
// touch at the start of the step (or at a landing inside it) with a normal speed of at most
// the step's resting speed are solved by the velocity-level LCP with Coulomb friction
// (core::contact::solvePersistentContacts) on the velocities the loads would give at the end of
// the step (v + τ a over the remaining time τ; a point a gap g short of touching may still close at
// g/τ), warm-started from the last step. Half its impulse P is applied before the LGVI flow, and
// at the end of the step a plastic LCP stops what still approaches, which for a body at rest or
// sliding is the other half: the flow then gives
// x⁺ = x + h(−½hg) + ½h²g = x exactly (Tran & Leok (5.9a)), so a box at rest neither creeps nor
// sinks, and a sliding one loses μ g h of speed per step.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "bt_eigen.h"
#include "disjoint_sets.h"
#include "persistent_settings.h"
#include "unheld_contact.h"
#include "variational_step.h"

namespace carom {

using detail::toBt;
using detail::toEigen;

namespace {

// Whether a pair's moving body is in `group` (VariationalStep::landingGroupOf): a pair of two
// moving bodies has both in it or neither.
bool inGroup(const std::vector<bool>& group, const CandidatePair& pair) {
  return group[pair.movingBody()];
}

}  // namespace

// The bodies of an island's persistent-contact LCP: the island's bodies at their m_slot, then a
// fixed object (immovable, with its own velocity) for each contact side that touches one. A body
// outside `group` is touched by no contact of the hold: it keeps only its inverse mass (which
// forMassesOf reads), unread otherwise, so that a landing does not flow the island's other bodies
// to its instant (stateNow) nor turn their inertia.
std::vector<core::impact::ContactBody> VariationalStep::lcpBodiesOf(
    const Island& island, const std::vector<bool>* group) const {
  std::vector<core::impact::ContactBody> bodies;
  bodies.reserve(island.bodies.size());
  for (const int body : island.bodies) {
    if (group == nullptr || (*group)[body]) {
      bodies.push_back(contactBodyOf(body, m_bodies[body].rigidBody));
    } else {
      bodies.emplace_back().inverseMass = m_bodies[body].mass.inverseMass();
    }
  }
  return bodies;
}

int VariationalStep::lcpIndexOf(int index, const btCollisionObject* object,
                                std::vector<core::impact::ContactBody>& bodies) const {
  if (index != kFixed) return m_slot[index];
  bodies.push_back(contactBodyOf(kFixed, object));
  return static_cast<int>(bodies.size()) - 1;
}

double VariationalStep::restingSpeedOf(const core::impact::Material& material) const {
  return material.restitution < 1 ? m_restingSpeed : kRestingSpeed;
}

void VariationalStep::holdRestingContacts(const Island& island, int id, double remaining, Hold mode,
                                          bool again) {
  // Which contacts are resting is judged at the velocities the impact search and resolveImpact saw,
  // before the earlier holds are settled: settling takes back what they gave ahead of time, and can
  // push a contact that resolveImpact found resting (a landing) above the resting speed, where it
  // would be neither struck nor held and be found again at the same instant.
  struct Resting {
    int p;
    double distance;
    bool speculative;
    bool closesAtEnd;  // its speculative contacts close exactly at the end of the step
    bool approaching;  // a contact held approaches (normal speed < 0)
    std::vector<PairContact> contacts;  // those held
    std::vector<PairContact> touching;  // all, for markTouching
  };
  const bool startOfStep = mode == Hold::kStartOfStep || mode == Hold::kResting;
  std::vector<Resting> resting;
  DistinctContacts distinct;      // the contacts of `resting`
  std::vector<bool> heldEarlier;  // per pair, at a landing (read only there)
  if (mode == Hold::kLanding) {
    heldEarlier.assign(m_pairs.size(), false);
    for (const HeldContact& earlier : m_held)
      heldEarlier[earlier.p] = heldEarlier[earlier.p] || earlier.island == id;
  }
  for (const int p : island.pairs) {
    // A pair that cannot touch now is held only by an island at rest, where near (below): its gap's
    // bound is not asked.
    if (!mayTouch(p) && mode != Hold::kResting) continue;
    const CandidatePair& pair = m_pairs[p];
    // Apart by more than the holding reach, as its lower bound tells without a gap query: held only
    // as a closing speculative pair (below).
    const bool apart = gapNowAtLeast(p) > m_holdingReach;
    // An island at rest holds every pair within the holding reach too: its hold pushes bodies into
    // neighbours their free flight left apart, and its flow locates no landing to catch them.
    const bool near = mode == Hold::kResting && !apart && gapNow(p).distance <= m_holdingReach;
    if (!mayTouch(p) && !near) continue;
    // The Zeno guard's pair (its next event would exceed a body's events), and every pair of a body
    // that has had its events in the step, is left to the persistent contacts: held whatever its
    // speed, and, where it is still closing in (its trial poses penetrate), touching or not, with
    // every vertex its trial poses sink in, as speculative contacts free to close their gaps over
    // the rest of the step and no more: held where it touches only, a box struck down onto the
    // ground pivots on the corner held and sinks through; with the guard's pair alone held, a body
    // on two others has its pairs held by turns, each sinking to its quiet floor in between.
    const int maxEvents = m_world.getConfig().solver.maxEventsPerStep;
    const bool exhausted = (pair.bodyA != kFixed && m_eventsOf[pair.bodyA] >= maxEvents) ||
                           (pair.bodyB != kFixed && m_eventsOf[pair.bodyB] >= maxEvents);
    const bool guarded = (mode == Hold::kGuard && p == m_nextPair) || exhausted;
    // A pair that its free flight closes, at most at its resting speed, is held as an island at
    // rest holds it, whatever else its island holds: at the start of the step, and at a landing if
    // it is apart within the holding reach and its trial poses close (a touching pair is held as
    // such). Left free where it separates, it comes back within the step and lands, and each
    // landing holds the whole island again. At a landing, not a mesh triangle's or a compound
    // child's pair: a triangle ahead of a roller closes as it rolls over their shared edge, and
    // held at its witness point ahead of the line of contact it pushes the roller back.
    const bool wholeShapes = pair.childA == kWholeShape && pair.childB == kWholeShape;
    const bool closesSlowly =
        mode == Hold::kResting || (mode == Hold::kStartOfStep && m_tracks[p].closesAtRest) ||
        (mode == Hold::kLanding && wholeShapes && m_tracks[p].closing && !apart &&
         gapNow(p).distance > kContactTolerance && closesAtRestingSpeed(p));
    if (apart && !((guarded || closesSlowly) && m_tracks[p].closing)) continue;
    const double distance = gapNow(p).distance;
    // A pair held earlier in the step that its half impulse has lifted apart within the holding
    // reach (a held body rises by up to a h²/8 before it comes back down at the end of the step)
    // stays held, as speculative contacts: dropped, it falls back unheld and lands again, each
    // landing holding the island anew and dropping the pairs lifted apart at that instant.
    const bool lifted = mode == Hold::kLanding && heldEarlier[p] && distance > kContactTolerance &&
                        distance <= m_holdingReach;
    // A pair lifted apart by an earlier hold in the step is held as one closing at rest: allowed to
    // close at g/τ only, it would end the step g/2 short of touching and hover there.
    const bool closesAtEnd = closesSlowly || lifted;
    const bool speculative = guarded || closesAtEnd;
    const bool closing = speculative && (m_tracks[p].closing || near || lifted);
    if (distance > kContactTolerance && !closing) continue;
    const core::impact::ContactBody bodyA = contactBodyOf(pair.bodyA, pair.a);
    const core::impact::ContactBody bodyB = contactBodyOf(pair.bodyB, pair.b);
    constexpr double kAll = std::numeric_limits<double>::infinity();
    const double restingSpeed = guarded ? kAll : restingSpeedOf(materialOf(pair.a, pair.b));
    // An island at rest holds its closing pairs' separating contacts too, as speculative ones: its
    // flow locates no landing to catch them when they come back.
    const double separatingSpeed = guarded || (closesAtEnd && closing) ? kAll
                                   : startOfStep ? kContactTolerance / m_timeStep
                                                 : m_restingSpeed;
    Resting found{
        p,
        distance,
        speculative,
        closesAtEnd,
        false,
        {},
        contactsNow(p, closing ? std::max(0.0, distance) + m_holdingReach : m_holdingReach)};
    if (closing) addSinkingVertices(p, found.touching);
    found.contacts.reserve(found.touching.size() + 1);  // and the witness below
    const auto hold = [&](const PairContact& contact) {
      const core::impact::Contact c{bodyA, bodyB, contact.point, contact.normal};
      const double normalSpeed = contact.normal.dot(core::impact::relativeVelocity(c));
      if (normalSpeed >= -restingSpeed && normalSpeed <= separatingSpeed && distinct.add(contact)) {
        found.contacts.push_back(contact);
        found.approaching = found.approaching || normalSpeed < 0;
      }
    };
    for (const PairContact& contact : found.touching)
      hold(contact);
    // The gap's witness point where the contacts held leave it out: contactsNow lists it only
    // beyond the outline of every contact within the reach, and one of those approaching faster
    // than the resting speed is no held contact (a box turning down onto another about two held
    // corners, a third corner coming fast: the deepest point between them would sink on unheld, and
    // the pair land again and again). Where every contact listed is held, their outline is
    // contactsNow's and the question is answered.
    if (found.contacts.size() < found.touching.size()) {
      const std::optional<PairContact> witness = witnessBeyond(p, found.contacts);
      if (witness) hold(*witness);
    }
    if (!found.contacts.empty()) resting.push_back(std::move(found));
  }
  // A joint group's sticking contacts with static objects are held at the position level instead,
  // in the group's flow (world_pinned_contacts.cpp), where each of its resting pairs holds one
  // contact; not by the Zeno guard, which holds whatever the speed. A pair apart within the holding
  // reach is pinned touching (a ball a hold lifted, which its joints would otherwise keep up) or,
  // separating, let go (a trailing foot lifting off).
  if (mode != Hold::kGuard) {
    std::vector<std::vector<std::size_t>> restingOf(m_joints.groups.size());  // in `resting`
    std::vector<bool> pinnable(m_joints.groups.size(), true);
    for (std::size_t k = 0; k < resting.size(); ++k) {
      const CandidatePair& pair = m_pairs[resting[k].p];
      for (const int body : {pair.bodyA, pair.bodyB}) {
        if (body == kFixed || !jointed(body)) continue;
        const int g = m_joints.groupOf[body];
        if (!restingOf[g].empty() && restingOf[g].back() == k) continue;  // a linked pair
        restingOf[g].push_back(k);
        pinnable[g] = pinnable[g] && resting[k].contacts.size() == 1;
      }
    }
    std::vector<bool> settled(resting.size(), false);  // pinned or let go
    for (std::size_t g = 0; g < restingOf.size(); ++g) {
      if (!pinnable[g]) continue;
      std::vector<HeldPoint> contacts;
      for (const std::size_t k : restingOf[g])
        contacts.push_back({resting[k].p, resting[k].contacts.front()});
      if (pinStickingContacts(static_cast<int>(g), contacts, remaining).empty()) continue;
      for (const std::size_t k : restingOf[g]) {
        settled[k] = true;
        if (resting[k].distance <= kContactTolerance)
          markTouching(resting[k].p, resting[k].distance, resting[k].touching);
      }
    }
    std::vector<Resting> unsettled;
    for (std::size_t k = 0; k < resting.size(); ++k) {
      if (!settled[k]) unsettled.push_back(std::move(resting[k]));
    }
    resting = std::move(unsettled);
  }
  // A landing holds its contact group only: the other groups' contacts, coupled to it by no
  // contact, keep their earlier holds, and their bodies their motion and their searches. Held
  // again, a group's bodies would be kicked by what their earlier holds gave ahead of time and be
  // searched again, each landing costing the whole island (docs/measurements.md). Joints couple
  // bodies that no contact does: an island with joints is held whole.
  std::optional<std::vector<bool>> group;
  const bool joints = std::any_of(island.bodies.begin(), island.bodies.end(),
                                  [&](int body) { return jointed(body); });
  if (mode == Hold::kLanding && !joints) {
    std::vector<int> heldPairs, seeds{m_nextPair};
    for (const Resting& pairResting : resting) {
      heldPairs.push_back(pairResting.p);
      if (pairResting.approaching) seeds.push_back(pairResting.p);
    }
    group = landingGroupOf(id, heldPairs, seeds);
    resting.erase(std::remove_if(resting.begin(), resting.end(),
                                 [&](const Resting& pairResting) {
                                   return !inGroup(*group, m_pairs[pairResting.p]);
                                 }),
                  resting.end());
  }
  settleEarlierHolds(id, remaining, group ? &*group : nullptr);
  if (resting.empty()) return;  // each pair in `resting` holds a contact or more
  std::vector<core::impact::ContactBody> bodies = lcpBodiesOf(island, group ? &*group : nullptr);
  std::vector<core::contact::PersistentContact> contacts;
  std::vector<HeldContact> held;
  std::vector<double> allowance;
  // Per contact: its pair's Resting::closesAtEnd, unless the contact is held in place (below).
  std::vector<bool> closesAtEnd;
  for (const Resting& pairResting : resting) {
    const CandidatePair& pair = m_pairs[pairResting.p];
    const double friction = materialOf(pair.a, pair.b).friction;
    for (const PairContact& contact : pairResting.contacts) {
      core::contact::PersistentContact persistent;
      persistent.bodyA = lcpIndexOf(pair.bodyA, pair.a, bodies);
      persistent.bodyB = lcpIndexOf(pair.bodyB, pair.b, bodies);
      persistent.point = contact.point;
      persistent.normal = contact.normal;
      persistent.friction = friction;
      // A landing at the very end of the step (its instant rounded to it) leaves no time to close.
      // A point apart by at most the contact tolerance, on bodies whose points there move by less
      // than that in a step, touches: held where it is (c = 0), not closed onto the exact surface,
      // whose small gaps a pile's loops of redundant contacts cannot all close at once
      // (docs/measurements.md). A moving body's small gaps are its motion's: a ball rolling over a
      // mesh closes onto the triangle ahead.
      const auto speedAt = [&](int index) {  // a bound on the speed of the body's point there
        const core::impact::ContactBody& body = bodies[index];
        return body.linearVelocity.norm() +
               body.angularVelocity.norm() * (contact.point - body.centerOfMass).norm();
      };
      const bool inPlace =
          contact.gap >= 0 && contact.gap <= kContactTolerance &&
          speedAt(persistent.bodyA) + speedAt(persistent.bodyB) <= kContactTolerance / m_timeStep;
      allowance.push_back(remaining > 0 && !inPlace ? contact.gap / (remaining * m_timeStep) : 0.0);
      // The Zeno guard's speculative contacts are not stopped short of touching by (a) either;
      // those closed at the end of the step may close at up to 2g/τ there, what the hold below can
      // still stop.
      if (pairResting.speculative)
        persistent.approach = (pairResting.closesAtEnd ? 2.0 : 1.0) * allowance.back();
      contacts.push_back(persistent);
      closesAtEnd.push_back(pairResting.closesAtEnd && !inPlace);
      const auto lever = [&](int index) {
        if (index == kFixed) return core::Vec3::Zero().eval();
        const core::BodyState& now = stateNow(index);
        const core::Vec3 world = contact.point - now.x;
        return contact.feature >= 0 ? (now.R.transpose() * world).eval() : world;
      };
      held.push_back({persistent, lever(pair.bodyA), lever(pair.bodyB), pair, contact.feature, id,
                      remaining, pairResting.p});
    }
    // A held pair closes by round-off and by the LCP's tolerance only.
    markTouching(pairResting.p, pairResting.distance, pairResting.touching);
  }

  // Inside the step both solves below start from a pile held before (persistent_settings.h).
  const core::contact::PersistentContactSettings settings =
      again         ? detail::turningHoldSettings(m_timeStep)
      : startOfStep ? detail::stepHoldSettings(m_timeStep)
                    : detail::landingHoldSettings(m_timeStep);
  // (a) Stop what still approaches, at once and plastically: a half impulse would let the body
  // sink by ½τ u_n over the rest of the step. At the start of the step it is solved as the end of
  // the step's stop is, to kHoldDrift: what it leaves approaching the hold (b) takes up, a contact
  // sinking by half of it over the step, and to 1e-12 m/s with friction it crawls for hundreds of
  // sweeps where a pile still moves.
  const core::contact::PersistentContactReport stop = solveHeldContacts(
      island, bodies, contacts, startOfStep ? detail::stepStopSettings(m_timeStep) : settings);
  for (std::size_t i = 0; i < contacts.size(); ++i)
    applyHeldImpulse(held[i], contacts[i].impulse);
  // Speculative contacts closed at the end of the step (an island at rest's, and a slowly closing
  // pair's at the start of the step). With u the normal speed after (a) (> 0 apart) and g the gap,
  // a hold of impulse P > 0 and allowance c ends the kick–flow–kick at g + τu/2 − τc/2 from
  // touching, to first order (x⁺ = x + τ(u + P/2m) + τ²a/2 with u + τa + P/m = −c): c = 2g/τ + u
  // brings the point to touching at the end of the step, where g/τ would leave it g/2 + τu/2
  // short, hovering once the end's stop has taken its speed. Not pushed (P = 0), it ends no closer
  // than touching either:
  // the hold's condition u + τa ≥ −c is then g + τu + τ²a/2 ≥ 0.
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (!closesAtEnd[i]) continue;
    const core::impact::Contact c{bodies[contacts[i].bodyA], bodies[contacts[i].bodyB],
                                  contacts[i].point, contacts[i].normal};
    const double u = c.normal.dot(core::impact::relativeVelocity(c));
    allowance[i] = std::max(0.0, 2.0 * allowance[i] + u);
  }
  // (b) Hold against the loads over the remaining time τ: the LCP on v + τ a, warm-started from
  // the last step. What the contacts held earlier in the step would still have owed is part of
  // this solve now: they are held again here, and their earlier holds are dropped.
  const double duration = remaining * m_timeStep;
  for (const int index : island.bodies) {
    const StepBody& body = m_bodies[index];
    core::impact::ContactBody& lcpBody = bodies[m_slot[index]];
    lcpBody.linearVelocity += duration * body.loadAcceleration();
    lcpBody.angularVelocity += duration * (lcpBody.inverseInertiaWorld * body.load.torque);
  }
  // Warm start: a contact held earlier in this step starts from its impulse then, scaled to the
  // time left (against steady loads the impulse is proportional to it: a pile at rest needs no
  // sweep); the others from the last step's.
  std::map<DynamicsWorld::ContactKey, core::Vec3> thisStepImpulse;
  for (const HeldContact& h : m_held) {
    if (h.island == id) thisStepImpulse[h.key()] = (remaining / h.span) * h.contact.impulse;
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto thisStep = thisStepImpulse.find(held[i].key());
    const auto lastStep = m_world.m_warmStart.find(held[i].key());
    contacts[i].impulse = thisStep != thisStepImpulse.end()       ? thisStep->second
                          : lastStep != m_world.m_warmStart.end() ? toEigen(lastStep->second)
                                                                  : core::Vec3::Zero().eval();
  }
  // A point short of touching (a vertex within the holding reach) may still close over the rest
  // of the step, as a speculative contact: held as touching, it would prop a rocking box up in the
  // air and lift it, gaining energy.
  // A pair whose gap closes at second order by κ (turningClosure) must leave its hold separating
  // at τκ, τ the hold's span (PairTrack::turningSpan): the half impulse given now then carries it
  // up as far as κ brings it back by the span's end.
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const PairTrack& track = m_tracks[held[i].p];
    contacts[i].approach =
        allowance[i] -
        (held[i].feature == -1 ? std::min(duration, track.turningSpan) * track.turning : 0.0);
  }
  // A pile met cold (no warm start at all: a scene's first step) starts from rest at once
  // (PersistentContactSettings::restingStart): a wall's loads would take Gauss–Seidel thousands
  // of sweeps to carry down.
  core::contact::PersistentContactSettings holdSettings = settings;
  holdSettings.restingStart = startOfStep;
  const core::contact::PersistentContactReport hold =
      solveHeldContacts(island, bodies, contacts, holdSettings);
  if (!stop.ok() || !hold.ok()) m_diagnostics.message = stop.ok() ? hold.message : stop.message;
  m_held.erase(std::remove_if(m_held.begin(), m_held.end(),
                              [&](const HeldContact& earlier) {
                                return earlier.island == id &&
                                       (!group || inGroup(*group, earlier.pair));
                              }),
               m_held.end());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    held[i].contact.impulse = contacts[i].impulse;
    applyHeldImpulse(held[i], 0.5 * contacts[i].impulse);
    m_held.push_back(held[i]);
  }
  m_diagnostics.persistentContacts += static_cast<int>(contacts.size());
}

std::vector<bool> VariationalStep::landingGroupOf(int id, const std::vector<int>& held,
                                                  const std::vector<int>& seeds) const {
  DisjointSets joined(m_bodies.size());
  const auto join = [&](const CandidatePair& pair) {
    if (pair.bodyA != kFixed && pair.bodyB != kFixed) joined.join(pair.bodyA, pair.bodyB);
  };
  for (const int p : held)
    join(m_pairs[p]);
  for (const HeldContact& earlier : m_held) {
    if (earlier.island == id) join(earlier.pair);
  }
  std::vector<bool> seeded(m_bodies.size(), false);  // per root
  for (const int p : seeds)
    seeded[joined.root(m_pairs[p].movingBody())] = true;
  std::vector<bool> group(m_bodies.size());
  for (std::size_t body = 0; body < m_bodies.size(); ++body)
    group[body] = seeded[joined.root(static_cast<int>(body))];
  return group;
}

core::Vec3 VariationalStep::worldLever(const HeldContact& held, int index,
                                       const core::Vec3& lever) const {
  return held.feature >= 0 ? (stateNow(index).R * lever).eval() : lever;
}

// A hold of impulse P over a span of the step gives ½P at once and the rest at the end: spread
// evenly over the span, as the contact force it stands for, it would have given φP by now, φ the
// span's fraction gone. Its end is dropped when the island is held again, so (½ − φ)P was given
// ahead of time, and a body at rest, kicked up by it and held again from there early in the step,
// rises by up to ¼ g h² over the step (6.8e-4 m at 60 Hz, derived for a body held on its own; a
// landing's plastic stop on the same body hides it). Taken back, a body at rest enters the new
// hold at rest and stays there. A hold more than half gone has given less than its share; what it
// still owes the new hold gives, if the contact still needs it. A hold over no time (a landing
// rounded to the end of the step) gave nothing ahead of time.
void VariationalStep::settleEarlierHolds(int id, double remaining, const std::vector<bool>* group) {
  for (const HeldContact& held : m_held) {
    if (held.island != id || !(held.span > 0)) continue;
    if (group != nullptr && !inGroup(*group, held.pair)) continue;
    const double gone = (held.span - remaining) / held.span;
    if (gone < 0.5) applyHeldImpulse(held, -(0.5 - gone) * held.contact.impulse);
  }
}

void VariationalStep::forEachJointGroup(const Island& island, const JointGroupVisit& visit) const {
  std::vector<bool> visited(m_joints.groups.size(), false);
  for (const int body : island.bodies) {
    if (!jointed(body) || visited[m_joints.groupOf[body]]) continue;
    visited[m_joints.groupOf[body]] = true;
    const detail::JointGroup& group = m_joints.groups[m_joints.groupOf[body]];
    std::vector<int> slots;
    std::vector<core::BodyState> states;
    for (const int member : group.bodies) {
      slots.push_back(m_slot[member]);
      states.push_back(stateNow(member));
    }
    visit(group, slots, states);
  }
}

std::vector<core::contact::JointRow> VariationalStep::islandJointRows(const Island& island) const {
  std::vector<core::contact::JointRow> rows;
  forEachJointGroup(island, [&](const detail::JointGroup& group, const std::vector<int>& slots,
                                const std::vector<core::BodyState>& states) {
    const std::vector<core::contact::JointRow> groupRows =
        detail::jointRowsOf(group, states, slots);
    rows.insert(rows.end(), groupRows.begin(), groupRows.end());
  });
  return rows;
}

core::contact::PersistentContactReport VariationalStep::solveHeldContacts(
    const Island& island, std::vector<core::impact::ContactBody>& bodies,
    std::vector<core::contact::PersistentContact>& contacts,
    const core::contact::PersistentContactSettings& forEqualMasses) const {
  const core::contact::PersistentContactSettings settings =
      detail::forMassesOf(forEqualMasses, bodies);
  const std::vector<core::contact::JointRow> rows = islandJointRows(island);
  if (rows.empty()) {
    return core::contact::solvePersistentContacts(bodies, contacts, settings, m_contactWorkspace);
  }
  // The joints' rows held still (the flow leaves their velocities at zero; against the loads of
  // the hold they bear their share), solved with the contacts in block Gauss–Seidel rounds
  // (joint_rows.h), each round the contact solver's sweeps.
  const core::contact::JointSystem joints(bodies, rows);
  core::contact::JointSolveSettings jointSettings;
  jointSettings.contacts = settings;
  Eigen::VectorXd impulses;
  std::vector<core::contact::JointRow> bounded = islandStopRows(island, bodies);
  const core::contact::JointSolveReport solved = core::contact::solveJointsAndContacts(
      bodies, joints, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rows.size())), impulses,
      bounded, contacts, jointSettings);
  core::contact::PersistentContactReport report;
  report.status = solved.status;
  report.iterations = solved.rounds;
  report.energyChange = solved.energyChange;
  report.penetrationRate = solved.penetrationRate;  // what still closes (refuseUnheldContact)
  report.penetratingContact = solved.penetratingContact;
  report.message = solved.message;
  return report;
}

void VariationalStep::applyHeldImpulse(const HeldContact& held, const core::Vec3& impulse) {
  if (jointed(held.pair.bodyA) || jointed(held.pair.bodyB)) {
    const int index = held.pair.bodyB != kFixed ? held.pair.bodyB : held.pair.bodyA;
    const core::Vec3 point =
        stateNow(index).x +
        worldLever(held, index, index == held.pair.bodyB ? held.leverB : held.leverA);
    JointedProblem problem =
        jointedProblemOf(held.pair, contactBodyOf(held.pair.bodyA, held.pair.a),
                         contactBodyOf(held.pair.bodyB, held.pair.b));
    const core::contact::JointSystem joints(problem.bodies, problem.rows);
    addJointImpulses(problem, core::contact::applyHeldImpulse(problem.bodies, joints, problem.a,
                                                              problem.b, point, impulse));
    for (std::size_t i = 0; i < problem.involved.size(); ++i) {
      applyVelocities(problem.involved[i], problem.bodies[i].linearVelocity,
                      problem.bodies[i].angularVelocity);
    }
    return;
  }
  const auto kick = [&](int index, const core::Vec3& lever, double sign) {
    if (index == kFixed) return;
    m_stale[index] = true;
    core::BodyState& state = stateNowToChange(index);
    state.gamma += sign * impulse;
    if (m_bodies[index].rotationLocked) return;
    state.Pi += sign * state.R.transpose() * worldLever(held, index, lever).cross(impulse);
  };
  kick(held.pair.bodyA, held.leverA, -1.0);
  kick(held.pair.bodyB, held.leverB, 1.0);
}

void VariationalStep::applyPersistentEnd(const std::vector<Island>& islands) {
  // The warm start of the next step: this step's impulses only.
  m_world.m_warmStart.clear();
  for (const HeldContact& held : m_held)
    m_world.m_warmStart[held.key()] = toBt(held.contact.impulse);
  std::unordered_map<const btCollisionObject*, DynamicsWorld::StillIsland> still;
  for (std::size_t i = 0; i < islands.size(); ++i) {
    const Island& island = islands[i];
    const int id = static_cast<int>(i);
    if (island.bodies.empty()) continue;  // taken back and run again as part of another
    Stillness& stillness = stillnessOf(id);
    const btCollisionObject* first = m_bodies[island.bodies.front()].rigidBody;
    if (stillness.repeated) {  // the last step's held impulses, as that step ended them
      DynamicsWorld::StillIsland& repeated = still[first];
      repeated = std::move(m_world.m_stillIslands.at(first));
      m_world.m_warmStart.insert(repeated.warmStart.begin(), repeated.warmStart.end());
      m_diagnostics.energyRemoved += repeated.energyRemoved;
      continue;
    }
    const double energyRemoved = m_diagnostics.energyRemoved;
    stopHeldContacts(island, id);
    correctIslandDrift(island);
    std::optional<std::vector<unsigned char>> inputs;
    if (stillness.heldOnce && endedStill(island) && (inputs = stillInputsOf(island, true))) {
      DynamicsWorld::StillIsland& record = still[first];
      record.inputs = std::move(*inputs);
      record.persistentContacts = m_countsOf[id].persistentContacts;
      // The energy guard's round-off (its removal moved no body by a bit).
      record.energyRemoved = m_diagnostics.energyRemoved - energyRemoved;
      for (const HeldContact& held : m_held) {
        if (held.island == id)
          record.warmStart.emplace_back(held.key(), toBt(held.contact.impulse));
      }
    }
  }
  m_world.m_stillIslands = std::move(still);
}

// The second half of the held contacts' impulses, as an LCP at the end of the step: at the
// contacts' points and the bodies' velocities now, it stops what approaches and no more. For a body
// at rest or sliding that is the half the kick owes (½ m g h up, ½ μ m g h back); where the flow
// has turned or moved the body (a box pivoting on a corner) the half computed at the start would
// push it off the ground and make energy, and this plastic solve cannot (persistent_contact.h).
void VariationalStep::stopHeldContacts(const Island& island, int id) {
  if (std::none_of(m_held.begin(), m_held.end(),
                   [id](const HeldContact& held) { return held.island == id; })) {
    return;  // nothing held: no bodies to build
  }
  std::vector<core::impact::ContactBody> bodies = lcpBodiesOf(island);
  std::vector<core::contact::PersistentContact> contacts;
  std::vector<const CandidatePair*> pairOf;  // per contact
  for (const HeldContact& held : m_held) {
    if (held.island != id) continue;
    pairOf.push_back(&held.pair);
    core::contact::PersistentContact contact = held.contact;
    const int index = held.pair.bodyB != kFixed ? held.pair.bodyB : held.pair.bodyA;
    const core::Vec3 lever = index == held.pair.bodyB ? held.leverB : held.leverA;
    contact.point = stateNow(index).x + worldLever(held, index, lever);
    contact.impulse = 0.5 * held.contact.impulse;
    contact.approach = 0;  // the end of the step: what approaches now is stopped
    contact.bodyA = lcpIndexOf(held.pair.bodyA, held.pair.a, bodies);
    contact.bodyB = lcpIndexOf(held.pair.bodyB, held.pair.b, bodies);
    contacts.push_back(contact);
  }
  const core::contact::PersistentContactReport stop =
      solveHeldContacts(island, bodies, contacts, detail::stepStopSettings(m_timeStep));
  if (!stop.ok()) m_diagnostics.message = stop.message;
  if (stop.penetratingContact >= 0) {
    const CandidatePair& pair = *pairOf[stop.penetratingContact];
    refuseUnheldContact(stop, *pair.a, *pair.b, m_restingSpeed);
  }
  for (const int body : island.bodies) {
    const core::impact::ContactBody& solved = bodies[m_slot[body]];
    applyVelocities(body, solved.linearVelocity, solved.angularVelocity);
  }
  guardIslandEnergy(island);
}

}  // namespace carom
