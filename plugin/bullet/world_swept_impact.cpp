// The variational step's swept search: a pair whose trial poses are apart at the end of the step
// may still have met inside it. A body fast enough to pass through another within one step (a
// 1 cm ball at 300 m/s through a 1 cm wall), or a pair whose gap dips below touching and comes back
// (a tumbling box's corner over a ball it has just left). Its first touch is found by conservative
// advancement along the bodies' LGVI flows: each advance as far as a second-order bound of the
// pair's separation from a plane through its gap's witness keeps it apart (separation_bound.h),
// the last stretch before the step's end certified from there backwards, and never less than the
// pair's gap over the bound of its closing speed that the impact search uses to reject pairs
// (closingBound).
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <limits>

#include "bt_eigen.h"
#include "quadratic_root.h"
#include "separation_bound.h"
#include "shape_width.h"
#include "variational_step.h"

namespace carom {
namespace {

// Nearer than this now (m), a pair is not searched here: its separation bound would certify it
// apart for a span of √(2 gap / curvature) at most, a crawl beside a body that turns. nearDip
// searches it at this resolution instead.
constexpr double kSweptFloor = 100 * kContactTolerance;
// Advances of one search before it returns the instant reached, to be searched on from there
// (each a probe: an LGVI flow of the pair's bodies and a gap query).
constexpr int kMaxSweptAdvances = 64;
// Φ at which the search has found the touch (m): half the contact tolerance inside, as the impact
// search's roots.
constexpr double kTouching = 0.5 * kContactTolerance;

}  // namespace

std::optional<BodyMotion> VariationalStep::motionOf(int index, const core::BodyState* state,
                                                    double anchor, double remaining,
                                                    bool backward) const {
  if (index == kFixed) return BodyMotion{};  // static or sleeping (a kinematic body is not asked)
  if (jointed(index)) return std::nullopt;   // its joints' forces are no load
  const StepBody& body = m_bodies[index];
  return flowMotion(body.mass, *state, body.load, !body.rotationLocked, anchor * m_timeStep,
                    remaining * m_timeStep, backward);
}

std::optional<double> VariationalStep::apartFor(const CandidatePair& pair, const core::BodyState* a,
                                                const core::BodyState* b, double anchor,
                                                double remaining, const btVector3& normal,
                                                double margin, bool backward) const {
  const PairGeometry geometry = geometryAt(pair, a, b, m_now + anchor);
  const int bodies[2] = {pair.bodyA, pair.bodyB};
  const core::BodyState* states[2] = {a, b};
  std::optional<BodyMotion> motions[2];
  for (int side = 0; side < 2; ++side) {
    if (geometry.solidBehind[side]) return std::nullopt;  // its gap is not its shape's
    const btRigidBody* body = btRigidBody::upcast(side == 0 ? pair.a : pair.b);
    if (bodies[side] == kFixed && body != nullptr && body->isKinematicObject()) return std::nullopt;
    motions[side] = motionOf(bodies[side], states[side], anchor, remaining, backward);
    if (!motions[side]) return std::nullopt;
    if (bodies[side] == kFixed)
      motions[side]->centre = detail::toEigen(geometry.frame[side].getOrigin());
  }
  // Each side's shape against the plane turning with the other side's body through its support
  // point: the larger of the two spans each certifies. Along its own normal alone for a plane.
  std::optional<double> apart;
  for (int side = 0; side < 2; ++side) {
    const int other = 1 - side;
    const btVector3 n =  // from the other side towards this one
        planeNormalOf(*geometry.shape[other], geometry.frame[other])
            .value_or(side == 0 ? normal : -normal);
    const std::optional<SeparationBound> bound = separationBound(
        *geometry.shape[side], geometry.frame[side], *motions[side], *geometry.shape[other],
        geometry.frame[other], *motions[other], n, remaining * m_timeStep);
    if (!bound) continue;
    // Above −margin until margin + value + slope t − ½ curvature t² first reaches zero.
    const double above = margin + bound->value;
    const double span = !(above > 0) ? 0.0
                                     : firstRoot(above, bound->slope, -0.5 * bound->curvature)
                                           .value_or(std::numeric_limits<double>::infinity());
    apart = std::max(apart.value_or(0), span);
  }
  return apart;
}

bool VariationalStep::mayPassThrough(int p, double remaining) {
  PairTrack& track = m_tracks[p];
  if (!track.halfWidths) {
    const CandidatePair& pair = m_pairs[p];
    const PairGeometry geometry =
        geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
    track.halfWidths =
        smallestHalfWidth(*geometry.shape[0]) + smallestHalfWidth(*geometry.shape[1]);
  }
  // Passing through means travelling at least the two shapes' widths, twice their half-widths:
  // a move of less than half that is a graze at most, which the trial gap bounds.
  return closingBound(p, remaining) > *track.halfWidths;
}

std::optional<double> VariationalStep::sweptImpact(int p, double slack, double phiTrial,
                                                   double remaining) {
  m_tracks[p].nearUnsearched = false;
  // To come closer than touching and be apart again by phiTrial at the end, the pair closes by
  // Φ now and opens by phiTrial at least.
  if (!(remaining > 0) || !(closingBound(p, remaining) > gapNowAtLeast(p) + slack + phiTrial))
    return std::nullopt;
  const CandidatePair& pair = m_pairs[p];
  core::BodyState probeA, probeB;
  Gap gap = gapNow(p);
  m_tracks[p].nearUnsearched = gap.distance + slack < kSweptFloor;
  if (m_tracks[p].nearUnsearched) return std::nullopt;
  // Two free spheres, a free sphere and a static plane or (mostly) box: their first touch is a
  // quadratic's first root, found or ruled out in closed form (SphereRoot), with no probe.
  if (const std::optional<SphereRoot> root = sphereRoot(pair, slack); root && root->decided)
    return fractionWithin(root->t, remaining);
  std::optional<double> apart = apartFor(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), 0,
                                         remaining, gap.normal, slack, false);  // s
  const bool bounded = apart.has_value();
  if (!bounded && !mayPassThrough(p, remaining)) return std::nullopt;
  // The closing speed over the rest of the step, per fraction of the step: closingBound over twice
  // the span, per span, bounds it (the bound grows at least linearly with time).
  const double speed = closingBound(p, 2 * remaining) / (2 * remaining);
  double fromEnd = 0;  // the stretch before the step's end certified apart (a fraction of it)
  bool endAsked = false;
  double alpha = 0;
  for (int advance = 0; advance < kMaxSweptAdvances; ++advance) {
    const double phi = gap.distance + slack;
    if (phi <= kTouching) return alpha;
    if (bounded && advance > 0) {
      apart =
          apartFor(pair, probedAt(pair.bodyA, alpha, probeA), probedAt(pair.bodyB, alpha, probeB),
                   alpha, remaining, gap.normal, slack, false);
    }
    const double ahead = std::max(phi / speed, apart.value_or(0) / m_timeStep);
    if (!(alpha + ahead < remaining)) return std::nullopt;
    if (bounded && !endAsked) {  // from the flows' end: asked once the bound from now falls short
      endAsked = true;
      ++m_probes;
      fromEnd = apartFor(pair, probedAt(pair.bodyA, remaining, probeA),
                         probedAt(pair.bodyB, remaining, probeB), remaining, remaining, gap.normal,
                         slack, true)
                    .value_or(0) /
                m_timeStep;
    }
    alpha += ahead;
    if (!(alpha + fromEnd < remaining)) return std::nullopt;
    ++m_probes;
    gap = gapAt(pair, probedAt(pair.bodyA, alpha, probeA), probedAt(pair.bodyB, alpha, probeB),
                m_now + alpha);
  }
  return alpha;
}

std::optional<double> VariationalStep::nearDip(int p, double slack, double remaining) {
  const CandidatePair& pair = m_pairs[p];
  // A mesh triangle's or compound child's gap is its piece's: a ball rolling from one triangle over
  // their shared edge comes within touching of the next, held as it comes.
  if (pair.childA != kWholeShape || pair.childB != kWholeShape) return std::nullopt;
  Gap gap = gapNow(p);
  if (gap.distance + slack <= kContactTolerance) return std::nullopt;     // held or struck as it is
  const double speed = closingBound(p, 2 * remaining) / (2 * remaining);  // as sweptImpact's
  core::BodyState probeA, probeB;
  const auto gapAtFraction = [&](double alpha) {
    ++m_probes;
    return gapAt(pair, probedAt(pair.bodyA, alpha, probeA), probedAt(pair.bodyB, alpha, probeB),
                 m_now + alpha);
  };
  const auto phiAt = [&](double alpha) { return gapAtFraction(alpha).distance + slack; };
  double alpha = 0;
  for (int advance = 0; advance < kMaxSweptAdvances; ++advance) {
    const double phi = gap.distance + slack;
    // A separating pair's second-order bound keeps it above the floor for longer (a ball just
    // struck).
    const std::optional<double> apart =
        apartFor(pair, probedAt(pair.bodyA, alpha, probeA), probedAt(pair.bodyB, alpha, probeB),
                 alpha, remaining, gap.normal, slack + kSweptFloor, false);
    const double next =
        alpha + std::max((phi + kSweptFloor) / speed, apart.value_or(0) / m_timeStep);
    if (!(next < remaining)) return std::nullopt;
    gap = gapAtFraction(next);
    const double phiNext = gap.distance + slack;
    if (phiNext < 0) return locateInstant(phiAt, alpha, phi, next, phiNext);
    alpha = next;
  }
  return alpha;
}

const core::BodyState* VariationalStep::probedAt(int index, double alpha,
                                                 core::BodyState& state) const {
  if (index == kFixed) return nullptr;
  if (alpha == 0) return currentOf(index);
  state = probeBody(index, alpha);
  return &state;
}

}  // namespace carom
