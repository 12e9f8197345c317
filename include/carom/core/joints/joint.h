// Holonomic joints between rigid bodies of the core, for the constrained LGVI (jointed_flow.h): the
// geometry of Bullet's btPoint2PointConstraint, btHingeConstraint, btFixedConstraint and
// btSliderConstraint, each side a frame in its body's frame (frameInA, frameInB), the one-row
// constraints that hold a btConeTwistConstraint on its swing cone or at its twist stop, and the
// locked axes of a btGeneric6DofSpring2Constraint.
#pragma once

#include <array>
#include <string>

#include "carom/core/types.h"

namespace carom::core::joints {

/// The body index of the fixed world frame (Bullet's getFixedBody()): a frame on it is given in
/// world coordinates.
inline constexpr int kWorld = -1;

/// Each kind's rows g(q) = 0 (constraint.h); E_A, E_B are the frames' axes in the world, p_A, p_B
/// their origins.
enum class JointType {
  kPoint,   ///< point-to-point (ball): p_B − p_A = 0, 3 rows
  kHinge,   ///< point + the frames' z axes aligned (z_A·x_B = z_A·y_B = 0), 5 rows
  kFixed,   ///< point + the frames aligned (hinge rows and x_A·y_B = 0), 6 rows
  kSlider,  ///< frames aligned, p_B − p_A along x_A only (·y_A = ·z_A = 0), 5 rows
  /// x_A on the elliptic cone about x_B (btConeTwistConstraint's swing limit), 1 row:
  /// g = r(ψ) − θ, θ = atan2(ρ, c_x) the swing angle between x_A and x_B, c = E_Bᵀx_A (x_A in B's
  /// frame), ρ = √(c_y² + c_z²), and r the cone's half-angle in the swing's direction,
  /// r = ρ / √(c_y²/swingSpan1² + c_z²/swingSpan2²) (Bullet's computeConeLimitInfo). Undefined
  /// on the axis (ρ = 0), far from any cone.
  kConeSwing,
  /// The twist of A about x_B equal to `twist`, 1 row: g = τ − twist, τ = atan2(y'·z_B, y'·y_B)
  /// with y' = S y_A, S the shortest arc turning x_A onto x_B (Bullet's swing–twist split of
  /// btConeTwistConstraint). Undefined where x_A = −x_B.
  kTwist,
  /// btGeneric6DofSpring2Constraint's locked axes (Joint::locked), each at 0: per locked linear
  /// axis k, (p_B − p_A)·E_A e_k = 0 (the slider's rows), Bullet's linear coordinates being p_B −
  /// p_A in A's axes; the rotations all locked, the fixed joint's three rows; all but the one about
  /// e_i, e_i^A·e_j^B = e_i^A·e_k^B = 0 ((i, j, k) cyclic: a hinge about e_i, where each Euler
  /// angle but the i-th is 0 in any rotate order); none locked, no row. One rotation locked alone
  /// is not a kind of this (validateJoint).
  kSixDof,
};
const char* toString(JointType type);
/// The number of scalar constraints g_i(q) = 0 the kind imposes (kSixDof: the joint's; see below).
int rowCount(JointType type);

/// One side of a joint: a frame attached to a body, or to the world.
struct JointFrame {
  int body = kWorld;          ///< index into the system's bodies, or kWorld
  Vec3 pivot = Vec3::Zero();  ///< the frame's origin in the body frame (world frame on kWorld), m
  Mat3 basis = Mat3::Identity();  ///< the frame's axes as columns, in the same frame: a rotation
};

struct Joint {
  JointType type = JointType::kPoint;
  JointFrame a, b;
  /// kConeSwing: the cone's half-angles toward y_B and toward z_B (rad), in (0, ∞).
  double swingSpan1 = 0, swingSpan2 = 0;
  /// kTwist: the twist the row holds (rad).
  double twist = 0;
  /// kSixDof: which of Bullet's six coordinates are locked (at 0), linear x, y, z then angular.
  std::array<bool, 6> locked{};
};
/// The number of scalar constraints g_i(q) = 0 the joint imposes: rowCount(type), or a 6dof's
/// count of locked linear axes plus 3, 2 or 0 angular rows.
int rowCount(const Joint& joint);

/// btPoint2PointConstraint(pivotInA, pivotInB).
Joint pointJoint(int bodyA, const Vec3& pivotA, int bodyB, const Vec3& pivotB);
/// btHingeConstraint(pivotInA, pivotInB, axisInA, axisInB): the frames' z axes are the axes,
/// normalised. Throws carom::Error for an axis that is not finite or shorter than 1e-12 (any unit).
Joint hingeJoint(int bodyA, const Vec3& pivotA, const Vec3& axisA, int bodyB, const Vec3& pivotB,
                 const Vec3& axisB);
/// btFixedConstraint(frameInA, frameInB): the frames coincide.
Joint fixedJoint(const JointFrame& a, const JointFrame& b);
/// btSliderConstraint(frameInA, frameInB, true): the frames stay aligned and slide along x_A.
Joint sliderJoint(const JointFrame& a, const JointFrame& b);

/// The one-row constraint holding the frames' x_A on the elliptic cone of half-angles swingSpan1,
/// swingSpan2 about x_B (JointType::kConeSwing).
Joint coneSwingJoint(const JointFrame& a, const JointFrame& b, double swingSpan1,
                     double swingSpan2);
/// The one-row constraint holding the twist of the frames at `twist` (rad, JointType::kTwist).
Joint twistJoint(const JointFrame& a, const JointFrame& b, double twist);

/// btGeneric6DofSpring2Constraint(frameInA, frameInB) with the axes `locked` locked at 0 and the
/// others free (JointType::kSixDof).
Joint sixDofJoint(const JointFrame& a, const JointFrame& b, const std::array<bool, 6>& locked);

/// Throws carom::Error, naming `what`, for a side on a body outside [0, bodyCount) other than
/// kWorld, both sides on one body or both on the world, a pivot that is not finite, or a basis
/// that is not a rotation (‖CᵀC − I‖ > 1e-9 or det C < 0), a cone's span that is not finite and
/// positive, a twist that is not finite, or a 6dof with exactly one rotation locked.
void validateJoint(const Joint& joint, int bodyCount, const std::string& what);

}  // namespace carom::core::joints
