// How close a moving convex shape can come to a plane fixed to another moving body over a span of
// time: a lower bound of its separation quadratic in time, from its points' motion relative to that
// body. Through the other shape's witness point of a gap, the plane supports that shape at any
// time, so the separation bounds the pair's gap from below (the separating-axis theorem). The
// variational step's swept search (world_swept_impact.cpp) certifies with it that a pair stays
// apart over a span, with no probe. Its rate is the gap's own where the shape touches the plane at
// one point (Danskin: the witness points' relative velocity along the normal), so that a pair
// opening at its witness is certified for a span that grows with its opening speed, however fast
// its bodies turn.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <LinearMath/btTransform.h>

#include <optional>

#include "carom/core/body.h"
#include "carom/core/lgvi.h"

namespace carom {

// How a body moves from an instant on, as far as the bound needs: its centre exactly (the LGVI's
// translation is quadratic in time, Tran & Leok (5.9a)), its rotation by its rate then and bounds
// of how fast it turns and how that rate changes. All zero for a still body.
struct BodyMotion {
  core::Vec3 centre = core::Vec3::Zero();        // m: the centre of mass then
  core::Vec3 velocity = core::Vec3::Zero();      // m/s
  core::Vec3 acceleration = core::Vec3::Zero();  // m/s²: its loads', constant over a step
  core::Vec3 spin = core::Vec3::Zero();          // rad/s, world: its rotation's rate then
  double spinBound = 0;  // rad/s: its rotation's rate over the span, at most
  // rad/s: how far the rate of the flow it follows can be from `spin` then (0 where the flow
  // starts: an LGVI flow leaves with the state's own rate).
  double spinError = 0;
  // 1/s²: a bound of ‖Q̈‖ over the span for its rotation Q(t) = R(t)R(0)ᵀ, which moves a point at
  // distance r from its centre by at most ½‖Q̈‖ r t² from its first-order path.
  double turning = 0;
};

// The largest turn of a body over an LGVI flow (rad) up to which the bounds of its motion were
// measured (flowMotion, and pathDrift's in variational_step.h): beyond it they are not given.
inline constexpr double kMostFlowTurn = 0.5;

// A step body's least principal moment of inertia (kg m²): Bullet's body frame is on the principal
// axes (world_bodies.cpp), so J is diagonal. |ω| ≤ |Π| / it bounds the body's spin.
inline double smallestPrincipalMoment(const core::MassProperties& mass) {
  return mass.inertia().diagonal().minCoeff();
}

// The motion of a body that an LGVI flow (core::flowInSubsteps) takes from `start` over `span` (s),
// seen from its state `state` reached after `elapsed` (s) of it, forward in time or backward (its
// velocities turned round): nullopt where the flow turns it by more than half a radian, beyond
// which the bounds below were not measured. `turns`: false for a body no impulse turns (its
// angular factor zero), whose turning is left out as closingBound leaves it.
std::optional<BodyMotion> flowMotion(const core::MassProperties& mass, const core::BodyState& state,
                                     const core::ExternalLoad& load, bool turns, double elapsed,
                                     double span, bool backward);

// Over 0 ≤ t ≤ span: the separation ≥ value + slope t − ½ curvature t².
struct SeparationBound {
  double value = 0;      // m
  double slope = 0;      // m/s
  double curvature = 0;  // m/s²
};

// The world normal of a still plane `shape` posed at `frame`, the one direction along which
// separationBound bounds a shape against it; nullopt for any other shape.
std::optional<btVector3> planeNormalOf(const btCollisionShape& shape, const btTransform& frame);

// The separation of `shape` (posed at `frame` then, moving with `motion`) from the plane through
// the support point of `other` (at `otherFrame`, moving rigidly with `otherMotion`) along the unit
// `normal` (world, from `other` towards `shape`), the plane turning with `other`'s body, over
// `span` (s). `shape`: a sphere, capsule, box, cylinder, convex hull or other polyhedron,
// carom::EllipsoidShape, or any other convex shape by its bounding sphere; `other`: any convex
// shape, or a still plane along its own normal (planeNormalOf). nullopt for any other. Each shape
// is taken as the pair's gap measures it (gap.h): its core rounded by its margin, as GJK's, and a
// box against a plane at its sharp corners.
std::optional<SeparationBound> separationBound(const btCollisionShape& shape,
                                               const btTransform& frame, const BodyMotion& motion,
                                               const btCollisionShape& other,
                                               const btTransform& otherFrame,
                                               const BodyMotion& otherMotion,
                                               const btVector3& normal, double span);

}  // namespace carom
