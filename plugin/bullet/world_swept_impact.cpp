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

// The fraction of a step of `timeStep` (s) over which `apart` keeps a pair apart (0: none).
double apartFraction(const std::optional<Apart>& apart, double timeStep) {
  return apart ? apart->span / timeStep : 0;
}

// Halvings of the split between two bounds of a stretch (clearanceBetween): the split to a
// thousandth of the stretch, its clearance short of the best by at most the closing over that.
constexpr int kSplitHalvings = 10;

// A lower bound of Φ along the swept search's paths from one of their points (`alpha`, a fraction
// of the step, and Φ there) out to either side: the line of the closing speed from there and,
// where asked, the separation bound's quadratic over its span.
struct BoundFrom {
  double alpha;
  double phi;  // m
  std::optional<Apart> apart;
  // The least of the bound from alpha to `to` (a fraction of the step), at `speed` (m per
  // fraction).
  double leastTo(double to, double speed, double timeStep) const {
    const double way = std::abs(to - alpha);
    double least = phi - speed * way;
    if (apart && way * timeStep <= apart->span)  // concave: least at an end
      least = std::max(least, std::min(apart->atLeast(0), apart->atLeast(way * timeStep)));
    return least;
  }
};

// Φ's least over the stretch between two bounds' points, at least: `from`'s bound holds up to a
// split and `to`'s beyond it, the split moved to where they meet. The speed's lines alone meet at
// (Φ_from + Φ_to − speed × length) / 2 where that is below both ends, in closed form; only where
// that leaves nothing are the separation bounds' quadratics asked, by halving.
double clearanceBetween(const BoundFrom& from, const BoundFrom& to, double speed, double timeStep) {
  const double lines =
      std::min({(from.phi + to.phi - speed * (to.alpha - from.alpha)) / 2, from.phi, to.phi});
  if (lines > 0 || (!from.apart && !to.apart)) return lines;
  const auto at = [&](double split) {
    return std::min(from.leastTo(split, speed, timeStep), to.leastTo(split, speed, timeStep));
  };
  double lo = from.alpha, hi = to.alpha;
  for (int i = 0; i < kSplitHalvings; ++i) {
    const double mid = 0.5 * (lo + hi);
    (from.leastTo(mid, speed, timeStep) > to.leastTo(mid, speed, timeStep) ? lo : hi) = mid;
  }
  return std::max(at(lo), at(hi));
}

}  // namespace

std::optional<BodyMotion> VariationalStep::motionOf(int index, const core::BodyState* state,
                                                    double anchor, double remaining,
                                                    bool backward) const {
  if (index == kFixed) return BodyMotion{};  // static or sleeping (a kinematic body is not asked)
  if (jointed(index)) return std::nullopt;   // its joints' forces are no load
  const StepBody& body = m_bodies[index];
  // Its probes follow its flow from its anchor (probeBody), which began before now where the body
  // has not been struck or held since: the state now is already that far into it.
  const double since = m_now - body.anchorTime;  // a fraction of the step
  return flowMotion(body.mass, *state, body.load, !body.rotationLocked,
                    (since + anchor) * m_timeStep, (since + remaining) * m_timeStep, backward);
}

std::optional<Apart> VariationalStep::apartFor(const CandidatePair& pair, const core::BodyState* a,
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
  std::optional<Apart> apart;
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
    if (!apart || span > apart->span) apart = Apart{span, above, bound->slope, bound->curvature};
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
  rescan(p);
  PairTrack& track = m_tracks[p];
  track.nearUnsearched = false;
  track.clearance = 0;
  const CandidatePair& pair = m_pairs[p];
  // No touch within the step, with Φ above `clearance` all the way (PairTrack::clearance).
  const auto apartThroughout = [&](double clearance) {
    track.clearance = std::max(0.0, clearance);
    track.clearanceDrift = driftOf(pair.bodyA) + driftOf(pair.bodyB);
    return std::nullopt;
  };
  // To come closer than touching and be apart again by phiTrial at the end, the pair closes by
  // Φ now and opens by phiTrial at least. It closes by at most the bound C(t) by t and C(end) −
  // C(t) after (the bound grows at least as fast as the closing): Φ stays above
  // (Φ now + phiTrial − C(end)) / 2.
  if (!(remaining > 0)) return std::nullopt;
  const double closing = closingBound(p, remaining), phiNow = gapNowAtLeast(p) + slack;
  if (!(closing > phiNow + phiTrial)) return apartThroughout((phiNow + phiTrial - closing) / 2);
  core::BodyState probeA, probeB;
  Gap gap = gapNow(p);
  track.nearUnsearched = gap.distance + slack < kSweptFloor;
  if (track.nearUnsearched) return std::nullopt;
  // Two free spheres, a free sphere and a static plane or (mostly) box: their first touch is a
  // quadratic's first root, found or ruled out in closed form (SphereRoot), with no probe.
  if (const std::optional<SphereRoot> root = sphereRoot(pair, slack); root && root->decided)
    return fractionWithin(root->t, remaining);
  std::optional<Apart> apart = apartFor(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), 0,
                                        remaining, gap.normal, slack, false);
  const bool bounded = apart.has_value();
  if (!bounded && !mayPassThrough(p, remaining)) return std::nullopt;
  // The closing speed over the rest of the step, per fraction of the step: closingBound over twice
  // the span, per span, bounds it (the bound grows at least linearly with time).
  const double speed = closingBound(p, 2 * remaining) / (2 * remaining);
  std::optional<Apart> fromEnd;  // the stretch before the step's end certified apart
  bool endAsked = false;
  double alpha = 0;
  // Φ's least over the stretches searched so far, at least, and the bound from the last probe.
  double clearance = std::numeric_limits<double>::infinity();
  BoundFrom last{0, gap.distance + slack, apart};
  const auto throughEnd = [&] {
    const BoundFrom end{remaining, phiTrial, fromEnd};
    return apartThroughout(std::min(clearance, clearanceBetween(last, end, speed, m_timeStep)));
  };
  for (int advance = 0; advance < kMaxSweptAdvances; ++advance) {
    const double phi = gap.distance + slack;
    if (phi <= kTouching) return alpha;
    if (advance > 0) {
      if (bounded) {
        apart =
            apartFor(pair, probedAt(pair.bodyA, alpha, probeA), probedAt(pair.bodyB, alpha, probeB),
                     alpha, remaining, gap.normal, slack, false);
      }
      clearance = std::min(clearance,
                           clearanceBetween(last, {alpha, phi, std::nullopt}, speed, m_timeStep));
      last = {alpha, phi, apart};
    }
    const double ahead = std::max(phi / speed, apartFraction(apart, m_timeStep));
    if (!(alpha + ahead < remaining)) return throughEnd();
    if (bounded && !endAsked) {  // from the flows' end: asked once the bound from now falls short
      endAsked = true;
      ++m_probes;
      fromEnd = apartFor(pair, probedAt(pair.bodyA, remaining, probeA),
                         probedAt(pair.bodyB, remaining, probeB), remaining, remaining, gap.normal,
                         slack, true);
    }
    alpha += ahead;
    if (!(alpha + apartFraction(fromEnd, m_timeStep) < remaining)) return throughEnd();
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
    const std::optional<Apart> apart =
        apartFor(pair, probedAt(pair.bodyA, alpha, probeA), probedAt(pair.bodyB, alpha, probeB),
                 alpha, remaining, gap.normal, slack + kSweptFloor, false);
    const double next =
        alpha + std::max((phi + kSweptFloor) / speed, apartFraction(apart, m_timeStep));
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
