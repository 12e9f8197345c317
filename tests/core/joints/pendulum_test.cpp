// The simple pendulum in the constrained LGVI: a rod on a point-to-point joint to the world,
// released at rest from 90°, against the exact period of a physical pendulum,
//   T = 4 √(I_p / (m g d)) K(sin(θ0/2)),   I_p = J_xx + m d²  (pivot at distance d from the CoM).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/joints/scenes.h"

namespace carom::core::joints {
namespace {

using scenes::kGravity;
using scenes::kHalfLength;
using scenes::kPi;

constexpr double kAmplitude = kPi / 2;  // θ0, rad

// K(k) = π / (2 AGM(1, √(1 − k²))), the complete elliptic integral of the first kind.
double ellipticK(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  while (std::abs(a - b) > 1e-15 * a) {
    const double mean = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = mean;
  }
  return kPi / (2.0 * a);
}

double exactPeriod(const MassProperties& rod) {
  const double m = rod.mass(), d = kHalfLength;
  const double pivotInertia = rod.inertia()(0, 0) + m * d * d;
  return 4.0 * std::sqrt(pivotInertia / (m * kGravity * d)) * ellipticK(std::sin(kAmplitude / 2));
}

// The swing angle from the hanging position, about x: x = d (0, sin θ, −cos θ).
double swingAngle(const BodyState& state) {
  return std::atan2(state.x.y(), -state.x.z());
}

// The mean period over `periods` swings, from the times the rod passes the bottom moving in −θ
// (θ̈ = 0 there, so the secant's crossing time is O(h³) accurate).
double measuredPeriod(double h, int periods) {
  const scenes::Chain pendulum = scenes::rodChain(1, kAmplitude);
  std::vector<double> crossings;
  double previous = kAmplitude;
  std::vector<BodyState> states = pendulum.states;
  for (int k = 1; static_cast<int>(crossings.size()) <= periods; ++k) {
    const JointedFlowResult step =
        flow(pendulum.system, states, h, scenes::gravityLoads(pendulum.system));
    if (!step.ok()) {
      ADD_FAILURE() << "step " << k << ": " << toString(step.status);
      return NAN;
    }
    states = step.states;
    const double angle = swingAngle(states[0]);
    if (previous > 0.0 && angle <= 0.0) {
      crossings.push_back((k - 1) * h + h * previous / (previous - angle));
    }
    previous = angle;
  }
  return (crossings.back() - crossings.front()) / periods;
}

TEST(Pendulum, PeriodConvergesAtSecondOrderToTheEllipticIntegralPeriod) {
  const double exact = exactPeriod(scenes::rodChain(1, 0.0).system.bodies()[0]);  // 1.93372 s
  const double coarse = measuredPeriod(4e-3, 4) - exact;
  const double middle = measuredPeriod(2e-3, 4) - exact;
  const double fine = measuredPeriod(1e-3, 4) - exact;
  // Measured: errors −6.50e-5, −1.62e-5, −4.06e-6 s (3.4e-5 relative at h = 4 ms); the ratios of
  // successive errors 4.0002 and 3.9999.
  EXPECT_LT(std::abs(coarse), 4e-5 * exact);
  EXPECT_NEAR(coarse / middle, 4.0, 0.05);
  EXPECT_NEAR(middle / fine, 4.0, 0.05);
}

TEST(Pendulum, EnergyErrorIsBoundedSecondOrderAndJointHeldToRoundOffOver1e5Steps) {
  const scenes::Chain pendulum = scenes::rodChain(1, kAmplitude);
  const std::vector<ExternalLoad> loads = scenes::gravityLoads(pendulum.system);
  const double E0 = scenes::totalEnergy(pendulum.system, pendulum.states);
  // 1000 steps of 5 ms are 2.6 periods: each window sees the error's whole oscillation.
  constexpr double h = 5e-3;
  constexpr int kSteps = 100000, kWindow = 1000;
  double firstEnergy = 0.0, lastEnergy = 0.0, lastJoint = 0.0, maxJoint = 0.0;
  scenes::run(pendulum.system, pendulum.states, h, kSteps, loads,
              [&](int k, const std::vector<BodyState>& states) {
                const double energyError =
                    std::abs(scenes::totalEnergy(pendulum.system, states) - E0);
                const double jointError = scenes::constraintError(pendulum.system, states);
                maxJoint = std::max(maxJoint, jointError);
                if (k <= kWindow) {
                  firstEnergy = std::max(firstEnergy, energyError);
                } else if (k > kSteps - kWindow) {
                  lastEnergy = std::max(lastEnergy, energyError);
                  lastJoint = std::max(lastJoint, jointError);
                }
              });
  // Measured: the envelope 6.764e-4 J in both windows (1.4e-4 of m g d = 4.9 J; last/first 1.000);
  // the joint error 1.1e-16 m over the first window, 2.8e-15 m over the last, 9.7e-15 m at most:
  // each step's Newton solve stops below JointSettings' 1e-14 m, so the error cannot grow.
  EXPECT_GT(firstEnergy, 0.0);
  EXPECT_LE(lastEnergy, 1.1 * firstEnergy);
  EXPECT_LE(firstEnergy, 1e-3);
  EXPECT_LE(maxJoint, 1e-14);
  EXPECT_LE(lastJoint, 1e-14);

  // Second order: halving h quarters the envelope over the same 5 s.
  double halfStep = 0.0;
  scenes::run(pendulum.system, pendulum.states, h / 2, 2 * kWindow, loads,
              [&](int, const std::vector<BodyState>& states) {
                halfStep =
                    std::max(halfStep, std::abs(scenes::totalEnergy(pendulum.system, states) - E0));
              });
  // Measured: 1.691e-4 J, a ratio of 4.0002.
  EXPECT_NEAR(firstEnergy / halfStep, 4.0, 0.05);
}

}  // namespace
}  // namespace carom::core::joints
