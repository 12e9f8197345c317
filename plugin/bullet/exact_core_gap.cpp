#include "exact_core_gap.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <typeinfo>

#include "bt_eigen.h"
#include "carom/core/ellipsoid_distance.h"
#include "polytope_gap.h"  // bulletGjkGap

namespace carom::detail {
namespace {

// Rounds of projections before GJK's answer is kept: twice what the accelerated rounds below need
// on a pouring bin's queries (docs/measurements.md).
constexpr int kMaxRounds = 64;
// A round that moves its point by less than this has converged (m): a ten-thousandth of the
// contact tolerance.
constexpr double kConverged = 1e-10;

// A shape's core (the shape less its margin, what GJK runs on), resolved once per query: the
// projections below ask for its closest point a few dozen times.
struct Core {
  Core(const btConvexShape& shape, const btTransform& pose, double& lastRoot)
      : root(lastRoot), ellipsoid(ellipsoidOf(shape)), frame(pose), margin(shape.getMargin()) {
    if (ellipsoid != nullptr) {
      semiAxes = toEigen(ellipsoid->getSemiAxes());
    } else {
      half = static_cast<const btBoxShape&>(shape).getHalfExtentsWithoutMargin();
    }
  }

  // The core's point closest to y (world): a box's half extents without margin; an ellipsoid
  // shrunk along its normals by its margin, whose closest point is the ellipsoid's moved in by the
  // margin (at most the smallest radius of curvature, EllipsoidShape::setMargin). None where y lies
  // inside the core.
  std::optional<btVector3> closestPoint(const btVector3& y) const {
    const btVector3 local = frame.invXform(y);
    if (ellipsoid != nullptr) {
      const core::EllipsoidDistance d = core::ellipsoidDistance(semiAxes, toEigen(local), root);
      root = d.root;
      if (d.distance <= -margin) return std::nullopt;
      return frame * toBt((d.closestPoint - margin * d.normal).eval());
    }
    btVector3 closest = local;
    closest.setMax(-half);
    closest.setMin(half);
    if (closest == local) return std::nullopt;
    return frame * closest;
  }

  // An ellipsoid's last root (core::EllipsoidDistance::root), NaN for none: the projections'
  // points converge, and a query started from the last one's root takes about two Newton steps.
  double& root;
  const EllipsoidShape* ellipsoid;  // or a box
  btTransform frame;
  double margin;
  core::Vec3 semiAxes = core::Vec3::Zero();  // an ellipsoid's
  btVector3 half{0, 0, 0};                   // a box's core half extents
};

// Anderson acceleration of depth two (Walker & Ni, "Anderson acceleration for fixed-point
// iterations", SIAM J. Numer. Anal. 2011) for x = G(x): the next iterate mixes the last three
// images with the weights that make the mixed residual G(x) − x least. Alternating projections
// converge linearly at about ρ / (ρ + d) per round (ρ the cores' largest radius of curvature, d
// their distance: the margins, where the shapes touch), 0.8 for a box's face against the bin's
// ellipsoids, along the two directions of the surface; the mixing takes both out.
class AndersonMixing {
 public:
  btVector3 next(const btVector3& x, const btVector3& image) {
    for (int i = 2; i > 0; --i) {
      m_x[i] = m_x[i - 1];
      m_image[i] = m_image[i - 1];
    }
    m_x[0] = x;
    m_image[0] = image;
    m_count = std::min(m_count + 1, 3);
    // Differences of consecutive residuals (d) and images (e), newest first.
    btVector3 d[2], e[2];
    for (int j = 0; j + 1 < m_count; ++j) {
      d[j] = (m_image[j] - m_x[j]) - (m_image[j + 1] - m_x[j + 1]);
      e[j] = m_image[j] - m_image[j + 1];
    }
    const btVector3 residual = image - x;
    // γ minimising |residual − Σ γ_j d_j|, by its normal equations.
    if (m_count == 3) {
      const double a11 = d[0].dot(d[0]), a12 = d[0].dot(d[1]), a22 = d[1].dot(d[1]);
      const double b1 = d[0].dot(residual), b2 = d[1].dot(residual);
      const double det = a11 * a22 - a12 * a12;
      if (det > 1e-12 * a11 * a22) {
        return image - e[0] * ((b1 * a22 - b2 * a12) / det) - e[1] * ((a11 * b2 - a12 * b1) / det);
      }
    }
    if (m_count >= 2 && d[0].dot(d[0]) > 0)
      return image - e[0] * (d[0].dot(residual) / d[0].dot(d[0]));
    return image;
  }

 private:
  btVector3 m_x[3], m_image[3];  // the last iterates and their images, newest first
  int m_count = 0;
};

}  // namespace

const EllipsoidShape* ellipsoidOf(const btCollisionShape& shape) {
  if (shape.getShapeType() != CUSTOM_CONVEX_SHAPE_TYPE) return nullptr;
  // By its exact type, not dynamic_cast, which walks Bullet's shape classes on every gap and
  // contact query: a class derived from EllipsoidShape may change its support, and is taken as a
  // convex shape of its own.
  return typeid(shape) == typeid(EllipsoidShape) ? static_cast<const EllipsoidShape*>(&shape)
                                                 : nullptr;
}

bool hasExactCoreGap(const btCollisionShape& a, const btCollisionShape& b) {
  const bool ellipsoidA = ellipsoidOf(a) != nullptr, ellipsoidB = ellipsoidOf(b) != nullptr;
  const bool boxA = a.getShapeType() == BOX_SHAPE_PROXYTYPE;
  const bool boxB = b.getShapeType() == BOX_SHAPE_PROXYTYPE;
  return (ellipsoidA && (ellipsoidB || boxB)) || (boxA && ellipsoidB);
}

namespace {

// The cores' closest pair by projections started from `onCoreB` (world): none where the cores
// overlap (a point falls inside one) or the projections have not converged within their bound.
std::optional<Gap> projectedGap(const btVector3& onCoreB, const btConvexShape& a,
                                const btTransform& ta, const btConvexShape& b,
                                const btTransform& tb, double (&roots)[2]) {
  // x on A's core, G(x) = P_A(P_B(x)) (von Neumann's alternating projections), whose fixed point
  // is the end on A of the cores' closest pair.
  const Core coreA(a, ta, roots[0]), coreB(b, tb, roots[1]);
  std::optional<btVector3> x = coreA.closestPoint(onCoreB);
  AndersonMixing mixing;
  for (int round = 0; x && round < kMaxRounds; ++round) {
    const std::optional<btVector3> onB = coreB.closestPoint(*x);
    const std::optional<btVector3> image = onB ? coreA.closestPoint(*onB) : std::nullopt;
    if (!image) return std::nullopt;
    if ((*image - *x).length() > kConverged) {
      x = mixing.next(*x, *image);
      continue;
    }
    const std::optional<btVector3> closestB = coreB.closestPoint(*image);
    if (!closestB) return std::nullopt;
    const btVector3 apart = *image - *closestB;
    const btScalar length = apart.length();
    if (!(length > 0)) return std::nullopt;
    Gap g;
    g.normal = apart / length;
    g.distance = length - coreA.margin - coreB.margin;
    g.pointOnA = *image - g.normal * coreA.margin;
    g.pointOnB = *closestB + g.normal * coreB.margin;
    return g;
  }
  return std::nullopt;
}

// An ellipsoid's gap to a box where a face of the box's core is the core's closest feature, in
// closed form: the ellipsoid core's lowest point along the face's outward normal n (the
// ellipsoid's support point along −n, A²u/|Au| in its frame with u = −n, less its margin along
// −n: the core is the ellipsoid shrunk along its normals) lies over the face, and the face's
// plane is then the nearest the box's core comes. The box's three faces towards the ellipsoid's
// centre are tried, the one its core stands farthest beyond first. None where that point is not
// over its face (an edge or a corner is nearest) or the cores are not apart: the projections
// answer. The same closest pair as theirs, with no iteration: most of a pouring bin's exact gaps
// are an ellipsoid over a box's face (docs/measurements.md).
std::optional<Gap> faceGap(const EllipsoidShape& ellipsoid, const btTransform& te,
                           const btBoxShape& box, const btTransform& tb) {
  const btVector3 half = box.getHalfExtentsWithoutMargin();
  const btVector3 axes = ellipsoid.getSemiAxes();
  const btMatrix3x3 turn = tb.getBasis().transpose() * te.getBasis();  // ellipsoid to box frame
  const btVector3 centre = tb.invXform(te.getOrigin());                // in the box's frame
  const double margin = ellipsoid.getMargin();
  int face = -1;
  double farthest = 0;
  btVector3 lowest, normal;  // the chosen face's
  for (int i = 0; i < 3; ++i) {
    btVector3 n(0, 0, 0);
    n[i] = centre[i] < 0 ? -1 : 1;
    const btVector3 u = -n * turn;  // −n in the ellipsoid's frame
    const btVector3 scaled = axes * u;
    const btVector3 support = turn * (axes * scaled / scaled.length()) + margin * n;  // core's
    const btVector3 point = centre + support;
    const double beyond = n.dot(point) - half[i];
    if (beyond > farthest) {
      farthest = beyond;
      face = i;
      lowest = point;
      normal = n;
    }
  }
  if (face < 0) return std::nullopt;
  for (int j = 0; j < 3; ++j) {
    if (j != face && std::abs(lowest[j]) > half[j]) return std::nullopt;
  }
  btVector3 onBox = lowest;
  onBox[face] = normal[face] * half[face];
  Gap g;  // A the ellipsoid, B the box; the normal from B towards A
  g.normal = tb.getBasis() * normal;
  g.distance = farthest - margin - box.getMargin();
  g.pointOnB = tb * onBox + g.normal * box.getMargin();
  g.pointOnA = g.pointOnB + g.normal * g.distance;
  return g;
}

// faceGap for either order of the pair, where one is an ellipsoid and the other a box.
std::optional<Gap> faceGapOf(const btConvexShape& a, const btTransform& ta, const btConvexShape& b,
                             const btTransform& tb) {
  const bool boxA = a.getShapeType() == BOX_SHAPE_PROXYTYPE;
  const bool boxB = b.getShapeType() == BOX_SHAPE_PROXYTYPE;
  if (boxB && ellipsoidOf(a) != nullptr)
    return faceGap(*ellipsoidOf(a), ta, static_cast<const btBoxShape&>(b), tb);
  if (boxA && ellipsoidOf(b) != nullptr) {
    const std::optional<Gap> g =
        faceGap(*ellipsoidOf(b), tb, static_cast<const btBoxShape&>(a), ta);
    if (g) return reversed(*g);
  }
  return std::nullopt;
}

// The projections from GJK's gap `start`: from its witness on B's core, outside A's where the
// cores are apart (B's surface point may lie inside A's core, the shapes overlapping by more than
// A's margin); `start` itself where they do not converge.
Gap projectedFrom(const Gap& start, const btConvexShape& a, const btTransform& ta,
                  const btConvexShape& b, const btTransform& tb) {
  double roots[2] = {std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::quiet_NaN()};
  return projectedGap(start.pointOnB - start.normal * b.getMargin(), a, ta, b, tb, roots)
      .value_or(start);
}

}  // namespace

Gap exactCoreGap(const Gap& start, const btConvexShape& a, const btTransform& ta,
                 const btConvexShape& b, const btTransform& tb) {
  if (const std::optional<Gap> g = faceGapOf(a, ta, b, tb)) return *g;
  return projectedFrom(start, a, ta, b, tb);
}

Gap exactCoreGap(CoreWitness& witness, const btConvexShape& a, const btTransform& ta,
                 const btConvexShape& b, const btTransform& tb) {
  std::optional<Gap> g = faceGapOf(a, ta, b, tb);
  if (!g && witness.onCoreB) g = projectedGap(tb * *witness.onCoreB, a, ta, b, tb, witness.roots);
  // From GJK's start (carom::gap's path for the pair, the face already tried).
  if (!g) g = projectedFrom(bulletGjkGap(a, ta, b, tb), a, ta, b, tb);
  // Where the cores overlap the projections cannot start: GJK's answer is asked at once next time.
  const bool apart = g->distance + a.getMargin() + b.getMargin() > 0;
  witness.onCoreB =
      apart ? std::optional(tb.invXform(g->pointOnB - g->normal * b.getMargin())) : std::nullopt;
  return *g;
}

}  // namespace carom::detail
