// Pseudo velocities that move overlapping bodies apart by their positions only (Bullet's "push"
// and "turn" velocities of split impulse): the bodies are moved by them over a step and their
// real velocities are left alone, so the push itself gives them no kinetic energy. The caller
// pays for what a lift against gravity gives in potential energy.
#pragma once

#include <vector>

#include "carom/core/contact/joint_rows.h"
#include "carom/core/impact/contact.h"

namespace carom::core::contact {

/// One overlap to open: `speed` (m/s, ≥ 0) is the normal pseudo speed at which B must leave A at
/// `point` along `normal` (unit, from A into B). Bodies index the list given to
/// separationVelocities, or kWorld (persistent_contact.h) for an immovable one.
struct Separation {
  int bodyA;
  int bodyB;
  Vec3 point;
  Vec3 normal;
  double speed;
};

struct PseudoVelocity {
  Vec3 linear = Vec3::Zero();   ///< m/s, world frame
  Vec3 angular = Vec3::Zero();  ///< rad/s, world frame
};

/// Projected Gauss–Seidel over the rows, `sweeps` sweeps (≥ 1): non-negative normal impulses on
/// the bodies' masses and inertias (their velocities are not read) such that each row separates at
/// its speed or more. Returns a pseudo velocity per body. Throws carom::Error for a body index out
/// of range, a row between a body and itself, a non-unit normal, a negative or non-finite speed,
/// or sweeps < 1. With `joints` (built on the same bodies), each impulse moves the bodies as the
/// jointed system moves (applyHeldImpulse: the joint rows' pseudo velocities kept at zero), so a
/// push opens the overlaps without pulling the joints apart, to first order in its length.
std::vector<PseudoVelocity> separationVelocities(const std::vector<impact::ContactBody>& bodies,
                                                 const std::vector<Separation>& rows, int sweeps,
                                                 const JointSystem* joints = nullptr);

}  // namespace carom::core::contact
