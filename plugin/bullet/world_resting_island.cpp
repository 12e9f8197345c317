// An island at rest (stages 4–5 of ARCHITECTURE.md "One step" without events): where nothing in
// an island can strike within the step, its contacts are held once, at the start of the step, and
// it flows to the end with no impact located. A pair apart at its trial poses that the swept search
// finds touching within the step (sweptImpact), or a near pair whose dip nearDip finds, keeps its
// island out of rest. Through the impact loop, a settled pile's landings would be located one by
// one, each holding the whole island again.
#include "variational_step.h"

#include <algorithm>

namespace carom {

bool VariationalStep::isResting(const Island& island) {
  bool resting = true;
  for (const int p : island.pairs) {
    rescan(p);
    PairTrack& track = m_tracks[p];
    const double phiTrial = trialGapAtLeast(p) + m_pairs[p].slack;
    track.closing = phiTrial < 0;
    track.closesAtRest = track.closing && closesAtRestingSpeed(p);
    // A near pair, which the swept search leaves unsearched, may still dip inside the step.
    resting = resting &&
              (track.closing ? track.closesAtRest
                             : !sweptImpact(p, m_pairs[p].slack, phiTrial, 1.0) &&
                                   !(track.nearUnsearched && nearDip(p, m_pairs[p].slack, 1.0)));
  }
  return resting;
}

bool VariationalStep::closesAtRestingSpeed(int p) {
  const CandidatePair& pair = m_pairs[p];
  // Closing faster than its resting speed, on average over the step or at one of its contacts
  // now: its touch would be an impact, not a landing.
  const double restingSpeed = restingSpeedOf(materialOf(pair.a, pair.b));
  const double distance = gapNow(p).distance;
  if (distance - trialGapAtLeast(p) > restingSpeed * m_timeStep) return false;
  std::vector<PairContact> contacts = contactsNow(p, std::max(0.0, distance) + m_holdingReach);
  addSinkingVertices(p, contacts);
  const core::impact::ContactBody bodyA = contactBodyOf(pair.bodyA, pair.a);
  const core::impact::ContactBody bodyB = contactBodyOf(pair.bodyB, pair.b);
  return std::none_of(contacts.begin(), contacts.end(), [&](const PairContact& contact) {
    const core::impact::Contact c{bodyA, bodyB, contact.point, contact.normal};
    return -contact.normal.dot(core::impact::relativeVelocity(c)) > restingSpeed;
  });
}

bool VariationalStep::closesAfterHold(Island& island, int id) {
  // A held body's distant pairs are tested again (world_distant_pairs.cpp): one that wakes into
  // the island may close.
  const std::size_t pairs = island.pairs.size();
  for (const int body : refreshTrials(island, 1.0))
    wakeDistantPairs(island, id, body, 0.0);
  if (island.pairs.size() > pairs) return true;
  // A creeping pile's pair that its unconverged hold leaves sinking by less than kQuietDepth is
  // taken back by the next step's hold, whose allowance pushes it apart. Landed inside the step,
  // each such pair would hold the whole pile again, with the same crawl, and leave others sinking:
  // the pile would never come to rest.
  const bool creeping = isCreeping(island);
  return std::any_of(island.pairs.begin(), island.pairs.end(), [&](int p) {
    const double trialGap = trialGapAtLeast(p);
    if (!(trialGap + m_pairs[p].slack < 0)) return false;
    return !creeping || trialGap < gapNow(p).distance - kQuietDepth;
  });
}

bool VariationalStep::isCreeping(const Island& island) const {
  return std::all_of(island.bodies.begin(), island.bodies.end(), [&](int body) {
    const StepBody& now = m_bodies[body];
    const core::BodyState& end = m_trial[body];
    return !jointed(body) &&
           travelBound(stateNow(body).x, stateNow(body).R, end.x, end.R, now.reach) <= kQuietDepth;
  });
}

}  // namespace carom
