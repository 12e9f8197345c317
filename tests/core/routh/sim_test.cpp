// Algorithm 1 on single impacts: one contact equals Routh's model (digest §7 items 13–14) with an
// error that shrinks with the step, homogeneity in the incoming velocity (Lemma 11, item 11), and
// bad input.
#include <gtest/gtest.h>

#include <vector>

#include "carom/core/routh/examples.h"
#include "carom/core/routh/sim.h"
#include "core/routh/random_problems.h"
#include "core/routh/routh_shadow.h"

namespace carom::core::routh {
namespace {

using test::Random;

// Discrete Algorithm 1 with equal caps h on a single contact (deterministic: one contact).
Eigen::VectorXd discreteRouth(const ImpactProblem& problem, const Eigen::VectorXd& v, double h) {
  EqualCaps caps(h);
  SimOptions options;
  options.maxSteps = 100000;
  const ImpactOutcome outcome = simulate(problem, v, caps, 1, options);
  EXPECT_TRUE(outcome.terminated()) << outcome.message;
  return outcome.v;
}

struct SingleContact {
  ImpactProblem problem;
  Eigen::VectorXd v;
  test::routh::RouthShadow exact;
};

// Random planar single contacts, normalized so that J_n v⁻ = −1 (digest §7 item 13).
std::vector<SingleContact> singleContacts(int count) {
  Random random(1337);
  std::vector<SingleContact> cases;
  for (int i = 0; i < count; ++i) {
    const auto [problem, v] = test::routh::randomImpact(random, 1, 2);
    const auto exact = test::routh::exactRouth(problem.massMatrix(), problem.normalJacobian(),
                                               problem.tangentJacobian(), problem.friction()(0), v);
    cases.push_back({problem, v, exact});
  }
  return cases;
}

TEST(RouthSim, SingleContactWithoutModeChangeIsExactRouthForAnyStep) {
  int checked = 0;
  for (const SingleContact& c : singleContacts(40)) {
    if (c.exact.modeChanged) continue;
    ++checked;
    EXPECT_LE((discreteRouth(c.problem, c.v, 0.3) - c.exact.v).norm(), 1e-10 * c.v.norm());
  }
  EXPECT_GE(checked, 5);  // the sample holds enough single-mode impacts to mean something
}

TEST(RouthSim, SingleContactErrorShrinksWithTheStep) {
  const std::vector<double> steps = {0.1, 0.01, 0.001};
  std::vector<double> worst(steps.size(), 0.0);
  int changed = 0;
  for (const SingleContact& c : singleContacts(40)) {
    if (!c.exact.modeChanged) continue;
    ++changed;
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const double error =
          (discreteRouth(c.problem, c.v, steps[s]) - c.exact.v).norm() / c.v.norm();
      worst[s] = std::max(worst[s], error);
    }
  }
  ASSERT_GE(changed, 5);
  // First order in h (digest §7 item 13 saw 0.020 at h = 0.1 and 1.2e-4 at 0.001 on its cases;
  // these cases give about 0.33·h): error ≤ 0.5·h, and ten times smaller steps cut it ≥ 5×.
  for (std::size_t s = 0; s < steps.size(); ++s)
    EXPECT_LT(worst[s], 0.5 * steps[s]) << "h = " << steps[s];
  EXPECT_LT(worst[1], worst[0] / 5);
  EXPECT_LT(worst[2], worst[1] / 5);
}

// Lemma 11, discrete: the same draws with h and v⁻ both scaled by c give c times the outcome.
TEST(RouthSim, OutcomeScalesWithIncomingVelocity) {
  const double c = 3.7;
  for (const ImpactExample& example : {rockingBlock(), compassGait(), boxAndWall(), diskStack()}) {
    for (std::uint64_t sample = 0; sample < 20; ++sample) {
      const CapSampler base(CapDistribution::kUniform, example.stepSize, example.problem.contacts(),
                            example.maxSteps, 99);
      const CapSampler scaled(CapDistribution::kUniform, c * example.stepSize,
                              example.problem.contacts(), example.maxSteps, 99);
      SampledCaps baseCaps(base, sample), scaledCaps(scaled, sample);
      SimOptions options;
      options.maxSteps = example.maxSteps;
      const ImpactOutcome a = simulate(example.problem, example.vMinus, baseCaps, sample, options);
      const ImpactOutcome b =
          simulate(example.problem, c * example.vMinus, scaledCaps, sample, options);
      ASSERT_EQ(a.steps, b.steps);
      EXPECT_LE((b.v - c * a.v).norm(), 1e-12 * c * example.vMinus.norm());
    }
  }
}

TEST(RouthSim, BadInputNamesTheParameter) {
  const ImpactExample block = rockingBlock();
  UnboundedCaps caps;
  SimOptions options;
  options.maxSteps = 0;
  test::expectErrorNaming([&] { simulate(block.problem, block.vMinus, caps, 0, options); },
                          "maxSteps");
  options = SimOptions();
  options.terminationTolerance = -1.0;
  test::expectErrorNaming([&] { simulate(block.problem, block.vMinus, caps, 0, options); },
                          "terminationTolerance");
  test::expectErrorNaming(
      [&] { simulate(block.problem, Eigen::Vector3d(0, std::nan(""), 0), caps, 0); }, "velocity");
  test::expectErrorNaming([] { EqualCaps(0.0); }, "stepSize");
  test::expectErrorNaming([] { SequentialCaps({0, 2}, 2, 1e-8); }, "order");
  test::expectErrorNaming([] { CapSampler(CapDistribution::kUniform, 1.0, 2, 0, 1); }, "maxSteps");
}

}  // namespace
}  // namespace carom::core::routh
