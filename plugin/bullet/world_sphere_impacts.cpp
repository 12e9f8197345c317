// Impact instants of two free spheres in closed form. Over a probe of span τ from the current
// instant the LGVI moves a body's centre exactly as x + τ v + ½ τ² a (Tran & Leok (5.9a), the
// loads held over the step), and a sphere's gap is its centres' distance less the radii, whatever
// the spheres' turning. Where the two accelerations are equal, as under gravity alone, the centres'
// separation d + τ w is linear in τ, and the instant the gap plus its slack reaches zero is the
// first root of |d + τ w|² = ρ²: a quadratic, where the root search takes about eight probes, each
// a flow of both bodies and a gap query (the 100 elastic balls' most frequent event).
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <cmath>

#include "variational_step.h"

namespace carom {

std::optional<double> VariationalStep::sphereImpact(const CandidatePair& pair, double slack,
                                                    double remaining) const {
  if (pair.bodyA == kFixed || pair.bodyB == kFixed || jointed(pair.bodyA) || jointed(pair.bodyB) ||
      pair.childA != kWholeShape || pair.childB != kWholeShape) {
    return std::nullopt;
  }
  const btCollisionShape& shapeA = *pair.a->getCollisionShape();
  const btCollisionShape& shapeB = *pair.b->getCollisionShape();
  if (shapeA.getShapeType() != SPHERE_SHAPE_PROXYTYPE ||
      shapeB.getShapeType() != SPHERE_SHAPE_PROXYTYPE) {
    return std::nullopt;
  }
  const StepBody& a = m_bodies[pair.bodyA];
  const StepBody& b = m_bodies[pair.bodyB];
  const CentreMotion motionA = centreMotionOf(a, a.state), motionB = centreMotionOf(b, b.state);
  if (motionA.a != motionB.a) return std::nullopt;  // the separation would be quadratic in τ
  const core::Vec3 d = motionB.x - motionA.x, w = motionB.v - motionA.v;
  // The gap is zero at a distance of the radii less the slack (sphereSphereGap).
  const double rho = static_cast<const btSphereShape&>(shapeA).getRadius() +
                     static_cast<const btSphereShape&>(shapeB).getRadius() - slack;
  // |d + τ w|² − ρ² = A τ² + 2 B τ + C: closing (B < 0) from apart (C ≥ 0), the first root is
  // C / (−B + √(B² − A C)), free of the cancellation of the textbook form.
  const double A = w.squaredNorm(), B = d.dot(w), C = d.squaredNorm() - rho * rho;
  const double discriminant = B * B - A * C;
  if (!(B < 0 && C >= 0 && discriminant >= 0)) return std::nullopt;
  const double alpha = C / (-B + std::sqrt(discriminant)) / m_timeStep;
  if (!(alpha <= remaining)) return std::nullopt;
  return alpha;
}

}  // namespace carom
