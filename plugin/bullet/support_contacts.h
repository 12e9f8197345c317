// The ends of a smooth shape's flat or straight contact: a cylinder on its side or on its cap, a
// capsule on its side, a cone on its base or its side. The gap has one witness point there; held
// at it alone, a capsule lying on the ground would tip about it, strike the ground with its other
// end, tip back and sink a little with every landing. Internal to the plugin.
#pragma once

#include <vector>

#include "vertex_contacts.h"

namespace carom {

// How far the support directions below tilt from the contact normal (rad): a feature flat within
// this of the contact plane has its support jump to its far end, while a curved surface's moves by
// about this times its radius of curvature. A feature tilted by more is held at its lowest point;
// its far end then stands more than the holding reach above the plane wherever it is longer than
// that reach over this (1.7 cm at 60 Hz).
inline constexpr double kSupportTilt = 1e-3;
// Tilted support directions per side: four corners of a cap (a square in its rim), and both ends
// of a segment from any tangent basis that is not exactly across it.
inline constexpr int kSupportDirections = 4;

// Whether `shape` is a convex shape that touches with a flat or straight patch but has no
// vertices to hold it by: not a polyhedron (whose vertices are its corners) and not strictly
// convex (a sphere or carom::EllipsoidShape touches at one point). A cylinder, a capsule, a cone.
bool hasFlatFeatures(const btCollisionShape& shape);

// A patch corner's feature (vertex_contacts.h): side s's support corner in direction d is face
// crossing 2d + s, and the corner a turn of A towards direction d finds comes after them.
inline int supportFeature(int side, int direction) {
  return crossingFeature(2 * direction + side);
}
inline int turnedFeature(int direction) {
  return supportFeature(0, kSupportDirections + direction);
}

// A corner of a contact patch: its support direction (0 to kSupportDirections − 1), where it is
// (world) and how far it is from touching (pointGap, m).
struct SupportCorner {
  int direction;
  btVector3 point;
  double gap;
};

// The corners, within `reach` (m) of touching the other shape, of side `side`'s contact patch, for
// a convex shape that is not a polyhedron (whose vertices are its corners) and not strictly convex
// (a sphere or carom::EllipsoidShape touches at its witness point only): its supports, margin
// included, along the normal tilted by kSupportTilt towards kSupportDirections tangents, less those
// within ten times the tilt's sweep of the witness point or of each other (a curved surface's
// supports, which stay at the witness point). `away` (unit, world) points from the other shape
// away from this side's; `witness` is this side's witness point.
std::vector<SupportCorner> supportCorners(const PairGeometry& geometry, int side,
                                          const btVector3& away, const btVector3& witness,
                                          double reach);

// The corners of a patch that are corners of neither shape's support, where one side is a smooth
// shape with flat or straight features: a plank lying across a log touches it along a segment
// whose ends are where the plank's edges cross the log (held at its witness point alone, it would
// rock there and sink). A is turned by kSupportTilt about the gap's witness points' midpoint,
// towards each of kSupportDirections tangents: its first touch with B is then at the end of the
// patch that way, whose point of B's surface is kept where it lies that way of the witness point
// and within `reach` of touching A unturned (pointGap), less those within ten times the turn's
// sweep of the witness point, of each other or of `listed` (points already held). The corner's
// `direction` is the turn's.
std::vector<SupportCorner> turnedCorners(const PairGeometry& geometry, const Gap& gap, double reach,
                                         const std::vector<btVector3>& listed);

}  // namespace carom
