// Engine policies and restitution: every policy returns a velocity with no approaching contact and
// no energy gain, on the examples and on random problems; restitution never gains energy and
// reduces to Newton's law for one frictionless contact.
#include <gtest/gtest.h>

#include "carom/core/routh/examples.h"
#include "carom/core/routh/restitution.h"
#include "core/routh/random_problems.h"

namespace carom::core::routh {
namespace {

std::vector<ImpactPolicy> allPolicies(const ImpactProblem& problem, double stepSize) {
  std::vector<ImpactPolicy> policies(4);
  policies[0].kind = PolicyKind::kSimultaneous;
  policies[1].kind = PolicyKind::kEqualRate;
  policies[2].kind = PolicyKind::kSequential;
  policies[3].kind = PolicyKind::kSampled;
  for (Eigen::Index i = problem.contacts() - 1; i >= 0; --i)
    policies[2].order.push_back(i);
  for (ImpactPolicy& policy : policies) {
    policy.stepSize = stepSize;
    policy.seed = 11;
  }
  return policies;
}

void expectSafe(const ImpactProblem& problem, const Eigen::VectorXd& vMinus,
                const Eigen::VectorXd& vPlus) {
  EXPECT_GE((problem.normalJacobian() * vPlus).minCoeff(), -1e-8);
  EXPECT_LE(problem.kineticEnergy(vPlus), problem.kineticEnergy(vMinus) * (1 + 1e-12));
}

TEST(RouthPolicy, EveryPolicyIsSafeOnExamplesAndRandomProblems) {
  std::vector<ImpactExample> cases = {rockingBlock(), compassGait(), boxAndWall(), diskStack()};
  test::Random random(99);
  for (int trial = 0; trial < 60; ++trial) {
    const auto [problem, v] = test::routh::randomImpact(random, 1 + trial % 4, trial % 2 ? 2 : 4);
    cases.push_back({problem, v, 0.2, 3});  // few steps: exercises the simultaneous completion
  }
  for (const ImpactExample& example : cases) {
    for (ImpactPolicy policy : allPolicies(example.problem, example.stepSize)) {
      policy.sim.maxSteps = example.maxSteps;
      const PolicyResult result = resolveImpact(example.problem, example.vMinus, policy);
      ASSERT_TRUE(result.outcome.terminated()) << result.message;
      expectSafe(example.problem, example.vMinus, result.outcome.v);
    }
  }
}

TEST(RouthPolicy, ExamplesGiveTheExpectedDeterministicOutcomes) {
  const ImpactExample block = rockingBlock();
  const auto policies = allPolicies(block.problem, block.stepSize);
  // Simultaneous and equal-rate: rest (digest §6.1, §7 item 17); sequential B then A: the lift
  // about B (digest §6.1).
  EXPECT_LE(resolveImpact(block.problem, block.vMinus, policies[0]).outcome.v.norm(), 1e-9);
  EXPECT_LE(resolveImpact(block.problem, block.vMinus, policies[1]).outcome.v.norm(), 1e-9);
  EXPECT_LE((resolveImpact(block.problem, block.vMinus, policies[2]).outcome.v -
             Eigen::Vector3d(-0.093018, 0.046509, 0.093018))
                .norm(),
            1e-6);
  // Sampled: reproducible for a seed.
  const PolicyResult a = resolveImpact(block.problem, block.vMinus, policies[3]);
  const PolicyResult b = resolveImpact(block.problem, block.vMinus, policies[3]);
  EXPECT_EQ(a.outcome.v, b.outcome.v);
}

TEST(RouthPolicy, StepLimitIsCompletedSimultaneouslyAndReported) {
  const ImpactExample block = rockingBlock();
  ImpactPolicy policy;
  policy.kind = PolicyKind::kEqualRate;
  policy.stepSize = 0.01;  // needs ≈ 0.85·v0/0.01/2 ≈ 19 steps
  policy.sim.maxSteps = 2;
  const PolicyResult result = resolveImpact(block.problem, block.vMinus, policy);
  EXPECT_TRUE(result.completedSimultaneously);
  EXPECT_NE(result.message.find("step limit"), std::string::npos) << result.message;
  ASSERT_TRUE(result.outcome.terminated());
  expectSafe(block.problem, block.vMinus, result.outcome.v);
}

TEST(RouthRestitution, NeverGainsEnergyAndNeverApproaches) {
  test::Random random(4242);
  for (int trial = 0; trial < 120; ++trial) {
    const auto [problem, v] = test::routh::randomImpact(random, 1 + trial % 4, trial % 2 ? 2 : 8);
    Eigen::VectorXd e(problem.contacts());
    for (Eigen::Index i = 0; i < e.size(); ++i)
      e(i) = random.uniform(0.0, 1.0);
    for (const ImpactPolicy& policy : allPolicies(problem, 0.3)) {
      const RestitutionResult result = resolveImpactWithRestitution(problem, v, policy, e);
      ASSERT_TRUE(result.compression.outcome.terminated()) << result.compression.message;
      EXPECT_GE(result.scale, 0.0);
      EXPECT_LE(result.scale, 1.0);
      expectSafe(problem, v, result.v);
    }
  }
}

// One frictionless contact: J_n v⁺ = −e J_n v⁻ (Newton), the guard inactive.
TEST(RouthRestitution, SingleFrictionlessContactIsNewton) {
  test::Random random(17);
  for (int trial = 0; trial < 30; ++trial) {
    const auto [random3, v] = test::routh::randomImpact(random, 1, 2);
    const ImpactProblem problem =
        ImpactProblem::planar(random3.massMatrix(), random3.normalJacobian(),
                              random3.tangentJacobian(), Eigen::VectorXd::Zero(1));
    const double e = random.uniform(0.0, 1.0);
    const RestitutionResult result =
        resolveImpactWithRestitution(problem, v, ImpactPolicy(), Eigen::VectorXd::Constant(1, e));
    EXPECT_DOUBLE_EQ(result.scale, 1.0);
    EXPECT_NEAR((problem.normalJacobian() * result.v)(0), e, 1e-12);  // J_n v⁻ = −1
  }
}

// The flat rocking block bounces straight up at e·v0 under the simultaneous policy.
TEST(RouthRestitution, RockingBlockBouncesFlat) {
  const ImpactExample block = rockingBlock();
  const RestitutionResult result = resolveImpactWithRestitution(
      block.problem, block.vMinus, ImpactPolicy(), Eigen::Vector2d::Constant(0.5));
  EXPECT_LE((result.v - Eigen::Vector3d(0.0, 0.5 * std::sqrt(2 * 9.81 * 0.01), 0.0)).norm(), 1e-12);
  test::expectErrorNaming(
      [&] {
        resolveImpactWithRestitution(block.problem, block.vMinus, ImpactPolicy(),
                                     Eigen::Vector2d(0.5, 1.5));
      },
      "restitution");
}

}  // namespace
}  // namespace carom::core::routh
