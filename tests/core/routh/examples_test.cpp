// The paper's examples against the digest's reference numbers (§6): Anitescu–Potra (all caps +∞)
// and the sequential orderings (cycling +∞ caps), to 1e-6 (digest §7 item 18).
#include <gtest/gtest.h>

#include "carom/core/routh/caps.h"
#include "carom/core/routh/examples.h"
#include "carom/core/routh/sim.h"

namespace carom::core::routh {
namespace {

constexpr double kReferenceTolerance = 1e-6;  // digest §7 item 18 (m/s)

ImpactOutcome simultaneous(const ImpactExample& example) {
  UnboundedCaps caps;
  return simulate(example.problem, example.vMinus, caps, 1);
}

ImpactOutcome sequential(const ImpactExample& example, std::vector<Eigen::Index> order) {
  SequentialCaps caps(std::move(order), example.problem.contacts(), 1e-8);
  SimOptions options;
  options.maxSteps = 20;  // the code's 10 rounds of two contacts
  return simulate(example.problem, example.vMinus, caps, 1, options);
}

void expectNear(const Eigen::VectorXd& actual, const Eigen::VectorXd& expected, double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  EXPECT_LE((actual - expected).lpNorm<Eigen::Infinity>(), tolerance)
      << "actual " << actual.transpose() << "\nexpected " << expected.transpose();
}

TEST(RouthExamples, RockingBlockComesToRestSimultaneously) {
  const ImpactExample block = rockingBlock();
  const ImpactOutcome outcome = simultaneous(block);
  ASSERT_TRUE(outcome.terminated()) << outcome.message;
  EXPECT_EQ(outcome.steps, 1);
  expectNear(outcome.v, Eigen::Vector3d::Zero(), kReferenceTolerance);
}

TEST(RouthExamples, RockingBlockSequentialOrdersLiftOneEdge) {
  const ImpactExample block = rockingBlock();
  const ImpactOutcome ab = sequential(block, {0, 1}), ba = sequential(block, {1, 0});
  ASSERT_TRUE(ab.terminated()) << ab.message;
  ASSERT_TRUE(ba.terminated()) << ba.message;
  expectNear(ab.v, Eigen::Vector3d(0.093018, 0.046509, -0.093018), kReferenceTolerance);
  expectNear(ba.v, Eigen::Vector3d(-0.093018, 0.046509, 0.093018), kReferenceTolerance);
  expectNear(block.problem.normalJacobian() * ab.v, Eigen::Vector2d(0.093018, 0.0),
             kReferenceTolerance);
  expectNear(block.problem.tangentJacobian() * ab.v, Eigen::Vector2d::Zero(), kReferenceTolerance);
}

TEST(RouthExamples, BoxAndWall) {
  const ImpactExample box = boxAndWall();
  const ImpactOutcome ap = simultaneous(box);
  ASSERT_TRUE(ap.terminated()) << ap.message;
  expectNear(ap.v, Eigen::Vector3d::Zero(), kReferenceTolerance);
  for (const auto& order : {std::vector<Eigen::Index>{0, 1}, std::vector<Eigen::Index>{1, 0}}) {
    const ImpactOutcome seq = sequential(box, order);
    ASSERT_TRUE(seq.terminated()) << seq.message;
    expectNear(box.problem.normalJacobian() * seq.v, Eigen::Vector2d(0.0, 0.105642),
               kReferenceTolerance);
    expectNear(box.problem.tangentJacobian() * seq.v, Eigen::Vector2d(0.305765, -0.072542),
               kReferenceTolerance);
    expectNear(seq.v, Eigen::Vector3d(0.063790, -0.169432, 0.417754), kReferenceTolerance);
  }
}

TEST(RouthExamples, CompassGaitSequentialIsTheLeadingFootImpact) {
  const ImpactExample gait = compassGait();
  expectNear(gait.problem.normalJacobian() * gait.vMinus, Eigen::Vector2d(-0.489074, 0.0),
             kReferenceTolerance);
  const ImpactOutcome seq = sequential(gait, {1, 0});
  ASSERT_TRUE(seq.terminated()) << seq.message;
  expectNear(seq.v, Eigen::Vector4d(0.088429, -0.416027, -0.425321, 0.527100), kReferenceTolerance);
}

TEST(RouthExamples, DiskStackComesToRestSimultaneously) {
  const ImpactExample disks = diskStack();
  expectNear(disks.problem.normalJacobian() * disks.vMinus,
             (Eigen::VectorXd(5) << 0, 0, -std::sqrt(3.0) / 2, -std::sqrt(3.0) / 2, 0).finished(),
             1e-12);
  const ImpactOutcome ap = simultaneous(disks);
  ASSERT_TRUE(ap.terminated()) << ap.message;
  expectNear(ap.v, Eigen::VectorXd::Zero(9), kReferenceTolerance);
}

}  // namespace
}  // namespace carom::core::routh
