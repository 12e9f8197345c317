#include "polytope_gap.h"

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>

#include "vertex_contacts.h"  // polyhedronOf

namespace carom::detail {
namespace {

// A support point of the cores' Minkowski difference A − B and the points of A and B it is made of.
struct Vertex {
  btVector3 w, a, b;
};

// The simplex and its closest point to the origin as weights of its vertices.
struct Simplex {
  Vertex vertex[4];
  double weight[4] = {1, 0, 0, 0};
  int size = 0;

  btVector3 closest() const {
    btVector3 v(0, 0, 0);
    for (int i = 0; i < size; ++i)
      v += weight[i] * vertex[i].w;
    return v;
  }
};

// The iterations' bound: a polytope pair converges in a handful (the pairs of 12-point hulls in
// the bench's pile take 3–6); the bound only turns a failure into Bullet's answer.
constexpr int kMaxIterations = 64;
// btGjkPairDetector's stopping rule in double precision (REL_ERROR2): |v|² − v·w ≤ 1e-12 |v|².
constexpr double kRelativeError = 1e-12;

Simplex pointOf(const Vertex& p) {
  Simplex s;
  s.vertex[0] = p;
  s.size = 1;
  return s;
}

// The closest point of segment pq to the origin, as the smallest simplex holding it.
Simplex closestOnSegment(const Vertex& p, const Vertex& q) {
  const btVector3 pq = q.w - p.w;
  const double length2 = pq.length2();
  const double t = length2 > 0 ? -p.w.dot(pq) / length2 : 0.0;
  if (!(t > 0)) return pointOf(p);
  if (t >= 1) return pointOf(q);
  Simplex s;
  s.vertex[0] = p;
  s.vertex[1] = q;
  s.weight[0] = 1 - t;
  s.weight[1] = t;
  s.size = 2;
  return s;
}

// The closest point of triangle abc to the origin by its Voronoi regions (Ericson, "Real-Time
// Collision Detection", 5.1.5), as the smallest simplex holding it.
Simplex closestOnTriangle(const Vertex& a, const Vertex& b, const Vertex& c) {
  const btVector3 ab = b.w - a.w, ac = c.w - a.w;
  const double d1 = -ab.dot(a.w), d2 = -ac.dot(a.w);
  if (d1 <= 0 && d2 <= 0) return pointOf(a);
  const double d3 = -ab.dot(b.w), d4 = -ac.dot(b.w);
  if (d3 >= 0 && d4 <= d3) return pointOf(b);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return closestOnSegment(a, b);
  const double d5 = -ab.dot(c.w), d6 = -ac.dot(c.w);
  if (d6 >= 0 && d5 <= d6) return pointOf(c);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return closestOnSegment(a, c);
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return closestOnSegment(b, c);
  const double sum = va + vb + vc;
  if (!(sum > 0)) {  // degenerate (collinear): the nearest of its edges
    Simplex best = closestOnSegment(a, b);
    for (const Simplex& edge : {closestOnSegment(a, c), closestOnSegment(b, c)}) {
      if (edge.closest().length2() < best.closest().length2()) best = edge;
    }
    return best;
  }
  Simplex s;
  s.vertex[0] = a;
  s.vertex[1] = b;
  s.vertex[2] = c;
  s.weight[1] = vb / sum;
  s.weight[2] = vc / sum;
  s.weight[0] = 1 - s.weight[1] - s.weight[2];
  s.size = 3;
  return s;
}

// The closest point of tetrahedron abcd to the origin: on the nearest face whose plane separates
// the origin from the opposite vertex (all faces where the tetrahedron is flat). None where the
// origin lies inside: the cores overlap.
std::optional<Simplex> closestOnTetrahedron(const Vertex (&v)[4]) {
  constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  std::optional<Simplex> best;
  double bestLength2 = 0;
  for (const auto& face : kFaces) {
    const Vertex &a = v[face[0]], &b = v[face[1]], &c = v[face[2]], &d = v[face[3]];
    const btVector3 normal = (b.w - a.w).cross(c.w - a.w);
    const double origin = -a.w.dot(normal), opposite = (d.w - a.w).dot(normal);
    const bool flat = opposite * opposite <= 1e-24 * normal.length2() * (d.w - a.w).length2();
    if (!flat && origin * opposite >= 0) continue;  // the origin is on d's side of this face
    const Simplex s = closestOnTriangle(a, b, c);
    const double length2 = s.closest().length2();
    if (!best || length2 < bestLength2) {
      best = s;
      bestLength2 = length2;
    }
  }
  return best;
}

// The simplex with `w` added, reduced to the smallest face holding its closest point.
std::optional<Simplex> withVertex(const Simplex& s, const Vertex& w) {
  switch (s.size) {
    case 1:
      return closestOnSegment(s.vertex[0], w);
    case 2:
      return closestOnTriangle(s.vertex[0], s.vertex[1], w);
    default: {
      const Vertex v[4] = {s.vertex[0], s.vertex[1], s.vertex[2], w};
      return closestOnTetrahedron(v);
    }
  }
}

}  // namespace

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
  Simplex s = pointOf(support(tb.getOrigin() - ta.getOrigin()));
  btVector3 v = s.vertex[0].w;
  bool converged = false;
  for (int iteration = 0; iteration < kMaxIterations && !converged; ++iteration) {
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
    for (int i = 0; i < s.size; ++i)
      known = known || s.vertex[i].w == w.w;
    if (known) {
      converged = true;
      break;
    }
    const std::optional<Simplex> next = withVertex(s, w);
    if (!next) return std::nullopt;  // the origin inside: the cores overlap
    const btVector3 closer = next->closest();
    if (!(closer.length2() < length2)) {
      converged = true;
      break;
    }
    s = *next;
    v = closer;
  }
  if (!converged) return std::nullopt;
  btVector3 onA(0, 0, 0), onB(0, 0, 0);
  for (int i = 0; i < s.size; ++i) {
    onA += s.weight[i] * s.vertex[i].a;
    onB += s.weight[i] * s.vertex[i].b;
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
