// Impact instants of free spheres in closed form. Over a probe of span t from the current instant
// the LGVI moves a body's centre exactly as x + t v + ½ t² a (Tran & Leok (5.9a), the loads held
// over the step), and a sphere's gap depends on its centre alone, whatever its turning. Against
// another such sphere with the same acceleration (gravity alone) the centres' separation is linear
// in t; against a static plane, or a static box's face, the centre's height over the plane is a
// quadratic in t. Either way the instant the gap plus its slack reaches zero is the first root of
// a quadratic, where the root search takes about eight probes, each a flow of the pair's bodies
// and a gap query: the 100 elastic balls' events are all of these. The same root decides the swept
// search of a pair apart at its trial poses (sweptImpact), found or ruled out, where conservative
// advancement took its bounds and probes.
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <cmath>
#include <limits>

#include "quadratic_root.h"
#include "variational_step.h"

namespace carom {
namespace {

double radiusOf(const btCollisionObject& object) {
  return static_cast<const btSphereShape&>(*object.getCollisionShape()).getRadius();
}

// A sphere of radius r whose centre moves as `c` against a static plane: the first instant its gap
// plus `slack` is zero (convexPlaneGap: the centre's height over the plane less r).
std::optional<double> planeImpact(const CentreMotion& c, double r, double slack,
                                  const btStaticPlaneShape& plane, const btTransform& pose) {
  const Quadratic height = heightOver(c, plane, pose);
  return firstRoot(height.p0 - r + slack, height.p1, height.p2);
}

// Against a static box: the centre's height over each face's plane bounds its distance to the box
// from below (the box lies within each face's half-space), and equals it while the centre is over
// the face. A face's first root with the centre over the face then is the box's first touching
// instant (sphereBoxGap: the core box rounded by its margin), and a face the centre is beyond and
// never comes within reach of keeps it from the box for good; undecided where the centre reaches
// an edge or a corner region first.
SphereRoot boxImpact(const CentreMotion& c, double r, double slack, const btBoxShape& box,
                     const btTransform& pose) {
  const CentreMotion local = inFrameOf(c, pose);
  const btVector3 half = box.getHalfExtentsWithoutMargin();
  const double reach = box.getMargin() + r - slack;
  bool apart = false;  // a face the centre is beyond never comes within reach
  for (int axis = 0; axis < 3; ++axis) {
    for (const double side : {-1.0, 1.0}) {
      const Quadratic face = faceHeight(local, axis, side, half[axis]);
      const double height = face.p0 - reach;
      if (!(height >= 0)) continue;  // not beyond this face's plane: not the face it meets
      const std::optional<double> t = firstRoot(height, face.p1, face.p2);
      if (!t) {
        apart = true;
        continue;
      }
      const core::Vec3 at = local.x + *t * local.v + 0.5 * *t * *t * local.a;
      if (std::abs(at[(axis + 1) % 3]) <= half[(axis + 1) % 3] &&
          std::abs(at[(axis + 2) % 3]) <= half[(axis + 2) % 3])
        return {t, true};
    }
  }
  return {std::nullopt, apart};
}

}  // namespace

std::optional<double> VariationalStep::sphereImpact(const CandidatePair& pair, double slack,
                                                    double remaining) const {
  const std::optional<SphereRoot> root = sphereRoot(pair, slack);
  return root ? fractionWithin(root->t, remaining) : std::nullopt;
}

std::optional<double> VariationalStep::fractionWithin(const std::optional<double>& t,
                                                      double remaining) const {
  if (!t) return std::nullopt;
  const double alpha = *t / m_timeStep;
  if (!(alpha <= remaining)) return std::nullopt;
  return alpha;
}

std::optional<SphereRoot> VariationalStep::sphereRoot(const CandidatePair& pair,
                                                      double slack) const {
  if (pair.childA != kWholeShape || pair.childB != kWholeShape) return std::nullopt;
  const auto freeSphere = [&](int index, const btCollisionObject& object) {
    return index != kFixed && !jointed(index) &&
           object.getCollisionShape()->getShapeType() == SPHERE_SHAPE_PROXYTYPE;
  };
  const bool sphereA = freeSphere(pair.bodyA, *pair.a);
  const bool sphereB = freeSphere(pair.bodyB, *pair.b);
  if (sphereA && sphereB) {
    const CentreMotion a = centreMotionOf(m_bodies[pair.bodyA], stateNow(pair.bodyA));
    const CentreMotion b = centreMotionOf(m_bodies[pair.bodyB], stateNow(pair.bodyB));
    if (a.a != b.a) return std::nullopt;  // the separation would be quadratic in t
    // |d + t w|² = ρ², ρ the radii less the slack (sphereSphereGap).
    const core::Vec3 d = b.x - a.x, w = b.v - a.v;
    const double rho = radiusOf(*pair.a) + radiusOf(*pair.b) - slack;
    const double closing = d.dot(w);
    if (closing >= 0) return SphereRoot{std::nullopt, true};  // not closing: apart from now on
    return SphereRoot{firstRoot(d.squaredNorm() - rho * rho, 2 * closing, w.squaredNorm()), true};
  }
  if (sphereA != sphereB) {
    const int index = sphereA ? pair.bodyA : pair.bodyB;
    const btCollisionObject& sphere = sphereA ? *pair.a : *pair.b;
    const btCollisionObject& other = sphereA ? *pair.b : *pair.a;
    if (!other.isStaticObject()) return std::nullopt;  // a kinematic one moves
    const CentreMotion c = centreMotionOf(m_bodies[index], stateNow(index));
    const btCollisionShape& shape = *other.getCollisionShape();
    if (shape.getShapeType() == STATIC_PLANE_PROXYTYPE) {
      return SphereRoot{
          planeImpact(c, radiusOf(sphere), slack, static_cast<const btStaticPlaneShape&>(shape),
                      other.getWorldTransform()),
          true};
    }
    if (shape.getShapeType() == BOX_SHAPE_PROXYTYPE) {
      return boxImpact(c, radiusOf(sphere), slack, static_cast<const btBoxShape&>(shape),
                       other.getWorldTransform());
    }
  }
  return std::nullopt;
}

}  // namespace carom
