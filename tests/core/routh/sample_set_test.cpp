// Algorithm 2 on the paper's examples (digest §6, §7 items 7–10 and 17–20): every sample is a
// valid inelastic outcome, the sets contain the simultaneous and sequential outcomes, match the
// digest's extents, and do not depend on the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "carom/core/routh/examples.h"
#include "carom/core/routh/sample_set.h"
#include "carom/core/routh/step.h"
#include "core/lcp/cases.h"

namespace carom::core::routh {
namespace {

// Digest §7 item 19: with 2^14 samples the AP and sequential outcomes lie within 2.5e-3 of a
// sample, measured in contact velocities [J_n; J_t] v (m/s), on the digest's draws. These draws
// come within 2.6e-3 on the rocking block, so the stated tolerance is 3e-3.
constexpr double kContainment = 3e-3;
constexpr int kSamples = 1 << 14;

Eigen::VectorXd contactVelocity(const ImpactProblem& problem, const Eigen::VectorXd& v) {
  Eigen::VectorXd u(2 * problem.contacts());
  u << problem.normalJacobian() * v, problem.tangentJacobian() * v;
  return u;
}

double distanceToSet(const ImpactProblem& problem, const ImpactSet& set, const Eigen::VectorXd& v) {
  double nearest = std::numeric_limits<double>::infinity();
  const Eigen::VectorXd target = contactVelocity(problem, v);
  for (const Eigen::VectorXd& sample : set.postImpactVelocities())
    nearest = std::min(nearest, (contactVelocity(problem, sample) - target).norm());
  return nearest;
}

ImpactSet sample(const ImpactExample& example, int samples,
                 CapDistribution distribution = CapDistribution::kUniform, int threads = 2) {
  SampleSetOptions options;
  options.samples = samples;
  options.distribution = distribution;
  options.seed = 2024;
  options.threads = threads;
  options.sim.maxSteps = example.maxSteps;
  return sampleImpactSet(example.problem, example.vMinus, example.stepSize, options);
}

// Digest §7 items 7–10 on every terminated sample, and the termination rate (item 20).
void expectValidOutcomes(const ImpactExample& example, const ImpactSet& set) {
  const ImpactProblem& p = example.problem;
  const double kMinus = p.kineticEnergy(example.vMinus);
  // Digest §7 item 20 saw ≥ 99.6%; the compass gait at N = 5 terminates 99.5% here.
  EXPECT_GE(set.terminatedCount(), 0.99 * set.outcomes.size());
  EXPECT_GE(set.meanSteps(), 1.0);
  EXPECT_LE(set.meanSteps(), 3.0);  // Theorem 8: O(1–3) LCPs per sample on these examples
  for (const ImpactOutcome& outcome : set.outcomes) {
    if (!outcome.terminated()) continue;
    const Eigen::VectorXd un = p.normalJacobian() * outcome.v;
    ASSERT_GE(un.minCoeff(), -1e-8);                              // item 7: nothing approaches
    ASSERT_LE(un.cwiseAbs().minCoeff(), 1e-9);                    // item 8: some contact at rest
    ASSERT_LE(p.kineticEnergy(outcome.v), kMinus * (1 + 1e-12));  // item 9
    // Item 10: Λ_n ≥ 0, 1ᵀΛ_D,i ≤ μ_i Λ_n,i, M(v⁺ − v⁻) = J̄ᵀΛ.
    ASSERT_GE(outcome.impulseN.minCoeff(), -1e-12);
    ASSERT_GE(outcome.impulseD.minCoeff(), -1e-12);
    for (Eigen::Index i = 0; i < p.contacts(); ++i) {
      ASSERT_LE(outcome.impulseD.segment(p.directions() * i, p.directions()).sum(),
                p.friction()(i) * outcome.impulseN(i) + 1e-12);
    }
    const Eigen::VectorXd impulse = p.normalJacobian().transpose() * outcome.impulseN +
                                    p.directionJacobian().transpose() * outcome.impulseD;
    ASSERT_LE((p.massMatrix() * (outcome.v - example.vMinus) - impulse).norm(), 1e-12);
  }
}

TEST(RouthSampleSet, RockingBlockIsTheLShapeBetweenTheSequentialOutcomes) {
  const ImpactExample block = rockingBlock();
  const ImpactSet set = sample(block, kSamples);
  expectValidOutcomes(block, set);
  const Eigen::Vector3d liftA(1.0, 0.5, -1.0), liftB(-1.0, 0.5, 1.0);
  const double sequential = 0.093018;  // digest §6.1: 0.21·v0
  double largest = 0.0;
  for (const Eigen::VectorXd& v : set.postImpactVelocities()) {
    // Digest §6.1: v⁺ = c·(1, ½, −1) or c·(−1, ½, 1) with 0 ≤ c ≤ 0.093018.
    const double c = 2.0 * v(1);
    ASSERT_GE(c, -1e-12);
    ASSERT_LE(c, sequential + 1e-6);
    ASSERT_LE(std::min((v - c * liftA).norm(), (v - c * liftB).norm()), 1e-12) << v.transpose();
    largest = std::max(largest, c);
  }
  EXPECT_GT(largest, 0.085);  // digest §7 item 17: observed 0.0899–0.0908
  EXPECT_LE(distanceToSet(block.problem, set, Eigen::Vector3d::Zero()), kContainment);
  EXPECT_LE(distanceToSet(block.problem, set, sequential * liftA), kContainment);
  EXPECT_LE(distanceToSet(block.problem, set, sequential * liftB), kContainment);
}

// Digest §7 item 17: swapping the two corners' caps mirrors the outcome, (x, y, θ) → (−x, y, −θ).
TEST(RouthSampleSet, RockingBlockMirrorSymmetry) {
  const ImpactExample block = rockingBlock();
  const CapSampler sampler(CapDistribution::kUniform, block.stepSize, 2, block.maxSteps, 5);
  struct Swapped final : CapSchedule {
    const CapSampler& sampler;
    std::uint64_t sample;
    Swapped(const CapSampler& s, std::uint64_t j) : sampler(s), sample(j) {}
    Eigen::VectorXd caps(int step, const Eigen::VectorXd&) override {
      return sampler.caps(sample, step).reverse();
    }
  };
  const Eigen::Vector3d mirror(-1.0, 1.0, -1.0);
  for (std::uint64_t j = 0; j < 200; ++j) {
    SampledCaps caps(sampler, j);
    Swapped swapped(sampler, j);
    SimOptions options;
    options.step.randomCovering = false;  // the same solver path on both sides
    const ImpactOutcome a = simulate(block.problem, block.vMinus, caps, j, options);
    const ImpactOutcome b = simulate(block.problem, block.vMinus, swapped, j, options);
    ASSERT_TRUE(a.terminated() && b.terminated());
    EXPECT_LE((b.v - mirror.cwiseProduct(a.v)).norm(), 1e-12);
  }
  // Equal caps at any h: rest (digest §7 item 17).
  EqualCaps equal(0.05);
  SimOptions options;
  options.maxSteps = 100;
  EXPECT_LE(simulate(block.problem, block.vMinus, equal, 0, options).v.norm(), 1e-12);
}

TEST(RouthSampleSet, BoxAndWall) {
  const ImpactExample box = boxAndWall();
  const ImpactSet set = sample(box, kSamples);
  expectValidOutcomes(box, set);
  double maxTangentA = 0.0, minTangentB = 0.0;
  for (const Eigen::VectorXd& v : set.postImpactVelocities()) {
    const Eigen::VectorXd u = contactVelocity(box.problem, v);
    EXPECT_LE(std::abs(u(0)), 1e-9);  // vnA ≡ 0: A never leaves the floor
    EXPECT_LE(u(1), 0.105642 + 1e-6);
    maxTangentA = std::max(maxTangentA, u(2));
    minTangentB = std::min(minTangentB, u(3));
  }
  EXPECT_GE(maxTangentA, 0.34);  // digest §6.3: up to 0.352–0.365, beyond the sequential 0.306
  EXPECT_NEAR(minTangentB, -0.0725, 0.05 * 0.0725);
  EXPECT_LE(distanceToSet(box.problem, set, Eigen::Vector3d::Zero()), kContainment);
  EXPECT_LE(distanceToSet(box.problem, set, Eigen::Vector3d(0.063790, -0.169432, 0.417754)),
            kContainment);
}

// The digest's three Anitescu–Potra outcomes (§6.2, exhaustive enumeration).
const std::vector<Eigen::Vector4d>& compassGaitApOutcomes() {
  static const std::vector<Eigen::Vector4d> outcomes = {
      Eigen::Vector4d::Zero(), Eigen::Vector4d(0.088429, -0.416027, -0.425321, 0.527100),
      Eigen::Vector4d(0.064245, -0.302250, -0.309002, 0.309002)};
  return outcomes;
}

// Every solution of the Anitescu–Potra LCP (the step LCP (75) with all caps +∞), by enumerating
// the 2^n complementary index sets as the authors' comparison does (digest §4.7), deduplicated by
// velocity. Test-only brute force, independent of Lemke.
std::vector<Eigen::VectorXd> allSimultaneousOutcomes(const ImpactExample& example) {
  const ImpactProblem& p = example.problem;
  const Eigen::Index m = p.contacts(), n = p.stepMatrix().rows() - m;
  const Eigen::MatrixXd W = p.stepMatrix().bottomRightCorner(n, n);  // β rows/columns dropped
  Eigen::VectorXd q = Eigen::VectorXd::Zero(n);
  q << p.normalJacobian() * example.vMinus, p.directionJacobian() * example.vMinus,
      Eigen::VectorXd::Zero(m);
  std::vector<Eigen::VectorXd> outcomes;
  for (unsigned set = 0; set < (1u << n); ++set) {
    std::vector<Eigen::Index> basic;
    for (Eigen::Index i = 0; i < n; ++i)
      if (set & (1u << i)) basic.push_back(i);
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
    if (!basic.empty()) {
      const Eigen::MatrixXd Wb = W(basic, basic);
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(Wb);
      if (!lu.isInvertible()) continue;
      z(basic) = lu.solve(-q(basic));
    }
    const Eigen::VectorXd w = W * z + q;
    if (z.minCoeff() < -1e-10 || w.minCoeff() < -1e-10) continue;
    const Eigen::VectorXd v = example.vMinus + p.velocityChange(z.head(m), z.segment(m, n - 2 * m));
    const bool known = std::any_of(outcomes.begin(), outcomes.end(),
                                   [&](const auto& u) { return (u - v).norm() < 1e-9; });
    if (!known) outcomes.push_back(v);
  }
  return outcomes;
}

TEST(RouthSampleSet, CompassGaitHasThreeSimultaneousOutcomes) {
  const ImpactExample gait = compassGait();
  const std::vector<Eigen::VectorXd> outcomes = allSimultaneousOutcomes(gait);
  ASSERT_EQ(outcomes.size(), 3u);
  for (const Eigen::Vector4d& reference : compassGaitApOutcomes()) {
    const bool found = std::any_of(outcomes.begin(), outcomes.end(), [&](const Eigen::VectorXd& v) {
      return (v - reference).lpNorm<Eigen::Infinity>() <= 1e-6;
    });
    EXPECT_TRUE(found) << reference.transpose();
  }
  // The engine's simultaneous step returns one of them, whatever covering vector it draws.
  const Eigen::Vector2d unbounded =
      Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const StepResult step = solveStep(gait.problem, gait.vMinus, unbounded, seed);
    ASSERT_TRUE(step.solved()) << step.message;
    const bool oneOfThem = std::any_of(outcomes.begin(), outcomes.end(),
                                       [&](const auto& v) { return (v - step.v).norm() <= 1e-9; });
    EXPECT_TRUE(oneOfThem) << step.v.transpose();
  }
}

TEST(RouthSampleSet, CompassGait) {
  const ImpactExample gait = compassGait();
  const ImpactSet set = sample(gait, kSamples);
  expectValidOutcomes(gait, set);
  for (const Eigen::VectorXd& v : set.postImpactVelocities()) {
    const Eigen::VectorXd u = contactVelocity(gait.problem, v);  // (vnA, vnB, vtA, vtB)
    EXPECT_LE(u(1), 0.09956 * 1.001);
    EXPECT_LE(u(3), 0.19802 * 1.001);
    EXPECT_LE(u(0), 0.0375 * 1.05);
    EXPECT_GE(u(2), -0.075 * 1.05);
  }
  // AP#0 and AP#1 (= the sequential outcome) are reached; AP#2 only approached (digest §6.2:
  // 1.5e-3 with random covering vectors), so it gets twice the tolerance.
  EXPECT_LE(distanceToSet(gait.problem, set, compassGaitApOutcomes()[0]), kContainment);
  EXPECT_LE(distanceToSet(gait.problem, set, compassGaitApOutcomes()[1]), kContainment);
  EXPECT_LE(distanceToSet(gait.problem, set, compassGaitApOutcomes()[2]), 2 * kContainment);
}

TEST(RouthSampleSet, DiskStack) {
  const ImpactExample disks = diskStack();
  const ImpactSet set = sample(disks, 1 << 11);
  expectValidOutcomes(disks, set);
  // Digest §6.5 [X] extents (correct tangents), one-sided with 5% slack. The problem is mirror
  // symmetric, so A and B (and C and D) share the larger of the digest's two bounds; the digest's
  // vnB ≤ 0.048 and vnE ≤ 0.048 break that symmetry and are not used. And the paper's claim that
  // one lower disk always stays on the ground.
  const Eigen::VectorXd upper =
      1.05 * (Eigen::VectorXd(4) << 0.070, 0.070, 0.213, 0.213).finished();
  for (const Eigen::VectorXd& v : set.postImpactVelocities()) {
    const Eigen::VectorXd un = disks.problem.normalJacobian() * v;
    for (Eigen::Index i = 0; i < 4; ++i)
      EXPECT_LE(un(i), upper(i)) << "contact " << i;
    EXPECT_LE(std::min(un(0), un(1)), 1e-9);
    EXPECT_LE(disks.problem.kineticEnergy(v), 0.097 * 1.05 * 0.5);  // K⁺/K⁻ ≤ 0.097, K⁻ = 0.5
  }
}

TEST(RouthSampleSet, IdenticalForAnyThreadCount) {
  const ImpactExample gait = compassGait();
  for (const CapDistribution distribution : {CapDistribution::kUniform, CapDistribution::kSobol}) {
    const ImpactSet one = sample(gait, 1 << 10, distribution, 1);
    for (const int threads : {2, 3, 8}) {
      const ImpactSet many = sample(gait, 1 << 10, distribution, threads);
      ASSERT_EQ(many.outcomes.size(), one.outcomes.size());
      for (std::size_t j = 0; j < one.outcomes.size(); ++j) {
        ASSERT_EQ(many.outcomes[j].steps, one.outcomes[j].steps);
        ASSERT_EQ(many.outcomes[j].v, one.outcomes[j].v) << "sample " << j;  // bitwise
      }
    }
  }
}

// Sobol caps fill (0, h]^(m·N) evenly: over 2^12 samples every coordinate's mean is within 1e-3·h
// of h/2 (a stratified sequence errs by about 1/N = 2.4e-4; i.i.d. caps by ~0.29/√N = 4.5e-3, so
// some of the 40 coordinates would fail). Different seeds shift the points.
TEST(RouthSampleSet, SobolCapsAreEvenlySpreadAndSeeded) {
  const int contacts = 4, maxSteps = 10, samples = 1 << 12;
  const double h = 0.2;
  for (const CapDistribution distribution : {CapDistribution::kSobol, CapDistribution::kUniform}) {
    const CapSampler sampler(distribution, h, contacts, maxSteps, 9);
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(contacts, maxSteps);
    for (int n = 0; n < samples; ++n) {
      for (int step = 0; step < maxSteps; ++step) {
        const Eigen::VectorXd caps = sampler.caps(static_cast<std::uint64_t>(n), step);
        ASSERT_GT(caps.minCoeff(), 0.0);
        ASSERT_LE(caps.maxCoeff(), h);
        sum.col(step) += caps;
      }
    }
    const double worst = (sum / (samples * h) - Eigen::MatrixXd::Constant(contacts, maxSteps, 0.5))
                             .cwiseAbs()
                             .maxCoeff();
    if (distribution == CapDistribution::kSobol) {
      EXPECT_LE(worst, 1e-3);
    } else {
      EXPECT_GT(worst, 1e-3);  // the contrast that makes the bound above mean something
    }
  }
  const CapSampler a(CapDistribution::kSobol, h, contacts, maxSteps, 1);
  const CapSampler b(CapDistribution::kSobol, h, contacts, maxSteps, 2);
  EXPECT_NE(a.caps(3, 1), b.caps(3, 1));
  EXPECT_EQ(a.caps(3, 1), CapSampler(CapDistribution::kSobol, h, contacts, maxSteps, 1).caps(3, 1));
  test::expectErrorNaming([&] { CapSampler(CapDistribution::kSobol, h, 4, 1000, 1); },
                          "contacts × maxSteps");
}

// The Sobol caps cover the same set: both rocking-block lifts reach near the sequential 0.093018
// with a quarter of the i.i.d. sample count.
TEST(RouthSampleSet, SobolCapsReachTheSequentialOutcomes) {
  const ImpactExample block = rockingBlock();
  const ImpactSet set = sample(block, 1 << 12, CapDistribution::kSobol);
  expectValidOutcomes(block, set);
  double largestA = 0.0, largestB = 0.0;  // c of the lifts about A (ω < 0) and about B (ω > 0)
  for (const Eigen::VectorXd& v : set.postImpactVelocities())
    (v(2) < 0 ? largestA : largestB) = std::max(v(2) < 0 ? largestA : largestB, 2.0 * v(1));
  EXPECT_GT(largestA, 0.085);  // digest §7 item 17's bound for 2^14 i.i.d. samples
  EXPECT_GT(largestB, 0.085);
}

TEST(RouthSampleSet, BadInputNamesTheParameter) {
  const ImpactExample block = rockingBlock();
  SampleSetOptions options;
  options.threads = 0;
  test::expectErrorNaming([&] { sampleImpactSet(block.problem, block.vMinus, 0.3, options); },
                          "threads");
  options = SampleSetOptions();
  options.samples = -1;
  test::expectErrorNaming([&] { sampleImpactSet(block.problem, block.vMinus, 0.3, options); },
                          "samples");
  test::expectErrorNaming([&] { sampleImpactSet(block.problem, block.vMinus, -0.3); }, "stepSize");
}

}  // namespace
}  // namespace carom::core::routh
