#include "carom/core/joints/cone.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <vector>

#include "carom/core/joints/constraint.h"
#include "carom/core/joints/system.h"
#include "carom/core/lie.h"
#include "core/joints/scenes.h"
#include "support/random.h"

namespace carom::core::joints {
namespace {

Mat3 turn(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// Body 0 at a random pose; frame A on it; B on the world, placed so that A is B turned by the
// swing `theta` toward direction `psi` (from y_B toward z_B), after the twist `tau` about x.
struct Placed {
  BodyState state;
  JointFrame a, b;
};
Placed placed(test::Random& random, double theta, double psi, double tau) {
  Placed out{{random.vector(1.0), random.rotation()},
             {0, random.vector(0.5), random.rotation()},
             {kWorld, random.vector(0.5), random.rotation()}};
  // The swing turns x toward cos ψ y + sin ψ z: about x × that direction.
  const Vec3 toward(0, std::cos(psi), std::sin(psi));
  const Mat3 relative = turn(theta, Vec3::UnitX().cross(toward)) * turn(tau, Vec3::UnitX());
  // E_A = R C_A = E_B · relative, so R = E_B relative C_Aᵀ.
  out.state.R = out.b.basis * relative * out.a.basis.transpose();
  return out;
}

double rowOf(const Joint& joint, const BodyState& state) {
  const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
  return evaluateConstraints(JointedSystem({body}, {joint}), {state}).value(0);
}

TEST(ConeTwistRows, SwingGapIsTheEllipsesHalfAngleLessTheSwing) {
  test::Random random(41);
  const double span1 = 0.6, span2 = 1.1, theta = 0.4;
  for (const double tau : {0.0, 0.9, -2.0}) {  // the twist leaves the swing's gap alone
    // Toward y_B the cone's half-angle is span1, toward z_B span2, between them the ellipse's
    // radius 1/r² = cos²ψ/span1² + sin²ψ/span2².
    const double psi = 0.7;
    const double between =
        1 / std::sqrt(std::pow(std::cos(psi) / span1, 2) + std::pow(std::sin(psi) / span2, 2));
    const auto gap = [&](double direction) {
      const Placed p = placed(random, theta, direction, tau);
      return rowOf(coneSwingJoint(p.a, p.b, span1, span2), p.state);
    };
    EXPECT_NEAR(gap(0), span1 - theta, 1e-14);
    EXPECT_NEAR(gap(3.14159265358979 / 2), span2 - theta, 1e-14);
    EXPECT_NEAR(gap(-psi), between - theta, 1e-14);
  }
}

TEST(ConeTwistRows, TwistIsTheTurnAboutXAfterTheSwingIsUndone) {
  test::Random random(42);
  for (const double theta : {0.0, 0.5, 1.4}) {
    for (const double tau : {0.3, -1.2, 2.8}) {
      const Placed p = placed(random, theta, 0.9, tau);
      EXPECT_NEAR(rowOf(twistJoint(p.a, p.b, 0.0), p.state), tau, 1e-13);
      // Held at τ − 0.1, the row is 0.1; across ±π it is brought back into (−π, π].
      EXPECT_NEAR(rowOf(twistJoint(p.a, p.b, tau - 0.1), p.state), 0.1, 1e-13);
      EXPECT_NEAR(rowOf(twistJoint(p.a, p.b, tau - 2 * 3.14159265358979 + 0.1), p.state), -0.1,
                  1e-12);
    }
  }
}

TEST(ConeTwistRows, GradientIsTheDerivativeAlongEachBodysLeftTrivialisedVariation) {
  // Central differences of g along x_i + εe and R_i exp(S(εe)), error O(ε²), between two bodies
  // and between body 1 and the world, swung off the axis and short of x_A = −x_B.
  test::Random random(43);
  for (int trial = 0; trial < 10; ++trial) {
    const Placed one = placed(random, random.uniform(0.2, 2.0), random.uniform(-3.0, 3.0),
                              random.uniform(-3.0, 3.0));
    const Placed two = placed(random, random.uniform(0.2, 2.0), random.uniform(-3.0, 3.0),
                              random.uniform(-3.0, 3.0));
    const JointFrame onBody1{1, two.a.pivot, two.a.basis};
    // Body 1's frame toward body 0's: body 1 stands where `two` puts its frame A against the
    // world frame two.b, which body 0's frame one.a is made to be.
    BodyState second = two.state;
    const Mat3 worldB = one.state.R * one.a.basis;  // body 0's frame in the world
    second.R = worldB * two.b.basis.transpose() * two.state.R;
    const std::vector<Joint> joints{
        coneSwingJoint(one.a, one.b, 0.7, 1.3), twistJoint(one.a, one.b, 0.2),
        coneSwingJoint(onBody1, {0, one.a.pivot, one.a.basis}, 0.9, 0.5),
        twistJoint(onBody1, {0, one.a.pivot, one.a.basis}, -0.4)};
    const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
    const JointedSystem system({body, body}, joints);
    const std::vector<BodyState> states{one.state, second};
    const ConstraintEvaluation at = evaluateConstraints(system, states);
    ASSERT_EQ(at.value.size(), 4);
    const Eigen::MatrixXd difference = scenes::centralDifferences(system, states, 1e-6);
    EXPECT_LE((at.gradient - difference).cwiseAbs().maxCoeff(), 1e-7) << "trial " << trial;
    // The rows turn bodies only: no force at a pivot.
    for (const int linear : {0, 1, 2, 6, 7, 8})
      EXPECT_EQ(at.gradient.col(linear).norm(), 0.0);
  }
}

}  // namespace
}  // namespace carom::core::joints
