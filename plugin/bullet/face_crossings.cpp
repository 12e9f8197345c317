#include "face_crossings.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace carom {
namespace {

// A point seen along the normal; an outline's corner keeps its height along it too.
struct Point2 {
  double x, y;
  double height = 0;
};

// > 0 when o → a → b turns counter-clockwise.
double turn(const Point2& o, const Point2& a, const Point2& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

bool near(const Point2& a, const Point2& b) {
  return std::hypot(a.x - b.x, a.y - b.y) <= kSamePoint;
}

// The convex hull, counter-clockwise, without collinear or repeated points (Andrew's monotone
// chain): a face's outline, an edge's two ends or a vertex.
std::vector<Point2> hullOf(std::vector<Point2> points) {
  std::sort(points.begin(), points.end(), [](const Point2& a, const Point2& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  points.erase(std::unique(points.begin(), points.end(), near), points.end());
  const std::size_t n = points.size();
  if (n < 3) return points;
  std::vector<Point2> hull(2 * n);
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {  // the lower chain
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], points[i]) <= 0)
      --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = n - 1, lower = k + 1; i > 0; --i) {  // the upper chain
    while (k >= lower && turn(hull[k - 2], hull[k - 1], points[i - 1]) <= 0)
      --k;
    hull[k++] = points[i - 1];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

// The part of `subject` (a convex polygon counter-clockwise, or a segment) inside the convex
// polygon `clip` (counter-clockwise, at least three corners): Sutherland–Hodgman, one clip edge
// at a time. A subject corner within kSamePoint outside a clip edge counts as inside: two edges in
// line to round-off (equal faces stacked, turned by 1e-9 rad) would otherwise cross at a point
// anywhere along them, a different one every step. Crossings lie on the clip edge itself.
std::vector<Point2> clipped(std::vector<Point2> subject, const std::vector<Point2>& clip) {
  for (std::size_t e = 0; e < clip.size() && !subject.empty(); ++e) {
    const Point2& a = clip[e];
    const Point2& b = clip[(e + 1) % clip.size()];
    const double slack = kSamePoint * std::hypot(b.x - a.x, b.y - a.y);  // turn() at kSamePoint
    std::vector<Point2> kept;
    for (std::size_t i = 0; i < subject.size(); ++i) {
      const Point2& p = subject[i];
      const Point2& q = subject[(i + 1) % subject.size()];
      const double sp = turn(a, b, p), sq = turn(a, b, q);
      const bool pInside = sp >= -slack, qInside = sq >= -slack;
      if (pInside) kept.push_back(p);
      if (pInside != qInside) {
        const double t = std::clamp(sp / (sp - sq), 0.0, 1.0);
        kept.push_back({p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)});
      }
    }
    subject = std::move(kept);
  }
  return subject;
}

// Where the point of the segment a–b nearest to p lies along it: 0 at a, 1 at b.
double alongSegment(const Point2& p, const Point2& a, const Point2& b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  return length2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0) : 0.0;
}

// The distance from p to the segment a–b.
double distanceToSegment(const Point2& p, const Point2& a, const Point2& b) {
  const double t = alongSegment(p, a, b);
  return std::hypot(p.x - a.x - t * (b.x - a.x), p.y - a.y - t * (b.y - a.y));
}

// Where `p` is in relation to an outline: how far from its nearest side, and the outline's height
// at that side's point nearest to p, between the side's ends.
struct OnOutline {
  double distance;
  double height;
};

// `p` against the outline `hull` (a convex polygon, a segment or a point, its corners' heights
// given). The outline's sides within the reach of a contact plane are the edges of a face, or of
// an edge, of a polyhedron.
OnOutline onOutline(const std::vector<Point2>& hull, const Point2& p) {
  if (hull.size() == 1) return {std::hypot(p.x - hull[0].x, p.y - hull[0].y), hull[0].height};
  OnOutline nearest{std::numeric_limits<double>::infinity(), 0};
  const std::size_t sides = hull.size() == 2 ? 1 : hull.size();
  for (std::size_t e = 0; e < sides; ++e) {
    const Point2& a = hull[e];
    const Point2& b = hull[(e + 1) % hull.size()];
    const double distance = distanceToSegment(p, a, b);
    if (distance < nearest.distance)
      nearest = {distance, a.height + alongSegment(p, a, b) * (b.height - a.height)};
  }
  return nearest;
}

}  // namespace

bool withinOutline(const std::vector<btVector3>& corners, const btVector3& normal,
                   const btVector3& point, double tolerance) {
  btVector3 t1, t2;
  btPlaneSpace1(normal, t1, t2);
  std::vector<Point2> projected;
  for (const btVector3& corner : corners)
    projected.push_back({t1.dot(corner), t2.dot(corner)});
  const std::vector<Point2> hull = hullOf(projected);
  const Point2 p{t1.dot(point), t2.dot(point)};
  if (hull.empty()) return false;
  if (hull.size() < 3) return distanceToSegment(p, hull.front(), hull.back()) <= tolerance;
  for (std::size_t e = 0; e < hull.size(); ++e) {  // inside every edge, or near one
    const Point2& a = hull[e];
    const Point2& b = hull[(e + 1) % hull.size()];
    if (turn(a, b, p) < 0 && distanceToSegment(p, a, b) > tolerance) return false;
  }
  return true;
}

std::vector<FaceCrossing> faceCrossings(const PairGeometry& geometry, const btVector3& normal,
                                        const btVector3& pointOnA, const btVector3& pointOnB,
                                        double reach) {
  btVector3 t1, t2;
  btPlaneSpace1(normal, t1, t2);
  std::vector<Point2> outline[2];
  for (int side = 0; side < 2; ++side) {
    const btPolyhedralConvexShape* polyhedron = polyhedronOf(geometry.shape[side]);
    if (polyhedron == nullptr) return {};
    const btVector3 away = side == 0 ? normal : -normal;
    const btVector3& witness = side == 0 ? pointOnA : pointOnB;
    for (int i = 0; i < polyhedron->getNumVertices(); ++i) {
      const btVector3 world = surfaceVertexAt(geometry, side, i, away);
      if (away.dot(world - witness) <= reach)
        outline[side].push_back({t1.dot(world), t2.dot(world), normal.dot(world)});
    }
  }
  const std::vector<Point2> a = hullOf(outline[0]), b = hullOf(outline[1]);
  // A face against a face or an edge; an edge across an edge touches at the witness point.
  std::vector<Point2> overlap;
  if (b.size() >= 3) {
    overlap = clipped(a, b);
  } else if (a.size() >= 3) {
    overlap = clipped(b, a);
  }
  std::vector<FaceCrossing> crossings;
  for (const Point2& corner : overlap) {
    const bool vertex = std::any_of(std::begin(outline), std::end(outline), [&](const auto& side) {
      return std::any_of(side.begin(), side.end(),
                         [&](const Point2& v) { return near(v, corner); });
    });
    // Where the two outlines cross, each shape's surface is at its outline's height there. A
    // corner at a vertex is that vertex's contact, unless it lies on both outlines.
    const OnOutline onA = onOutline(a, corner), onB = onOutline(b, corner);
    if (vertex && std::max(onA.distance, onB.distance) > kSamePoint) continue;
    const btVector3 world =
        corner.x * t1 + corner.y * t2 + 0.5 * (onA.height + onB.height) * normal;
    const bool listed = std::any_of(crossings.begin(), crossings.end(), [&](const FaceCrossing& c) {
      return (c.point - world).length() <= kSamePoint;
    });
    if (!listed) crossings.push_back({world, onA.height - onB.height, vertex});
  }
  return crossings;
}

}  // namespace carom
