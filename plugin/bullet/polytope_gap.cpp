#include "polytope_gap.h"

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <string>

#include "carom/error.h"
#include "object_text.h"

#include "vertex_contacts.h"  // polyhedronOf

namespace carom::detail {
namespace {

// A support point of the cores' Minkowski difference A − B and the points of A and B it is made of.
struct Vertex {
  btVector3 w, a, b;
};

// The smallest face of a simplex that holds its closest point to the origin: its vertices (places
// in the simplex) and their weights.
struct Face {
  int size = 1;
  int index[3] = {0, 0, 0};
  double weight[3] = {1, 0, 0};
};

// The iterations' bound: a polytope pair converges in a handful (the pairs of 12-point hulls in
// the bench's pile take 3–6); the bound only turns a failure into Bullet's answer.
constexpr int kMaxIterations = 64;
// btGjkPairDetector's stopping rule in double precision (REL_ERROR2): |v|² − v·w ≤ 1e-12 |v|².
constexpr double kRelativeError = 1e-12;

Face pointOf(int i) {
  Face f;
  f.index[0] = i;
  return f;
}

btVector3 closestOf(const Face& f, const Vertex* v) {
  btVector3 closest(0, 0, 0);
  for (int k = 0; k < f.size; ++k)
    closest += f.weight[k] * v[f.index[k]].w;
  return closest;
}

// The closest point of segment pq to the origin.
Face closestOnSegment(const Vertex* v, int p, int q) {
  const btVector3 pq = v[q].w - v[p].w;
  const double length2 = pq.length2();
  const double t = length2 > 0 ? -v[p].w.dot(pq) / length2 : 0.0;
  if (!(t > 0)) return pointOf(p);
  if (t >= 1) return pointOf(q);
  Face f;
  f.size = 2;
  f.index[0] = p;
  f.index[1] = q;
  f.weight[0] = 1 - t;
  f.weight[1] = t;
  return f;
}

// The closest point of triangle abc to the origin by its Voronoi regions (Ericson, "Real-Time
// Collision Detection", 5.1.5).
Face closestOnTriangle(const Vertex* v, int a, int b, int c) {
  const btVector3 ab = v[b].w - v[a].w, ac = v[c].w - v[a].w;
  const double d1 = -ab.dot(v[a].w), d2 = -ac.dot(v[a].w);
  if (d1 <= 0 && d2 <= 0) return pointOf(a);
  const double d3 = -ab.dot(v[b].w), d4 = -ac.dot(v[b].w);
  if (d3 >= 0 && d4 <= d3) return pointOf(b);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return closestOnSegment(v, a, b);
  const double d5 = -ab.dot(v[c].w), d6 = -ac.dot(v[c].w);
  if (d6 >= 0 && d5 <= d6) return pointOf(c);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return closestOnSegment(v, a, c);
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return closestOnSegment(v, b, c);
  const double sum = va + vb + vc;
  if (!(sum > 0)) {  // degenerate (collinear): the nearest of its edges
    Face best = closestOnSegment(v, a, b);
    for (const Face& edge : {closestOnSegment(v, a, c), closestOnSegment(v, b, c)}) {
      if (closestOf(edge, v).length2() < closestOf(best, v).length2()) best = edge;
    }
    return best;
  }
  Face f;
  f.size = 3;
  f.index[0] = a;
  f.index[1] = b;
  f.index[2] = c;
  f.weight[1] = vb / sum;
  f.weight[2] = vc / sum;
  f.weight[0] = 1 - f.weight[1] - f.weight[2];
  return f;
}

// The closest point of tetrahedron v[0..3] to the origin: on the nearest face whose plane
// separates the origin from the opposite vertex (all faces where the tetrahedron is flat). None
// where the origin lies inside: the cores overlap.
std::optional<Face> closestOnTetrahedron(const Vertex* v) {
  constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  std::optional<Face> best;
  double bestLength2 = 0;
  for (const auto& face : kFaces) {
    const btVector3 &a = v[face[0]].w, &b = v[face[1]].w, &c = v[face[2]].w, &d = v[face[3]].w;
    const btVector3 normal = (b - a).cross(c - a);
    const double origin = -a.dot(normal), opposite = (d - a).dot(normal);
    const bool flat = opposite * opposite <= 1e-24 * normal.length2() * (d - a).length2();
    if (!flat && origin * opposite >= 0) continue;  // the origin is on d's side of this face
    const Face f = closestOnTriangle(v, face[0], face[1], face[2]);
    const double length2 = closestOf(f, v).length2();
    if (!best || length2 < bestLength2) {
      best = f;
      bestLength2 = length2;
    }
  }
  return best;
}

// The closest face of the simplex v[0..size) to the origin, v[size − 1] the newest.
std::optional<Face> closestFace(const Vertex* v, int size) {
  switch (size) {
    case 2:
      return closestOnSegment(v, 0, 1);
    case 3:
      return closestOnTriangle(v, 0, 1, 2);
    default:
      return closestOnTetrahedron(v);
  }
}

}  // namespace

Gap bulletGjkGap(const btConvexShape& a, const btTransform& ta, const btConvexShape& b,
                 const btTransform& tb) {
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver epa;
  btGjkPairDetector detector(&a, &b, &simplex, &epa);
  btGjkPairDetector::ClosestPointInput input;
  input.m_transformA = ta;
  input.m_transformB = tb;
  btPointCollector result;
  detector.getClosestPoints(input, result, nullptr);
  if (!result.m_hasResult) {
    throw Error("gap: GJK/EPA found no closest points for the pair " + shapePairName(a, b));
  }
  Gap g;
  g.distance = result.m_distance;
  g.normal = result.m_normalOnBInWorld;
  g.pointOnB = result.m_pointInWorld;
  g.pointOnA = g.pointOnB + g.normal * g.distance;
  return g;
}

bool hasPolytopeCore(const btCollisionShape& shape) {
  // A mesh's triangle stays with Bullet's GJK: its gaps at the triangles' shared edges and corners
  // are made consistent across the mesh from that GJK's answers (gapOf's surface normals), and a
  // ball rolling over them struck a corner with this one's.
  if (shape.getShapeType() == TRIANGLE_SHAPE_PROXYTYPE) return false;
  return shape.getShapeType() == SPHERE_SHAPE_PROXYTYPE || polyhedronOf(&shape) != nullptr;
}

std::optional<Gap> polytopeGap(const btConvexShape& a, const btTransform& ta,
                               const btConvexShape& b, const btTransform& tb) {
  // Support of A − B along d (world): A's support along d less B's along −d; d · R is Rᵀd.
  const auto support = [&](const btVector3& d) {
    const btVector3 pa = ta * a.localGetSupportVertexWithoutMarginNonVirtual(d * ta.getBasis());
    const btVector3 pb = tb * b.localGetSupportVertexWithoutMarginNonVirtual(-d * tb.getBasis());
    return Vertex{pa - pb, pa, pb};
  };
  // From the difference's support towards B's centre from A's: near the closest point where the
  // shapes are apart along the line of their centres.
  Vertex simplex[4] = {support(tb.getOrigin() - ta.getOrigin())};
  Face face;
  btVector3 v = simplex[0].w;
  bool converged = false;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    const double length2 = v.length2();
    if (length2 <= kCoreContact * kCoreContact) return std::nullopt;
    const Vertex w = support(-v);
    if (length2 - v.dot(w.w) <= kRelativeError * length2) {
      converged = true;
      break;
    }
    // A support point already in the simplex, or a closest point no closer, is round-off's end of
    // the descent: v is the closest point to within it, as btGjkPairDetector takes it.
    bool known = false;
    for (int k = 0; k < face.size; ++k)
      known = known || simplex[k].w == w.w;
    if (known) {
      converged = true;
      break;
    }
    simplex[face.size] = w;
    const std::optional<Face> next = closestFace(simplex, face.size + 1);
    if (!next) return std::nullopt;  // the origin inside: the cores overlap
    const btVector3 closer = closestOf(*next, simplex);
    if (!(closer.length2() < length2)) {
      converged = true;
      break;
    }
    // The simplex reduced to the face, in the face's order.
    Vertex kept[3];
    for (int k = 0; k < next->size; ++k)
      kept[k] = simplex[next->index[k]];
    face = *next;
    for (int k = 0; k < face.size; ++k) {
      simplex[k] = kept[k];
      face.index[k] = k;
    }
    v = closer;
  }
  if (!converged) return std::nullopt;
  btVector3 onA(0, 0, 0), onB(0, 0, 0);
  for (int k = 0; k < face.size; ++k) {
    onA += face.weight[k] * simplex[k].a;
    onB += face.weight[k] * simplex[k].b;
  }
  const double core = v.length();
  Gap g;
  g.normal = v / core;
  g.distance = core - a.getMarginNonVirtual() - b.getMarginNonVirtual();
  g.pointOnB = onB + g.normal * b.getMarginNonVirtual();
  g.pointOnA = g.pointOnB + g.normal * g.distance;
  return g;
}

}  // namespace carom::detail
