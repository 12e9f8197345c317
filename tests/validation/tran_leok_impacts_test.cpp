// Tran & Leok §6: the deterministic early impacts (digest §6.4 regression values), the second-order
// convergence of the first impact time in h (digest E9), and the sensitivity experiment of
// Fig. 9/10 (digest E12).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "carom/core/lie.h"
#include "carom/core/tran_leok_cases.h"

namespace carom::core {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The first `count` impacts of a case (or fewer if `steps` grid steps hold fewer).
std::vector<ImpactRecord> firstImpacts(const TranLeokSetup& setup, std::size_t count, double h,
                                       int steps) {
  CollisionIntegratorSettings settings;
  settings.h = h;
  const CollisionIntegrator integrator = tranLeokIntegrator(setup, settings);
  BodyState s = setup.initial;
  std::vector<ImpactRecord> impacts;
  for (int k = 0; k < steps && impacts.size() < count; ++k) {
    const StepReport report = integrator.step(s, k * h);
    EXPECT_TRUE(report.ok()) << report.message;
    if (!report.ok()) break;
    impacts.insert(impacts.end(), report.impacts.begin(), report.impacts.end());
    s = report.state;
  }
  impacts.resize(std::min(impacts.size(), count));
  return impacts;
}

struct Regression {
  TranLeokCase which;
  std::size_t index;  // 0-based impact number
  double time;        // s, to 1e-12 in the digest
  double lambda;      // N s, 6 decimals in the digest; NaN where the digest gives none
};

TEST(TranLeokImpacts, EarlyImpactsMatchTheRegressionValuesOfTheDigest) {
  const double none = std::nan("");
  const Regression table[] = {
      {TranLeokCase::kI, 0, 2.649128901521, 27.584370},
      {TranLeokCase::kI, 1, 4.893938255328, none},
      {TranLeokCase::kI, 2, 5.350135680897, none},
      {TranLeokCase::kII, 0, 2.639194210347, 28.728362},
      {TranLeokCase::kIII, 0, 2.009288622469, 6.907593},
      {TranLeokCase::kIV, 0, 2.608788264913, 20.556559},
      {TranLeokCase::kIV, 2, 6.618368317603, none},
      {TranLeokCase::kIV, 3, 6.619415679625, none},  // 1 ms after the 3rd, in the same step
  };
  for (const Regression& r : table) {
    const TranLeokSetup setup = tranLeokSetup(r.which);
    const auto impacts = firstImpacts(setup, r.index + 1, 0.01, 1000);
    ASSERT_EQ(impacts.size(), r.index + 1) << setup.name;
    const ImpactRecord& impact = impacts[r.index];
    EXPECT_NEAR(impact.time, r.time, 1e-9) << setup.name << " impact " << r.index + 1;
    if (!std::isnan(r.lambda)) {
      EXPECT_NEAR(impact.lambda, r.lambda, 1e-6) << setup.name;
    }
  }
  // Case I's first impact in full: α and Φ̇⁻ as well.
  const ImpactRecord first = firstImpacts(tranLeokSetup(TranLeokCase::kI), 1, 0.01, 1000)[0];
  EXPECT_NEAR(first.fraction, 0.912890152129, 1e-9);
  EXPECT_NEAR(first.phiDotMinus, -16.447035, 1e-6);
}

TEST(TranLeokImpacts, FirstImpactTimeConvergesAtSecondOrderInH) {
  // Digest E9: t₁(h) − t₁* ≈ C h² with t₁* = 2.6491323432 (Richardson) and C ≈ −0.034, and the
  // digest's values for each h to 1e-9.
  const TranLeokSetup setup = tranLeokSetup(TranLeokCase::kI);
  const double steps[] = {0.04, 0.02, 0.01, 0.005, 0.0025, 0.00125};
  const double digest[] = {2.649074852, 2.649118478, 2.649128902,
                           2.649131485, 2.649132129, 2.649132290};
  std::vector<double> times;
  for (int i = 0; i < 6; ++i) {
    const double h = steps[i];
    const auto impacts = firstImpacts(setup, 1, h, static_cast<int>(3.0 / h));
    ASSERT_EQ(impacts.size(), 1u);
    times.push_back(impacts[0].time);
    EXPECT_NEAR(impacts[0].time, digest[i], 1e-9) << "h = " << h;
    const double c = (impacts[0].time - 2.6491323432) / (h * h);
    EXPECT_NEAR(c, -0.034, 0.003) << "h = " << h;
  }
  for (int i = 0; i + 2 < 6; ++i) {
    const double ratio = (times[i + 1] - times[i]) / (times[i + 2] - times[i + 1]);
    EXPECT_NEAR(ratio, 4.0, 0.3) << "h = " << steps[i];
  }
}

// Err_per(t) = ‖x_per − x‖₂ + ‖R_per − R‖₂ (induced 2-norm), Tran & Leok §7.4.
double perturbationError(const BodyState& a, const BodyState& b) {
  const Eigen::JacobiSVD<Mat3> svd(a.R - b.R);
  return (a.x - b.x).norm() + svd.singularValues()(0);
}

// Err at the grid step of each impact of the unperturbed run, for the first `impacts` impacts.
std::vector<double> errorAtImpacts(const BodyState& perturbed, std::size_t impacts) {
  const TranLeokSetup setup = tranLeokSetup(TranLeokCase::kIV);
  const CollisionIntegrator integrator = tranLeokIntegrator(setup);
  BodyState a = setup.initial, b = perturbed;
  std::vector<double> errors;
  for (int k = 0; k < 10000 && errors.size() < impacts; ++k) {
    const StepReport ra = integrator.step(a, k * 0.01);
    const StepReport rb = integrator.step(b, k * 0.01);
    EXPECT_TRUE(ra.ok() && rb.ok());
    a = ra.state;
    b = rb.state;
    for (std::size_t i = 0; i < ra.impacts.size(); ++i)
      errors.push_back(perturbationError(a, b));
  }
  return errors;
}

TEST(TranLeokImpacts, PerturbedCubesAgreeThroughTheFirstImpactsThenDiverge) {
  // Fig. 9/10: position δx = (0, 0, 1e-8) and attitude R_y(θ), θ = 1e-6° (Err_att(0) ≈ 1.75e-8,
  // digest §6.2). Digest §6.4: Err grows ~×10 per impact, 1e-3 around impacts 7–8, O(1) by 12.
  const BodyState start = tranLeokSetup(TranLeokCase::kIV).initial;
  BodyState shifted = start;
  shifted.x.z() += 1e-8;
  BodyState turned = start;
  turned.R = expSO3(Vec3(0, 1e-6 * kPi / 180.0, 0));
  EXPECT_NEAR(perturbationError(start, shifted), 1e-8, 1e-15);
  EXPECT_NEAR(perturbationError(start, turned), 1.745e-8, 1e-11);
  for (const BodyState& perturbed : {shifted, turned}) {
    const std::vector<double> err = errorAtImpacts(perturbed, 14);
    ASSERT_EQ(err.size(), 14u);
    for (int i = 0; i < 3; ++i)
      EXPECT_LT(err[i], 1e-5) << "impact " << i + 1;                 // still together
    EXPECT_GT(*std::max_element(err.begin() + 9, err.end()), 1e-2);  // apart by impacts 10–14
  }
}

}  // namespace
}  // namespace carom::core
