// Distant pairs. Stage 3 pairs the bodies whose swept AABBs overlap, and a pair of two step
// bodies joins them in one island; every event of an island advances, searches and holds all of
// its bodies, and every pair of an island has its gaps found at the start and end of the step.
// Two bodies in free flight whose bounding spheres stay apart over the whole step cannot touch in
// it, yet their AABBs, swept and widened, often overlap: among 100 balls in a box they chain most
// of the balls into one island. Such a pair is distant: it joins no island and no gap of it is
// sought; when either body's motion changes (a hold, an impact: findNewPartners' moved bodies) it
// is tested again from that instant, and wakes where they may meet: a pair of the island, or a link
// to its partner's island, as a partner findNewPartners meets would be.
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <algorithm>
#include <limits>

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

// The least of p0 + p1 t + p2 t² over t in [0, span].
double leastOver(double p0, double p1, double p2, double span) {
  double least = std::min(p0, p0 + span * (p1 + span * p2));
  if (p2 > 0 && -p1 < 2 * p2 * span && -p1 > 0) least = std::min(least, p0 - p1 * p1 / (4 * p2));
  return least;
}

// A lower bound of the distance (m) between the centre `c`, over the next `span` seconds, and the
// static plane or box `shape` at `pose`: the least height of the centre over the plane, or over a
// box's face planes the largest of their least heights (the box lies within each face's
// half-space); −∞ for any other shape.
double leastDistance(const CentreMotion& c, double span, const btCollisionShape& shape,
                     const btTransform& pose) {
  const auto leastOf = [span](const Quadratic& q) { return leastOver(q.p0, q.p1, q.p2, span); };
  if (shape.getShapeType() == STATIC_PLANE_PROXYTYPE)
    return leastOf(heightOver(c, static_cast<const btStaticPlaneShape&>(shape), pose));
  if (shape.getShapeType() != BOX_SHAPE_PROXYTYPE) return -std::numeric_limits<double>::infinity();
  const CentreMotion local = inFrameOf(c, pose);
  const btVector3 half = static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin();
  double bound = -std::numeric_limits<double>::infinity();
  for (int axis = 0; axis < 3; ++axis) {
    for (const double side : {-1.0, 1.0})
      bound = std::max(bound, leastOf(faceHeight(local, axis, side, half[axis])));
  }
  return bound;
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
      partnerInIsland ? centreMotionOf(b, stateNow(partner)) : freeFlightAt(partner, elapsed);
  const double deviation = partnerInIsland ? 0.0 : m_deviation[partner];
  return leastCentreDistance(centreMotionOf(a, stateNow(body)), motionB,
                             (1.0 - elapsed) * m_timeStep) <=
         a.reach + b.reach + kDistantMargin + deviation;
}

bool VariationalStep::mayReach(int body, const btCollisionObject& fixed, double elapsed) const {
  if (!fixed.isStaticObject()) return true;  // a kinematic object moves; a sleeping body may wake
  const StepBody& b = m_bodies[body];
  return leastDistance(centreMotionOf(b, stateNow(body)), (1.0 - elapsed) * m_timeStep,
                       *fixed.getCollisionShape(),
                       fixed.getWorldTransform()) <= b.reach + kDistantMargin;
}

void VariationalStep::markDistantPairs() {
  for (CandidatePair& pair : m_pairs) {
    // A joint group's bodies do not fly free.
    if (jointed(pair.bodyA) || jointed(pair.bodyB)) continue;
    if (pair.bodyA == kFixed || pair.bodyB == kFixed) {  // a static object's child: never distant
      const bool fixedA = pair.bodyA == kFixed;
      pair.distant = (fixedA ? pair.childA : pair.childB) == kWholeShape &&
                     !mayReach(fixedA ? pair.bodyB : pair.bodyA, fixedA ? *pair.a : *pair.b, 0.0);
      continue;
    }
    pair.distant = !mayMeet(pair.bodyA, pair.bodyB, true, 0.0);
  }
}

void VariationalStep::wakeDistantPairs(Island& island, int id, int body, double elapsed) {
  // How far its new motion takes it from its free flight over the rest of the step, at most (the
  // loads move both alike): kept as the largest over its changes, it bounds its path's distance
  // from its free flight over the whole step.
  const CentreMotion now = centreMotionOf(m_bodies[body], stateNow(body));
  const CentreMotion free = freeFlightAt(body, elapsed);
  m_deviation[body] =
      std::max(m_deviation[body],
               (now.x - free.x).norm() + (now.v - free.v).norm() * (1.0 - elapsed) * m_timeStep);
  for (const int p : m_pairsOf[body]) {
    CandidatePair& pair = m_pairs[p];
    if (!pair.distant) continue;
    const int partner = pair.bodyA == body ? pair.bodyB : pair.bodyA;
    if (partner == kFixed) {
      if (!mayReach(body, pair.bodyA == body ? *pair.b : *pair.a, elapsed)) continue;
      pair.distant = false;
      findStartGap(p);
      island.pairs.push_back(p);
      continue;
    }
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
