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
// that a pair is distant only where spheres in place of the AABBs would not have paired it. With
// the holding reach (0.7 mm at 60 Hz) instead, twelve settling bins took a quarter more landings.
const double kDistantMargin = 2.0 * gContactBreakingThreshold;

// Where a body's centre is and how it moves from an instant on (m, m/s, m/s²): its free LGVI flow
// moves it exactly as x + s v + ½ s² a (Tran & Leok (5.9a), a force held over the step).
struct CentreMotion {
  core::Vec3 x, v, a;
};

CentreMotion centreMotionOf(const core::MassProperties& mass, const core::BodyState& state,
                            const core::Vec3& acceleration) {
  return {state.x, mass.inverseMass() * state.gamma, acceleration};
}

// The least distance between the two centres over the next `span` seconds (m, a lower bound): the
// closest approach of their relative velocity, less the most their relative acceleration can add.
double leastCentreDistance(const CentreMotion& a, const CentreMotion& b, double span) {
  const core::Vec3 dx = b.x - a.x, dv = b.v - a.v;
  const double speed2 = dv.squaredNorm();
  const double s = speed2 > 0 ? std::clamp(-dx.dot(dv) / speed2, 0.0, span) : 0.0;
  return (dx + s * dv).norm() - 0.5 * span * span * (b.a - a.a).norm();
}

}  // namespace

bool VariationalStep::mayMeet(int body, const CandidatePair& pair, bool partnerInIsland,
                              double elapsed) const {
  const StepBody& a = m_bodies[body];
  const CentreMotion motionA = centreMotionOf(a.mass, a.state, a.loadAcceleration());
  const double span = (1.0 - elapsed) * m_timeStep;
  const int partner = pair.bodyA == body ? pair.bodyB : pair.bodyA;
  const StepBody& b = m_bodies[partner];
  CentreMotion motionB =
      centreMotionOf(b.mass, partnerInIsland ? b.state : m_start[partner], b.loadAcceleration());
  if (!partnerInIsland) {  // its free flight from the start of the step, brought to `elapsed`
    const double s = elapsed * m_timeStep;
    motionB.x += s * motionB.v + 0.5 * s * s * motionB.a;
    motionB.v += s * motionB.a;
  }
  return leastCentreDistance(motionA, motionB, span) <= a.reach + b.reach + kDistantMargin;
}

void VariationalStep::markDistantPairs() {
  for (CandidatePair& pair : m_pairs) {
    // A fixed object is no island's member (a pair with one joins none), and a joint group's
    // bodies do not fly free.
    if (pair.bodyA == kFixed || pair.bodyB == kFixed || jointed(pair.bodyA) ||
        jointed(pair.bodyB)) {
      continue;
    }
    pair.distant = !mayMeet(pair.bodyA, pair, true, 0.0);
  }
}

void VariationalStep::wakeDistantPairs(Island& island, int id, int body, double elapsed) {
  for (const int p : m_pairsOf[body]) {
    CandidatePair& pair = m_pairs[p];
    if (!pair.distant) continue;
    const int partner = pair.bodyA == body ? pair.bodyB : pair.bodyA;
    const int partnerIsland = m_islandOf[partner];
    if (!mayMeet(body, pair, partnerIsland == id, elapsed)) continue;
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
