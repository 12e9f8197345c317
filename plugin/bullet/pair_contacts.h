// The contact points of two convex shapes touching at some poses: the corners of the patch they
// touch along, and the gap's witness point where those do not hold it. The variational step holds
// and strikes pairs at them, and lcp mode holds a smooth shape's flat or straight patch at them
// (impact_solver_island.h). Internal to the plugin.
#pragma once

#include <optional>
#include <vector>

#include "vertex_contacts.h"

namespace carom {

// One contact point of a pair: where it is (world, m), its feature (vertex_contacts.h) and how
// far it is from touching (m; below zero where the shapes overlap there): a vertex's or a patch
// corner's vertexGap or pointGap, a face crossing's height less the contact tolerance, the
// witness point's the gap's distance.
struct PairPoint {
  btVector3 point;
  int feature;
  double gap;
};

// The pair's contact points at `geometry`'s poses, whose gap is `gap`: the vertices of a
// polyhedron's face or edge within `reach` (m) of touching, a smooth shape's patch corners
// (support_contacts.h), where two polyhedra's faces overlap the corners of the overlap
// (face_crossings.h), and the gap's witness point where it lies beyond `outlineReach` (m) of
// those's outline (witnessBeyond). With `depth` (m), the overlap of a pair found deep inside each
// other (lcp mode: Bullet's discrete steps find a falling body centimetres into the ground), also
// the vertices up to that far above the gap's deepest point: every vertex inside the other shape,
// where those within `reach` of the deepest alone would let a box pivot on its deepest corner and
// sink by its others.
std::vector<PairPoint> pairContacts(const PairGeometry& geometry, const Gap& gap, double reach,
                                    double outlineReach, double depth = 0.0);

// The gap's witness point (midway between its witness points) as a contact point, unless it lies
// within `outlineReach` (m) of the outline of `points`, which hold it as closely as a hold reaches:
// as one more contact it would only make the contact LCP redundant.
std::optional<PairPoint> witnessBeyond(const Gap& gap, const std::vector<btVector3>& points,
                                       double outlineReach);

}  // namespace carom
