#include "scene_hull.h"

#include <LinearMath/btConvexHullComputer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace carom {
namespace {

struct Solid {
  double volume = 0;          // m³
  btVector3 centre{0, 0, 0};  // m, centre of volume
  double extent = 0;          // m, the largest side of the points' bounding box
};

// The hull's faces fanned into tetrahedra with the points' mean, whose signed volumes and
// centroids sum to the solid's.
Solid solidOf(const std::vector<btVector3>& points) {
  Solid solid;
  btVector3 lo = points.front(), hi = points.front(), mean(0, 0, 0);
  for (const btVector3& p : points) {
    lo.setMin(p);
    hi.setMax(p);
    mean += p / static_cast<double>(points.size());
  }
  const btVector3 size = hi - lo;
  solid.extent = size[size.maxAxis()];
  btConvexHullComputer hull;
  hull.compute(&points.front().x(), sizeof(btVector3), static_cast<int>(points.size()), 0, 0);
  btVector3 moment(0, 0, 0);
  for (int f = 0; f < hull.faces.size(); ++f) {
    const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[f]];
    const btVector3& a = hull.vertices[first->getSourceVertex()];
    for (const btConvexHullComputer::Edge* edge = first->getNextEdgeOfFace(); edge != first;
         edge = edge->getNextEdgeOfFace()) {
      const btVector3& b = hull.vertices[edge->getSourceVertex()];
      const btVector3& c = hull.vertices[edge->getTargetVertex()];
      const double volume = (a - mean).dot((b - mean).cross(c - mean)) / 6;
      solid.volume += volume;
      moment += volume * (a + b + c + mean) / 4;
    }
  }
  if (solid.volume != 0) solid.centre = moment / solid.volume;
  solid.volume = std::abs(solid.volume);
  return solid;
}

// Six digits: the centre is a sum of round-off, and the user needs where it is, not its last bit.
std::string text(const btVector3& v) {
  char out[96];
  std::snprintf(out, sizeof out, "[%.6g, %.6g, %.6g]", v.x(), v.y(), v.z());
  return out;
}

}  // namespace

std::string flatHullProblem(const std::vector<btVector3>& points) {
  const Solid solid = solidOf(points);
  if (solid.volume > kFlatHull * solid.extent * solid.extent * solid.extent) return {};
  return "the points enclose no volume (they coincide or lie on one line or plane); a convex "
         "hull needs 4 points not in one plane";
}

std::string offCentreHullProblem(const std::vector<btVector3>& points) {
  const Solid solid = solidOf(points);
  if (solid.centre.length() <= kOffCentreHull * solid.extent) return {};
  return "the hull's centre of volume is at " + text(solid.centre) +
         ", not at the body origin; the body frame is at the centre of mass: subtract it from "
         "every point and add it to the position";
}

}  // namespace carom
