// Holonomic joints between rigid bodies of the core, for the constrained LGVI (jointed_flow.h): the
// geometry of Bullet's btPoint2PointConstraint, btHingeConstraint, btFixedConstraint and
// btSliderConstraint, each side a frame in its body's frame (frameInA, frameInB).
#pragma once

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
};
const char* toString(JointType type);
/// The number of scalar constraints g_i(q) = 0 the kind imposes.
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
};

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

/// Throws carom::Error, naming `what`, for a side on a body outside [0, bodyCount) other than
/// kWorld, both sides on one body or both on the world, a pivot that is not finite, or a basis
/// that is not a rotation (‖CᵀC − I‖ > 1e-9 or det C < 0).
void validateJoint(const Joint& joint, int bodyCount, const std::string& what);

}  // namespace carom::core::joints
