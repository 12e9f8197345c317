// The position constraints g(q) = 0 of a jointed system and their gradient ∇g(q), at a
// configuration q = (x_i, R_i) of its bodies.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "carom/core/body.h"
#include "carom/core/joints/system.h"

namespace carom::core::joints {

struct ConstraintEvaluation {
  /// g(q), one entry per row (JointedSystem::rowCount): m for the point and slider rows,
  /// dimensionless for the orientation rows (the relative rotation in rad, to first order).
  Eigen::VectorXd value;
  /// ∇g(q), rows × 6N in the left trivialisation of each body's pose: body i's columns 6i..6i+2
  /// are ∂g/∂x_i (world frame) and 6i+3..6i+5 are ∂g/∂η_i for the variation δR_i = R_i S(η_i)
  /// (body frame), so that a row's force λ gives body i the impulse h λ·(those columns) on (γ_i,
  /// Π_i).
  Eigen::MatrixXd gradient;
};

/// Evaluates every joint's rows (joint.h, JointType) at the bodies' states (only x and R are read).
/// The caller passes one state per body.
ConstraintEvaluation evaluateConstraints(const JointedSystem& system,
                                         const std::vector<BodyState>& states);

}  // namespace carom::core::joints
