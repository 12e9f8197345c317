// Distant pairs. Stage 3 pairs the bodies whose swept AABBs overlap, and a pair of two step
// bodies joins them in one island; every event of an island advances, searches and holds all of
// its bodies, and every pair of an island has its gaps found at the start and end of the step.
// Two bodies in free flight whose bounding spheres stay apart over the whole step cannot touch in
// it, yet their AABBs, swept and widened, often overlap: among 100 balls in a box they chain most
// of the balls into one island. Such a pair is distant: it joins no island and no gap of it is
// sought; when either body's motion changes (a hold, an impact: findNewPartners' moved bodies) it
// is tested again from that instant, and wakes where they may meet: a pair of the island, or a link
// to its partner's island, as a partner findNewPartners meets would be.
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <algorithm>

#include "variational_step.h"

namespace carom {
namespace {

// How near two bodies' bounding spheres may come (m) before their pair counts: the contact margin
// by which stage 3 widens each swept AABB (gContactBreakingThreshold, 0.02 m), for both bodies, so
// that a pair is distant only where spheres in place of the AABBs would not have paired it.
const double kDistantMargin = 2.0 * gContactBreakingThreshold;

// The least distance between the two centres over the next `span` seconds (m, a lower bound): the
// closest approach of their relative velocity, less the most their relative acceleration can add.
double leastCentreDistance(const CentreMotion& a, const CentreMotion& b, double span) {
  const core::Vec3 dx = b.x - a.x, dv = b.v - a.v;
  const double speed2 = dv.squaredNorm();
  const double s = speed2 > 0 ? std::clamp(-dx.dot(dv) / speed2, 0.0, span) : 0.0;
  return (dx + s * dv).norm() - 0.5 * span * span * (b.a - a.a).norm();
}

}  // namespace

CentreMotion VariationalStep::freeFlightAt(int body, double elapsed) const {
  CentreMotion motion = centreMotionOf(m_bodies[body], m_start[body]);
  const double s = elapsed * m_timeStep;
  motion.x += s * motion.v + 0.5 * s * s * motion.a;
  motion.v += s * motion.a;
  return motion;
}

bool VariationalStep::mayMeet(int body, int partner, bool partnerInIsland, double elapsed) const {
  const StepBody& a = m_bodies[body];
  const StepBody& b = m_bodies[partner];
  // Another island's body may have been struck in its own run, which tested its new path against
  // this body's free flight only: its deviation from its free flight widens the test, so that two
  // bodies both struck away from their free flights are not missed by both runs.
  const CentreMotion motionB =
      partnerInIsland ? centreMotionOf(b, b.state) : freeFlightAt(partner, elapsed);
  const double deviation = partnerInIsland ? 0.0 : m_deviation[partner];
  return leastCentreDistance(centreMotionOf(a, a.state), motionB, (1.0 - elapsed) * m_timeStep) <=
         a.reach + b.reach + kDistantMargin + deviation;
}

void VariationalStep::markDistantPairs() {
  for (CandidatePair& pair : m_pairs) {
    // A fixed object is no island's member (a pair with one joins none), and a joint group's
    // bodies do not fly free.
    if (pair.bodyA == kFixed || pair.bodyB == kFixed || jointed(pair.bodyA) ||
        jointed(pair.bodyB)) {
      continue;
    }
    pair.distant = !mayMeet(pair.bodyA, pair.bodyB, true, 0.0);
  }
}

void VariationalStep::wakeDistantPairs(Island& island, int id, int body, double elapsed) {
  // How far its new motion takes it from its free flight over the rest of the step, at most (the
  // loads move both alike): kept as the largest over its changes, it bounds its path's distance
  // from its free flight over the whole step.
  const CentreMotion now = centreMotionOf(m_bodies[body], m_bodies[body].state);
  const CentreMotion free = freeFlightAt(body, elapsed);
  m_deviation[body] =
      std::max(m_deviation[body],
               (now.x - free.x).norm() + (now.v - free.v).norm() * (1.0 - elapsed) * m_timeStep);
  for (const int p : m_pairsOf[body]) {
    CandidatePair& pair = m_pairs[p];
    if (!pair.distant) continue;
    const int partner = pair.bodyA == body ? pair.bodyB : pair.bodyA;
    const int partnerIsland = m_islandOf[partner];
    if (!mayMeet(body, partner, partnerIsland == id, elapsed)) continue;
    if (partnerIsland >= 0 && partnerIsland != id) {  // on its own time: both run again
      m_links.emplace_back(id, partnerIsland);
      continue;
    }
    if (partnerIsland < 0) joinFreeFlier(island, id, partner, elapsed);
    pair.distant = false;
    findStartGap(p);
    island.pairs.push_back(p);
  }
}

}  // namespace carom
