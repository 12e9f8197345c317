// The rows of a btGeneric6DofSpring2Constraint's locked axes (JointType::kSixDof): zero wherever
// only the free coordinates move, and their gradient the central differences of their values.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <vector>

#include "carom/core/joints/constraint.h"
#include "carom/core/joints/system.h"
#include "carom/core/lie.h"
#include "carom/error.h"
#include "core/joints/scenes.h"
#include "support/random.h"

namespace carom::core::joints {
namespace {

using Locks = std::array<bool, 6>;

// Body 0 at a random pose carrying frame A; B on the world, placed so that p_B − p_A = E_A
// `linear` and E_A = E_B Rx(a) Ry(b) Rz(c) (Bullet's XYZ Euler angles `angular`: matrixToEulerXYZ
// reads E_Aᵀ E_B by columns, so its angles are those of E_Bᵀ E_A).
struct Placed {
  BodyState state;
  JointFrame a, b;
};
Placed placed(test::Random& random, const Vec3& linear, const Vec3& angular) {
  Placed out{{random.vector(1.0), random.rotation()},
             {0, random.vector(0.5), random.rotation()},
             {kWorld, random.vector(0.5), random.rotation()}};
  const Mat3 relative = (Eigen::AngleAxisd(angular.x(), Vec3::UnitX()) *
                         Eigen::AngleAxisd(angular.y(), Vec3::UnitY()) *
                         Eigen::AngleAxisd(angular.z(), Vec3::UnitZ()))
                            .toRotationMatrix();
  // E_A = R C_A = E_B relative, and x + R ρ_A = p_B − E_A linear.
  out.state.R = out.b.basis * relative * out.a.basis.transpose();
  out.state.x = out.b.pivot - out.state.R * out.a.basis * linear - out.state.R * out.a.pivot;
  return out;
}

Eigen::VectorXd rowsOf(const Joint& joint, const BodyState& state) {
  const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
  return evaluateConstraints(JointedSystem({body}, {joint}), {state}).value;
}

TEST(SixDofRows, VanishWhereOnlyTheFreeCoordinatesMove) {
  test::Random random(61);
  // Linear y free; the rotation about one axis free (a hinge-like 6dof) or all three (ball-like).
  for (int free = 0; free < 3; ++free) {
    Locks locks{true, false, true, true, true, true};
    locks[3 + free] = false;
    Vec3 angle = Vec3::Zero();
    angle(free) = 1.1;
    const Placed p = placed(random, Vec3(0, 0.7, 0), angle);
    const Eigen::VectorXd at = rowsOf(sixDofJoint(p.a, p.b, locks), p.state);
    ASSERT_EQ(at.size(), 4);
    EXPECT_LE(at.cwiseAbs().maxCoeff(), 1e-14) << "free rotation " << free;
    // A locked coordinate moved by 0.01 shows in the rows.
    Vec3 other = angle;
    other((free + 1) % 3) = 0.01;
    EXPECT_GE(rowsOf(sixDofJoint(p.a, p.b, locks), placed(random, Vec3(0, 0.7, 0), other).state)
                  .cwiseAbs()
                  .maxCoeff(),
              0.009);
  }
  const Placed ball = placed(random, Vec3(0, 0.7, 0), Vec3(0.4, -0.9, 2.5));
  const Eigen::VectorXd at =
      rowsOf(sixDofJoint(ball.a, ball.b, {true, false, true, false, false, false}), ball.state);
  ASSERT_EQ(at.size(), 2);
  EXPECT_LE(at.cwiseAbs().maxCoeff(), 1e-14);
  const Placed off = placed(random, Vec3(0.02, 0.7, -0.03), Vec3(0.4, -0.9, 2.5));
  const Eigen::VectorXd moved =
      rowsOf(sixDofJoint(off.a, off.b, {true, false, true, false, false, false}), off.state);
  EXPECT_NEAR(moved(0), 0.02, 1e-14);  // the rows are Bullet's linear coordinates
  EXPECT_NEAR(moved(1), -0.03, 1e-14);
}

TEST(SixDofRows, GradientIsTheDerivativeAlongEachBodysLeftTrivialisedVariation) {
  // Central differences of g along x_i + εe and R_i exp(S(εe)), error O(ε²), between two bodies
  // and between body 1 and the world, at poses off the joints' rows.
  test::Random random(62);
  const std::vector<Locks> patterns{{true, true, true, true, true, true},
                                    {true, false, true, false, true, true},
                                    {false, true, false, true, false, true},
                                    {true, true, false, true, true, false},
                                    {false, true, true, false, false, false}};
  const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<BodyState> states{{random.vector(1.0), random.rotation()},
                                        {random.vector(1.0), random.rotation()}};
    std::vector<Joint> joints;
    int rows = 0;
    for (const Locks& locks : patterns) {
      const JointFrame onBody0{0, random.vector(0.5), random.rotation()};
      const JointFrame onBody1{1, random.vector(0.5), random.rotation()};
      const JointFrame onWorld{kWorld, random.vector(0.5), random.rotation()};
      joints.push_back(sixDofJoint(onBody0, onBody1, locks));
      joints.push_back(sixDofJoint(onBody1, onWorld, locks));
      rows += 2 * rowCount(joints.back());
    }
    const JointedSystem system({body, body}, joints);
    ASSERT_EQ(system.rowCount(), rows);
    const ConstraintEvaluation at = evaluateConstraints(system, states);
    const Eigen::MatrixXd difference = scenes::centralDifferences(system, states, 1e-6);
    EXPECT_LE((at.gradient - difference).cwiseAbs().maxCoeff(), 1e-7) << "trial " << trial;
  }
}

TEST(SixDofRows, OneRotationLockedAloneIsRefused) {
  const JointFrame a{0, Vec3::Zero(), Mat3::Identity()}, b{kWorld, Vec3::Zero(), Mat3::Identity()};
  const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
  try {
    JointedSystem({body}, {sixDofJoint(a, b, {true, true, true, false, true, false})});
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("exactly one rotation locked"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace carom::core::joints
