#include "separation_bound.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btPolyhedralConvexShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bt_eigen.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "exact_core_gap.h"  // ellipsoidOf

namespace carom {
namespace {

using detail::toEigen;

// The shape's body A moving against the plane's body B, in B's turning frame: a point of A at
// offset ρ from A's centre is at height n·Q_Bᵀ(Δx + Q_A ρ) over B's centre along the plane's
// normal n, with Δx = x_A − x_B.
class RelativeMotion {
 public:
  RelativeMotion(const BodyMotion& a, const BodyMotion& b, const core::Vec3& n, double span)
      : m_a(a),
        m_b(b),
        m_n(n),
        m_span(span),
        m_offset(a.centre - b.centre),
        m_velocity(a.velocity - b.velocity) {
    const core::Vec3 acceleration = a.acceleration - b.acceleration;
    const double accelerationNorm = acceleration.norm();
    m_offsetBound =
        m_offset.norm() + m_velocity.norm() * span + 0.5 * accelerationNorm * span * span;
    m_velocityBound = m_velocity.norm() + accelerationNorm * span;
    // n·Q_Bᵀ Δa, Δa constant, is n·Δa to within the angle B turns over the span.
    m_loadCurvature = -n.dot(acceleration) + b.spinBound * span * accelerationNorm;
  }

  // The height over B's centre of A's point at offset ρ, then.
  double height(const core::Vec3& rho) const { return m_n.dot(m_offset + rho); }
  // Its rate then, less what the flows' rates may differ from the bodies' spins.
  double rate(const core::Vec3& rho) const {
    return m_n.dot(m_velocity + m_a.spin.cross(rho) - m_b.spin.cross(m_offset + rho)) -
           m_a.spinError * rho.norm() - m_b.spinError * (m_offset.norm() + rho.norm());
  }
  // A bound of its second derivative's fall over the span, for any point within r of A's centre:
  // d²/dt² n·Q_Bᵀ w with w = Δx + Q_A ρ is Q̈_Bᵀ w + 2 Q̇_Bᵀ ẇ + Q_Bᵀ ẅ.
  double curvature(double r) const {
    return m_loadCurvature + m_b.turning * (m_offsetBound + r) +
           2 * m_b.spinBound * (m_velocityBound + m_a.spinBound * r) + m_a.turning * r;
  }
  // The turning of A relative to B, P = Q_Bᵀ Q_A: its rate then, and bounds of its rate and of
  // ‖P̈‖ over the span, and of its rate's error.
  core::Vec3 relativeSpin() const { return m_a.spin - m_b.spin; }
  double relativeSpinBound() const { return m_a.spinBound + m_b.spinBound; }
  double relativeTurning() const {
    return m_a.turning + m_b.turning + 2 * m_a.spinBound * m_b.spinBound;
  }
  double relativeSpinError() const { return m_a.spinError + m_b.spinError; }
  const core::Vec3& normal() const { return m_n; }
  const core::Vec3& centre() const { return m_a.centre; }
  double span() const { return m_span; }

 private:
  const BodyMotion& m_a;
  const BodyMotion& m_b;
  core::Vec3 m_n;
  double m_span;
  core::Vec3 m_offset, m_velocity;
  double m_offsetBound, m_velocityBound, m_loadCurvature;
};

// The lowest of A's points p_i in [begin, end) (world, then) rounded by `margin`: each height is at
// least h_i + t r_i − ½ C t², and their lowest over [0, span] at least one line's, the chord bound:
// for t ≤ span, h_i + t r_i ≥ h + t (r_i + (h_i − h)/span) where h is the lowest h_i.
SeparationBound pointsBound(const core::Vec3* begin, const core::Vec3* end, double margin,
                            const RelativeMotion& motion) {
  double lowest = std::numeric_limits<double>::infinity(), farthest = 0;
  for (const core::Vec3* p = begin; p != end; ++p)
    lowest = std::min(lowest, motion.height(*p - motion.centre()));
  double slope = std::numeric_limits<double>::infinity();
  for (const core::Vec3* p = begin; p != end; ++p) {
    const core::Vec3 rho = *p - motion.centre();
    farthest = std::max(farthest, rho.norm());
    slope = std::min(slope, motion.rate(rho) + (motion.height(rho) - lowest) / motion.span());
  }
  return {lowest - margin, slope, motion.curvature(farthest)};
}

// A's shape about a centre point c that it turns about with A, reaching `extent` from it: its
// lowest point over the plane is c's less the shape's support along −n in the turning direction
// u(t), u̇ = (ω_A − ω_B) × n.
SeparationBound turnedBound(const btTransform& frame, const RelativeMotion& motion, double support,
                            double supportRate, double supportCurvature, double extent) {
  const core::Vec3 origin = toEigen(frame.getOrigin());
  const SeparationBound centre = pointsBound(&origin, &origin + 1, support, motion);
  return {centre.value, centre.slope - supportRate - motion.relativeSpinError() * extent,
          centre.curvature + supportCurvature + motion.relativeTurning() * extent};
}

// An ellipsoid's support h(u) = |diag(a) u| in its own frame: its gradient is the support point e
// and its Hessian is at most max a² / min a for |u| ≥ 1, so along u(t) it grows by at most
// t e·u̇ + ½ t² |u̇|² max a² / min a.
SeparationBound ellipsoidBound(const btVector3& semiAxes, const btTransform& frame,
                               const RelativeMotion& motion) {
  const core::Vec3 a = toEigen(semiAxes);
  const core::Mat3 basis = toEigen(frame.getBasis());
  const core::Vec3 u = -(basis.transpose() * motion.normal());
  const double h = a.cwiseProduct(u).norm();
  const core::Vec3 support = basis * (a.cwiseProduct(a).cwiseProduct(u) / h);
  const double turn = motion.relativeSpinBound();
  return turnedBound(frame, motion, h, support.dot(motion.relativeSpin().cross(motion.normal())),
                     turn * turn * a.maxCoeff() * a.maxCoeff() / a.minCoeff(), a.maxCoeff());
}

// A cylinder's support H |u·axis| + R |u − (u·axis) axis|: by the triangle inequality it grows by
// at most t (H |u̇·axis| + R |u̇ − (u̇·axis) axis|) along u(t).
SeparationBound cylinderBound(const btCylinderShape& cylinder, const btTransform& frame,
                              const RelativeMotion& motion) {
  const int up = cylinder.getUpAxis();
  const btVector3 half = cylinder.getHalfExtentsWithMargin();
  const double height = half[up], radius = std::max(half[(up + 1) % 3], half[(up + 2) % 3]);
  const core::Vec3 axis = toEigen(frame.getBasis().getColumn(up));
  const auto reach = [&](const core::Vec3& u) {
    const double along = u.dot(axis);
    return height * std::abs(along) + radius * (u - along * axis).norm();
  };
  return turnedBound(frame, motion, reach(motion.normal()),
                     reach(motion.relativeSpin().cross(motion.normal())), 0,
                     std::hypot(height, radius));
}

// The shape's core points in the world and the margin around them, for the shapes bounded by their
// points; false for any other. A box `sharp`: at its corners with its margin, as a plane's gap
// measures it (Bullet's support mapping of a box); else rounded, as GJK's.
bool corePoints(const btCollisionShape& shape, const btTransform& frame, bool sharp,
                std::vector<core::Vec3>& points, double& margin) {
  const auto add = [&](const btVector3& local) { points.push_back(toEigen(frame(local))); };
  switch (shape.getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
      add(btVector3(0, 0, 0));
      margin = static_cast<const btSphereShape&>(shape).getRadius();
      return true;
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& capsule = static_cast<const btCapsuleShape&>(shape);
      btVector3 end(0, 0, 0);
      end[capsule.getUpAxis()] = capsule.getHalfHeight();
      add(end);
      add(-end);
      margin = capsule.getRadius();
      return true;
    }
    case BOX_SHAPE_PROXYTYPE: {
      const auto& box = static_cast<const btBoxShape&>(shape);
      const btVector3 half =
          sharp ? box.getHalfExtentsWithMargin() : box.getHalfExtentsWithoutMargin();
      for (int corner = 0; corner < 8; ++corner) {
        add(btVector3(corner & 1 ? half.x() : -half.x(), corner & 2 ? half.y() : -half.y(),
                      corner & 4 ? half.z() : -half.z()));
      }
      margin = sharp ? 0.0 : box.getMargin();
      return true;
    }
    default:
      break;
  }
  if (shape.isPolyhedral()) {  // a hull's points rounded by its margin
    const auto& polyhedron = static_cast<const btPolyhedralConvexShape&>(shape);
    for (int i = 0; i < polyhedron.getNumVertices(); ++i) {
      btVector3 vertex;
      polyhedron.getVertex(i, vertex);
      add(vertex);
    }
    margin = polyhedron.getMargin();
    return !points.empty();
  }
  if (shape.isConvex()) {  // a plane is concave in Bullet
    btVector3 centre;
    btScalar radius;
    shape.getBoundingSphere(centre, radius);
    add(centre);
    margin = radius;
    return true;
  }
  return false;
}

// How far `other` reaches along n beyond its body's centre then; nullopt where it reaches
// infinitely far (a plane along any other direction than its own normal) or is not convex.
std::optional<double> supportOf(const btCollisionShape& other, const btTransform& frame,
                                const core::Vec3& centre, const btVector3& n) {
  if (const std::optional<btVector3> normal = planeNormalOf(other, frame)) {
    if (n != *normal) return std::nullopt;
    const auto& plane = static_cast<const btStaticPlaneShape&>(other);
    return toEigen(n).dot(toEigen(frame(plane.getPlaneNormal() * plane.getPlaneConstant())) -
                          centre);
  }
  if (!other.isConvex()) return std::nullopt;
  const auto& convex = static_cast<const btConvexShape&>(other);
  const btVector3 local = frame.getBasis().transpose() * n;
  // The core's support rounded by the margin: the shape the gaps measure. btBoxShape's own support
  // with its margin is the sharp corner, up to (√3 − 1) margins farther along an oblique n.
  const btVector3 support = convex.localGetSupportVertexWithoutMarginNonVirtual(local) +
                            convex.getMarginNonVirtual() * local;
  return toEigen(n).dot(toEigen(frame(support)) - centre);
}

// The LGVI's rotation over a flow F̃[τ] from a state turning at |ω| (measured against finite
// differences of the flow, bodies of random inertia, |ω|τ ≤ 0.5): its second derivative stays
// within 1.13 (ω² + |Π||ω|/J_min) and its rate within 0.6 |ω|(|ω|τ)² of the state's ω at τ. The
// bound takes half as much again and |ω|(|ω|τ)², up to kMostFlowTurn over the flow.
constexpr double kTurningMargin = 1.5;

}  // namespace

std::optional<btVector3> planeNormalOf(const btCollisionShape& shape, const btTransform& frame) {
  if (shape.getShapeType() != STATIC_PLANE_PROXYTYPE) return std::nullopt;
  return frame.getBasis() * static_cast<const btStaticPlaneShape&>(shape).getPlaneNormal();
}

std::optional<BodyMotion> flowMotion(const core::MassProperties& mass, const core::BodyState& state,
                                     const core::ExternalLoad& load, bool turns, double elapsed,
                                     double span, bool backward) {
  const double sign = backward ? -1.0 : 1.0;
  BodyMotion motion;
  motion.centre = state.x;
  motion.velocity = sign * mass.inverseMass() * state.gamma;
  motion.acceleration = load.gravity + mass.inverseMass() * load.force;
  if (!turns) return motion;
  const double torque = load.torque.norm();
  // |Π| is kept by the torque-free flow.
  const double smallestMoment = smallestPrincipalMoment(mass);
  const double spin = (state.Pi.norm() + torque * span) / smallestMoment;  // rad/s, at most
  if (spin * span > kMostFlowTurn) return std::nullopt;
  motion.spin = sign * core::angularVelocityWorld(mass, state);
  motion.spinBound = (1 + kMostFlowTurn * kMostFlowTurn) * spin;
  const double turned = spin * elapsed;  // rad
  motion.spinError = spin * turned * turned;
  motion.turning = kTurningMargin * (2 * spin * spin + torque / smallestMoment);
  return motion;
}

std::optional<SeparationBound> separationBound(const btCollisionShape& shape,
                                               const btTransform& frame, const BodyMotion& motion,
                                               const btCollisionShape& other,
                                               const btTransform& otherFrame,
                                               const BodyMotion& otherMotion,
                                               const btVector3& normal, double span) {
  const std::optional<double> reach = supportOf(other, otherFrame, otherMotion.centre, normal);
  if (!reach) return std::nullopt;
  const RelativeMotion relative(motion, otherMotion, toEigen(normal), span);
  std::optional<SeparationBound> bound;
  if (const EllipsoidShape* ellipsoid = detail::ellipsoidOf(shape)) {
    bound = ellipsoidBound(ellipsoid->getSemiAxes(), frame, relative);
  } else if (shape.getShapeType() == CYLINDER_SHAPE_PROXYTYPE) {
    bound = cylinderBound(static_cast<const btCylinderShape&>(shape), frame, relative);
  } else {
    // Kept per thread from bound to bound: a fresh list would take allocations at every bound (four
    // for a box's eight corners), and the impact search asks for bounds at every probe.
    thread_local std::vector<core::Vec3> points;
    points.clear();
    double margin = 0;
    const bool onPlane = other.getShapeType() == STATIC_PLANE_PROXYTYPE;
    if (!corePoints(shape, frame, onPlane, points, margin)) return std::nullopt;
    bound = pointsBound(points.data(), points.data() + points.size(), margin, relative);
  }
  bound->value -= *reach;
  return bound;
}

}  // namespace carom
