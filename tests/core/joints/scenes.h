// Jointed systems the joint tests share: rods hung from the world as pendulums, and the measures
// the tests take of a run (energy, constraint error) or of the rows (their central differences).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <vector>

#include "carom/core/joints/constraint.h"
#include "carom/core/joints/jointed_flow.h"
#include "carom/core/lie.h"

namespace carom::core::joints::scenes {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kGravity = 9.81;  // m/s², along −z
inline const Vec3 kDown(0.0, 0.0, -kGravity);

inline std::vector<ExternalLoad> gravityLoads(const JointedSystem& system,
                                              const Vec3& gravity = kDown) {
  return std::vector<ExternalLoad>(system.bodyCount(), ExternalLoad{gravity});
}

inline double totalEnergy(const JointedSystem& system, const std::vector<BodyState>& states,
                          const Vec3& gravity = kDown) {
  double sum = 0.0;
  for (int i = 0; i < system.bodyCount(); ++i) {
    sum += energy(system.bodies()[i], states[i], gravity).total();
  }
  return sum;
}

/// ‖g(q)‖∞: m for point and slider rows, rad for orientation rows.
inline double constraintError(const JointedSystem& system, const std::vector<BodyState>& states) {
  return evaluateConstraints(system, states).value.lpNorm<Eigen::Infinity>();
}

/// ‖G(q) M⁻¹p‖∞, the hidden velocity constraint (m/s, rad/s).
inline double velocityError(const JointedSystem& system, const std::vector<BodyState>& states) {
  const Eigen::MatrixXd G = evaluateConstraints(system, states).gradient;
  Eigen::VectorXd v(6 * states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    v.segment<6>(6 * i) << linearVelocity(system.bodies()[i], states[i]),
        angularVelocityBody(system.bodies()[i], states[i]);
  }
  return (G * v).lpNorm<Eigen::Infinity>();
}

/// A chain of `links` uniform rods (1 kg, 1 m long along body z, 4 cm square), each hung by a
/// point-to-point joint from the one above's lower end, the first from the world origin; all at
/// rest, turned by `angle` about the world x axis (π/2: horizontal).
struct Chain {
  JointedSystem system;
  std::vector<BodyState> states;
};

inline constexpr double kHalfLength = 0.5;  // m: the rods' centre of mass to either end

inline Chain rodChain(int links, double angle) {
  const MassProperties rod = uniformBox(1.0, Vec3(0.02, 0.02, kHalfLength));
  const Vec3 top(0.0, 0.0, kHalfLength);
  const Mat3 R = Eigen::AngleAxisd(angle, Vec3::UnitX()).toRotationMatrix();
  std::vector<MassProperties> bodies;
  std::vector<Joint> joints;
  std::vector<BodyState> states;
  for (int i = 0; i < links; ++i) {
    bodies.push_back(rod);
    joints.push_back(i == 0 ? pointJoint(0, top, kWorld, Vec3::Zero())
                            : pointJoint(i, top, i - 1, -top));
    states.push_back({-(2 * i + 1) * (R * top), R, Vec3::Zero(), Vec3::Zero()});
  }
  return {JointedSystem(bodies, joints), states};
}

/// Steps n times, failing the test at the first step that does not converge.
template <typename Observer>
std::vector<BodyState> run(const JointedSystem& system, std::vector<BodyState> states, double h,
                           int n, const std::vector<ExternalLoad>& loads, Observer&& observe) {
  for (int k = 1; k <= n; ++k) {
    JointedFlowResult step = flow(system, states, h, loads);
    if (!step.ok()) {
      ADD_FAILURE() << "step " << k << ": " << toString(step.status);
      break;
    }
    states = std::move(step.states);
    observe(k, states);
  }
  return states;
}

// The central differences of the rows g(q) along x_i + εe and R_i exp(S(εe)) (e the unit axes),
// error O(ε²): the columns of ∇g (ConstraintEvaluation) as finite differences.
inline Eigen::MatrixXd centralDifferences(const JointedSystem& system,
                                          const std::vector<BodyState>& states, double epsilon) {
  const int columns = 6 * system.bodyCount();
  Eigen::MatrixXd difference(system.rowCount(), columns);
  for (int column = 0; column < columns; ++column) {
    const int body = column / 6, k = column % 3;
    std::vector<BodyState> plus = states, minus = states;
    const Vec3 e = epsilon * Vec3::Unit(k);
    if (column % 6 < 3) {
      plus[body].x += e;
      minus[body].x -= e;
    } else {
      plus[body].R = states[body].R * expSO3(e);
      minus[body].R = states[body].R * expSO3(-e);
    }
    difference.col(column) =
        (evaluateConstraints(system, plus).value - evaluateConstraints(system, minus).value) /
        (2.0 * epsilon);
  }
  return difference;
}

}  // namespace carom::core::joints::scenes
