// The variational step's swept search: a pair whose trial poses are apart at the end of the step
// may still have met inside it, a body fast enough to pass through another within one step (a
// 1 cm ball at 300 m/s through a 1 cm wall). Its first touch is found by conservative advancement
// along the bodies' LGVI flows, with the bound of the pair's closing speed that the impact search
// uses to reject pairs (closingBound).
#include <limits>

#include "shape_width.h"
#include "variational_step.h"

namespace carom {
namespace {

// Nearer than this now (m), a pair is touching, held or struck by the impact search as it is:
// it is not passing through anything.
constexpr double kSweptFloor = 100 * kContactTolerance;
// Advances of one search before it returns the instant reached, to be searched on from there
// (each a probe: an LGVI flow of the pair's bodies and a gap query).
constexpr int kMaxSweptAdvances = 64;

}  // namespace

bool VariationalStep::mayPassThrough(int p, double slack, double phiTrial, double remaining) {
  const double reach = closingBound(p, remaining);  // m over the rest of the step
  // To come closer than touching and be apart again by phiTrial at the end, the pair closes by
  // Φ now and opens by phiTrial at least.
  const double phiAtLeast = gapNowAtLeast(p) + slack;
  if (!(reach > phiAtLeast + phiTrial)) return false;
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
  return reach > *track.halfWidths && gapNow(p).distance + slack >= kSweptFloor;
}

std::optional<double> VariationalStep::sweptImpact(int p, double slack, double phiTrial,
                                                   double remaining) {
  if (!mayPassThrough(p, slack, phiTrial, remaining)) return std::nullopt;
  const CandidatePair& pair = m_pairs[p];
  double phi = gapNow(p).distance + slack;
  // The closing speed over the rest of the step, per fraction of the step: closingBound over twice
  // the span, per span, bounds it (the bound grows at least linearly with time).
  const double speed = closingBound(p, 2 * remaining) / (2 * remaining);
  double alpha = 0;
  core::BodyState probeA, probeB;
  const auto probe = [&](int index, core::BodyState& state) {
    if (index == kFixed) return static_cast<const core::BodyState*>(nullptr);
    state = probeBody(index, alpha);
    return static_cast<const core::BodyState*>(&state);
  };
  for (int advance = 0; advance < kMaxSweptAdvances; ++advance) {
    if (phi <= 0.5 * kContactTolerance) return alpha;
    alpha += phi / speed;
    if (!(alpha < remaining)) return std::nullopt;
    ++m_probes;
    phi =
        gapAt(pair, probe(pair.bodyA, probeA), probe(pair.bodyB, probeB), m_now + alpha).distance +
        slack;
  }
  return alpha;
}

}  // namespace carom
