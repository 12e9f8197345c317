// The corners of two touching faces' overlap that are vertices of neither shape. A box resting on
// a box turned about the normal touches it where their edges cross; with its vertices alone (each
// lies beyond the other face) it would be held at the gap's single witness point, balance there,
// rock and gain energy. Internal to the plugin.
#pragma once

#include <vector>

#include "vertex_contacts.h"

namespace carom {

// A corner of two faces' overlap: in the world midway between the two surfaces there, how far
// they are apart there along the normal (m), and whether it is also a vertex of one of them.
struct FaceCrossing {
  btVector3 point;
  double gap;
  bool atVertex;
};

// Seen along the contact normal `normal` (unit, from B toward A), the outlines of the pair's faces
// (or edges) within `reach` of the contact plane through the witness points: the corners of their
// overlap, less the shapes' own vertices (vertex contacts; within kSamePoint) but for those on both
// outlines (atVertex): two faces whose sides are in line (equal boxes stacked) cross at the
// vertices, where a vertex's distance to the other shape, beside it by a few µm, would hide the
// other's edge sunk into its face there, and the pair would land again every step. Each corner's
// gap is the two outlines' heights there: a face within the reach but tilted from the contact plane
// stands apart at its far corners, where the pair's gap, taken for all of them, would hold them as
// touching and prop the face tilted. Empty unless both shapes are polyhedra and one of the two
// touches with a face.
std::vector<FaceCrossing> faceCrossings(const PairGeometry& geometry, const btVector3& normal,
                                        const btVector3& pointOnA, const btVector3& pointOnB,
                                        double reach);

// Whether `point`, seen along `normal` (unit), lies within `tolerance` (m) of the convex hull of
// `corners`: a rigid body held at the corners of a contact patch is held at every point inside it
// (the normal velocity is affine over the contact plane), and a point outside is one more contact.
bool withinOutline(const std::vector<btVector3>& corners, const btVector3& normal,
                   const btVector3& point, double tolerance);

}  // namespace carom
