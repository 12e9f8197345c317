#include "pair_contacts.h"

#include <algorithm>

#include "face_crossings.h"
#include "support_contacts.h"
#include "variational_step.h"

namespace carom {
namespace {

// Whether `points` already has one at `point` (within kSamePoint).
bool listedAt(const std::vector<PairPoint>& points, const btVector3& point) {
  return std::any_of(points.begin(), points.end(), [&](const PairPoint& listed) {
    return (listed.point - point).length() <= kSamePoint;
  });
}

// The contact points of a face or edge contact, where a single witness point would leave the face
// free to tip: the vertices of `side`'s shape (if polyhedral) within `reach` of the witness point
// along `away` (unit, world, pointing away from the other shape) and of the other shape, less those
// already listed; where the shapes overlap by `depth` (m), the witness is the deepest point, and
// the vertices up to `depth` above it are inside too. The second test keeps out the vertices of a
// large face (a wall) that lie in the contact plane far from where the other shape touches it.
void addVertexContacts(const PairGeometry& geometry, int side, double reach, double depth,
                       const btVector3& away, const btVector3& witness,
                       std::vector<PairPoint>& out) {
  const btPolyhedralConvexShape* polyhedron = vertexPolyhedronOf(geometry, side);
  for (int i = 0; polyhedron != nullptr && i < polyhedron->getNumVertices(); ++i) {
    const btVector3 point = surfaceVertexAt(geometry, side, i, away);
    if (away.dot(point - witness) > reach + depth || listedAt(out, point)) continue;
    const double gap = vertexGap(geometry, side, i);
    if (gap > reach - kContactTolerance) continue;
    // Asked last: against a cylinder, a capsule or a cone it is one more gap query.
    if (vertexFacesAlong(geometry, side, i, side == 0 ? away : -away))
      out.push_back({point, vertexFeature(side, i), gap});
  }
}

}  // namespace

std::vector<PairPoint> pairContacts(const PairGeometry& geometry, const Gap& gap, double reach,
                                    double outlineReach, double depth) {
  std::vector<PairPoint> contacts;
  addVertexContacts(geometry, 0, reach, depth, gap.normal, gap.pointOnA, contacts);
  addVertexContacts(geometry, 1, reach, depth, -gap.normal, gap.pointOnB, contacts);
  for (int side = 0; side < 2; ++side) {
    const btVector3 away = side == 0 ? gap.normal : -gap.normal;
    for (const SupportCorner& corner :
         supportCorners(geometry, side, away, side == 0 ? gap.pointOnA : gap.pointOnB, reach))
      contacts.push_back({corner.point, supportFeature(side, corner.direction), corner.gap});
  }
  std::vector<btVector3> listed;
  for (const PairPoint& contact : contacts)
    listed.push_back(contact.point);
  for (const SupportCorner& corner : turnedCorners(geometry, gap, reach, listed))
    contacts.push_back({corner.point, turnedFeature(corner.direction), corner.gap});
  int crossing = 0;
  for (const FaceCrossing& corner :
       faceCrossings(geometry, gap.normal, gap.pointOnA, gap.pointOnB, reach)) {
    const double height = corner.gap - kContactTolerance;
    // A vertex at the crossing, seen along the normal, is as far from touching as the faces there.
    const auto atCorner = [&](const PairPoint& contact) {
      const btVector3 apart = contact.point - corner.point;
      return (apart - apart.dot(gap.normal) * gap.normal).length() <= kSamePoint;
    };
    const auto vertex =
        corner.atVertex ? std::find_if(contacts.begin(), contacts.end(), atCorner) : contacts.end();
    if (vertex != contacts.end()) {
      vertex->gap = std::min(vertex->gap, height);
    } else {
      contacts.push_back({corner.point, crossingFeature(crossing++), height});
    }
  }
  // The gap's witness point where the points above do not hold it: a smooth shape's one point, or
  // an edge crossing an edge beyond a face's outline (a tilted box on a box's edge, held at the
  // edge's end in the face alone, would sink at the crossing).
  std::vector<btVector3> corners;
  for (const PairPoint& contact : contacts)
    corners.push_back(contact.point);
  if (const std::optional<PairPoint> witness = witnessBeyond(gap, corners, outlineReach))
    contacts.push_back(*witness);
  return contacts;
}

std::optional<PairPoint> witnessBeyond(const Gap& gap, const std::vector<btVector3>& points,
                                       double outlineReach) {
  const btVector3 witness = 0.5 * (gap.pointOnA + gap.pointOnB);
  if (withinOutline(points, gap.normal, witness, outlineReach)) return std::nullopt;
  return PairPoint{witness, -1, static_cast<double>(gap.distance)};
}

}  // namespace carom
