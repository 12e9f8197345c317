#include "carom/core/joints/joint.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "carom/core/joints/constraint.h"
#include "carom/core/joints/system.h"
#include "carom/core/lie.h"
#include "carom/error.h"
#include "core/joints/scenes.h"
#include "support/errors.h"
#include "support/random.h"

namespace carom::core::joints {
namespace {

// Two bodies at random poses and a joint of each kind between them and between body 1 and the
// world, with random frames: g(q) need not vanish for the gradient to be checked.
JointedSystem everyKind(test::Random& random) {
  std::vector<Joint> joints;
  for (int b : {1, kWorld}) {
    const JointFrame a{0, random.vector(1.0), random.rotation()};
    const JointFrame other{b, random.vector(1.0), random.rotation()};
    joints.push_back(pointJoint(0, a.pivot, b, other.pivot));
    joints.push_back(
        hingeJoint(0, a.pivot, random.unitVector(), b, other.pivot, random.unitVector()));
    joints.push_back(fixedJoint(a, other));
    joints.push_back(sliderJoint(a, other));
  }
  return JointedSystem({random.body(), random.body()}, joints);
}

TEST(JointConstraints, GradientIsTheDerivativeAlongEachBodysLeftTrivialisedVariation) {
  // Central differences of g along x_i + εe and R_i exp(S(εe)), error O(ε²).
  test::Random random(29);
  for (int trial = 0; trial < 10; ++trial) {
    const JointedSystem system = everyKind(random);
    const std::vector<BodyState> states{{random.vector(1.0), random.rotation()},
                                        {random.vector(1.0), random.rotation()}};
    const ConstraintEvaluation at = evaluateConstraints(system, states);
    ASSERT_EQ(at.value.size(), 2 * (3 + 5 + 6 + 5));
    ASSERT_EQ(at.gradient.cols(), 12);
    const Eigen::MatrixXd difference = scenes::centralDifferences(system, states, 1e-6);
    EXPECT_LE((at.gradient - difference).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
  }
}

TEST(JointConstraints, VanishWhereTheFramesMeetAsEachKindRequires) {
  // Body 0 at a random pose; body 1 placed so that its frame meets body 0's: coincident for the
  // point, hinge and fixed joints, slid along x_A for the slider, turned about z_A for the hinge.
  test::Random random(30);
  const BodyState a{random.vector(1.0), random.rotation()};
  const JointFrame frameA{0, random.vector(0.5), random.rotation()};
  const Vec3 pivot = a.x + a.R * frameA.pivot;
  const Mat3 axes = a.R * frameA.basis;
  const auto attach = [&](const Vec3& at, const Mat3& turn) {
    // Body 1 at a random pose, its frame built to sit at `at` with axes axes·turn.
    const BodyState b{random.vector(1.0), random.rotation()};
    return std::make_pair(
        b, JointFrame{1, b.R.transpose() * (at - b.x), b.R.transpose() * axes * turn});
  };
  const Mat3 twist = Eigen::AngleAxisd(0.7, Vec3::UnitZ()).toRotationMatrix();
  const auto [hinged, hingeFrame] = attach(pivot, twist);
  const auto [slid, slideFrame] = attach(pivot + 0.3 * axes.col(0), Mat3::Identity());
  const auto [fixedState, fixedFrame] = attach(pivot, Mat3::Identity());
  const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
  const auto values = [&](const Joint& joint, const BodyState& b) {
    return evaluateConstraints(JointedSystem({body, body}, {joint}), {a, b}).value;
  };
  const auto g = [&](const Joint& joint, const BodyState& b) {
    return values(joint, b).lpNorm<Eigen::Infinity>();
  };
  const Vec3 hingeAxisA = frameA.basis.col(2), hingeAxisB = hingeFrame.basis.col(2);
  EXPECT_LE(g(pointJoint(0, frameA.pivot, 1, hingeFrame.pivot), hinged), 1e-15);
  EXPECT_LE(
      g(hingeJoint(0, frameA.pivot, hingeAxisA, 1, hingeFrame.pivot, 2.0 * hingeAxisB), hinged),
      1e-15);
  EXPECT_LE(g(fixedJoint(frameA, fixedFrame), fixedState), 1e-15);
  EXPECT_LE(g(sliderJoint(frameA, slideFrame), slid), 1e-15);
  // The hinge's twist breaks the fixed joint, the slide breaks every joint but the slider.
  EXPECT_NEAR(g(fixedJoint(frameA, hingeFrame), hinged), std::sin(0.7), 1e-14);
  EXPECT_NEAR(values(pointJoint(0, frameA.pivot, 1, slideFrame.pivot), slid).norm(), 0.3, 1e-14);
}

TEST(JointConstraints, RefuseJointsNoSystemHas) {
  const MassProperties body = uniformBox(1.0, {0.1, 0.2, 0.3});
  const auto system = [&](const Joint& joint) { return JointedSystem({body, body}, {joint}); };
  test::expectErrorNaming(
      [&] {
        system(pointJoint(0, {0, 0, 0}, 2, {0, 0, 0}));
      },
      "joint 0 (point) side B: body index 2 is out of range");
  test::expectErrorNaming(
      [&] {
        system(pointJoint(-2, {0, 0, 0}, 1, {0, 0, 0}));
      },
      "side A: body index -2 is out of range");
  test::expectErrorNaming(
      [&] {
        system(pointJoint(1, {0, 0, 0}, 1, {0, 0, 0}));
      },
      "both sides are on body 1");
  test::expectErrorNaming(
      [&] {
        system(pointJoint(kWorld, {0, 0, 0}, kWorld, {0, 0, 0}));
      },
      "both sides are on the world");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  test::expectErrorNaming(
      [&] {
        system(pointJoint(0, {nan, 0, 0}, 1, {0, 0, 0}));
      },
      "side A: pivot is not finite");
  test::expectErrorNaming(
      [&] {
        hingeJoint(0, {0, 0, 0}, {0, 0, 0}, 1, {0, 0, 0}, {0, 0, 1});
      },
      "hinge axis on side A is not finite or has zero length");
  test::expectErrorNaming(
      [&] {
        hingeJoint(0, {0, 0, 0}, {0, 0, 1}, 1, {0, 0, 0}, {nan, 0, 1});
      },
      "hinge axis on side B is not finite");
  const JointFrame sheared{1, Vec3::Zero(), Mat3::Identity() + 0.1 * Mat3::Ones()};
  test::expectErrorNaming([&] { system(fixedJoint({0}, sheared)); },
                          "joint 0 (fixed) side B: basis is not a rotation");
  const JointFrame mirrored{1, Vec3::Zero(), -Mat3::Identity()};
  test::expectErrorNaming([&] { system(sliderJoint({0}, mirrored)); },
                          "joint 0 (slider) side B: basis is not a rotation");
}

}  // namespace
}  // namespace carom::core::joints
