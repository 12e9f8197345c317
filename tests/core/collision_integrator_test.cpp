#include "carom/core/collision_integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "carom/core/tran_leok_cases.h"
#include "carom/error.h"

namespace carom::core {
namespace {

const double kG = 9.80665;

// A uniform ball of radius r dropped from rest: translation is exact under the LGVI, so the
// impact time √(2(z₀ − r)/g) and the impulse 2m√(2g(z₀ − r)) are analytic.
struct DroppedBall {
  double mass = 2.0, radius = 0.5, height = 3.0;
  MassProperties body = uniformEllipsoid(mass, Vec3::Constant(radius));
  CollisionIntegrator integrator{body, std::make_shared<Ellipsoid>(Vec3::Constant(radius)),
                                 Plane(Vec3::UnitZ()),
                                 ExternalLoad{Vec3(0, 0, -kG), Vec3::Zero(), Vec3::Zero()}};
  BodyState start{{0, 0, height}, Mat3::Identity(), Vec3::Zero(), Vec3::Zero()};
};

bool sameState(const BodyState& a, const BodyState& b) {
  return a.x == b.x && a.R == b.R && a.gamma == b.gamma && a.Pi == b.Pi;
}

TEST(CollisionIntegrator, LocatesAnAnalyticBounceAndReversesTheVelocity) {
  const DroppedBall ball;
  const double impactTime = std::sqrt(2.0 * (ball.height - ball.radius) / kG);
  const double impactSpeed = kG * impactTime;
  BodyState s = ball.start;
  std::vector<ImpactRecord> impacts;
  const double h = ball.integrator.settings().h;
  for (int k = 0; k < 300; ++k) {  // 3 s: two bounces (t* ≈ 0.714 s, 3t* ≈ 2.14 s)
    const StepReport report = ball.integrator.step(s, k * h);
    ASSERT_TRUE(report.ok()) << report.message;
    impacts.insert(impacts.end(), report.impacts.begin(), report.impacts.end());
    s = report.state;
  }
  ASSERT_GE(impacts.size(), 1u);
  EXPECT_NEAR(impacts[0].time, impactTime, 1e-12);
  EXPECT_NEAR(impacts[0].phiDotMinus, -impactSpeed, 1e-11);
  EXPECT_NEAR(impacts[0].lambda, 2.0 * ball.mass * impactSpeed, 1e-10);
  EXPECT_TRUE(impacts[0].applied);
  // The elastic ball returns to its release height with zero velocity at 2·t*.
  ASSERT_GE(impacts.size(), 2u);
  EXPECT_NEAR(impacts[1].time, 3.0 * impactTime, 1e-11);
  EXPECT_NEAR(energy(ball.body, s, Vec3(0, 0, -kG)).total(),
              energy(ball.body, ball.start, Vec3(0, 0, -kG)).total(), 1e-12);
}

TEST(CollisionIntegrator, AStepWithoutImpactIsOneFreeFlow) {
  const DroppedBall ball;
  const StepReport report = ball.integrator.step(ball.start, 0.0);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report.impacts.empty());
  const FlowResult free =
      flow(ball.body, ball.start, ball.integrator.settings().h, ball.integrator.load());
  EXPECT_TRUE(sameState(report.state, free.state));
}

TEST(CollisionIntegrator, ImpactStatesAreAdmissibleAndRecordsAreOrdered) {
  // Digest E8 on Case IV, whose 3rd and 4th impacts share one grid step.
  const TranLeokSetup setup = tranLeokSetup(TranLeokCase::kIV);
  const CollisionIntegrator integrator = tranLeokIntegrator(setup);
  BodyState s = setup.initial;
  int multiImpactSteps = 0;
  double lastTime = 0.0;
  for (int k = 0; k < 1000; ++k) {
    const StepReport report = integrator.step(s, k * 0.01);
    ASSERT_TRUE(report.ok()) << report.message;
    multiImpactSteps += report.impacts.size() > 1;
    for (const ImpactRecord& impact : report.impacts) {
      EXPECT_GE(impact.phi, 0.0);
      EXPECT_LE(impact.phi, 1e-14);
      EXPECT_GT(impact.time, lastTime);
      EXPECT_GE(impact.time, k * 0.01);
      EXPECT_LE(impact.time, (k + 1) * 0.01);
      EXPECT_GT(impact.lambda, 0.0);
      EXPECT_LT(impact.phiDotMinus, 0.0);
      lastTime = impact.time;
    }
    EXPECT_GE(integrator.gap(report.state).phi, 0.0);
    s = report.state;
  }
  EXPECT_GE(multiImpactSteps, 1);
}

// The state at the start of the grid step that holds Case IV's 3rd and 4th impacts (t ≈ 6.618 s,
// digest §6.4), and that step's index.
std::pair<BodyState, int> caseIVBeforeDoubleImpact(const CollisionIntegrator& integrator) {
  BodyState s = tranLeokSetup(TranLeokCase::kIV).initial;
  for (int k = 0; k < 1000; ++k) {
    const StepReport report = integrator.step(s, k * 0.01);
    if (report.impacts.size() == 2) return {s, k};
    s = report.state;
  }
  ADD_FAILURE() << "no double impact in Case IV's first 10 s";
  return {s, 1000};
}

TEST(CollisionIntegrator, ZenoGuardReportsAndLeavesTheStateUnchanged) {
  // Digest E13: the inner loop ends with a reported status, never a hang. A cap of one event per
  // step turns Case IV's double impact into a Zeno event.
  const TranLeokSetup setup = tranLeokSetup(TranLeokCase::kIV);
  const auto [before, k] = caseIVBeforeDoubleImpact(tranLeokIntegrator(setup));
  CollisionIntegratorSettings capped;
  capped.maxEventsPerStep = 1;
  const StepReport report = tranLeokIntegrator(setup, capped).step(before, k * 0.01);
  EXPECT_EQ(report.status, StepStatus::kZenoLimit);
  EXPECT_FALSE(report.ok());
  EXPECT_TRUE(sameState(report.state, before));
  EXPECT_EQ(report.impacts.size(), 1u);  // how far it got
  EXPECT_NE(report.message.find("1 impacts"), std::string::npos) << report.message;
}

// A ball spinning at 3/h rad/s, beyond one step's rotation solve (h|ω| ≤ 1 for J = jI): its flows
// are taken in sub-steps, and its bounce keeps the energy and its spin (a smooth impact on a ball
// through its centre exerts no torque).
TEST(CollisionIntegrator, ABallSpinningFasterThanOneStepCanTurnBouncesInSubsteps) {
  const DroppedBall ball;
  const double h = ball.integrator.settings().h;
  BodyState s = ball.start;
  const double j = ball.body.inertia()(0, 0);
  s.Pi = (3.0 / h) * j * Vec3(1, -2, 0.5).normalized();
  ASSERT_FALSE(flow(ball.body, s, h, ball.integrator.load()).ok());
  const Vec3 spin0 = s.R * s.Pi;
  const double e0 = energy(ball.body, s, Vec3(0, 0, -kG)).total();
  int impacts = 0;
  for (int k = 0; k < 100; ++k) {  // 1 s: one bounce at t* ≈ 0.714 s
    const StepReport report = ball.integrator.step(s, k * h);
    ASSERT_TRUE(report.ok()) << report.message;
    impacts += static_cast<int>(report.impacts.size());
    s = report.state;
  }
  EXPECT_EQ(impacts, 1);
  EXPECT_NEAR(energy(ball.body, s, Vec3(0, 0, -kG)).total(), e0, 1e-10 * e0);
  EXPECT_LE((s.R * s.Pi - spin0).norm(), 1e-10 * spin0.norm());
}

TEST(CollisionIntegrator, FailedSolvesAreReportedAndChangeNothing) {
  const DroppedBall ball;
  BodyState spinning = ball.start;
  spinning.Pi = Vec3(0.3, -0.2, 0.1);
  CollisionIntegratorSettings oneNewton;
  oneNewton.newton.maxIterations = 1;
  // An ellipsoid's inertia: a ball's (isotropic) rotation is solved in closed form, no Newton.
  const CollisionIntegrator newtonCapped(uniformEllipsoid(ball.body.mass(), {0.5, 0.6, 0.7}),
                                         std::make_shared<Ellipsoid>(Vec3(0.5, 0.6, 0.7)),
                                         Plane(Vec3::UnitZ()), ball.integrator.load(), oneNewton);
  const StepReport newton = newtonCapped.step(spinning, 0.0);
  EXPECT_EQ(newton.status, StepStatus::kNewtonFailed);
  EXPECT_TRUE(sameState(newton.state, spinning));

  CollisionIntegratorSettings fewProbes;
  fewProbes.root.maxIterations = 2;
  const CollisionIntegrator rootCapped(ball.body, std::make_shared<Ellipsoid>(Vec3::Constant(0.5)),
                                       Plane(Vec3::UnitZ()), ball.integrator.load(), fewProbes);
  BodyState falling = ball.start;
  falling.x.z() = 0.5 + 0.02;  // reaches the plane inside the first step
  falling.gamma.z() = -ball.mass * 3.0;
  const StepReport root = rootCapped.step(falling, 0.0);
  EXPECT_EQ(root.status, StepStatus::kLocalizationFailed);
  EXPECT_TRUE(sameState(root.state, falling));
  EXPECT_FALSE(root.message.empty());
}

TEST(CollisionIntegrator, RefusesBadConstructionAndBadStates) {
  const DroppedBall ball;
  const auto shape = std::make_shared<Ellipsoid>(Vec3::Constant(0.5));
  const Plane plane(Vec3::UnitZ());
  const ExternalLoad load = ball.integrator.load();
  EXPECT_THROW(CollisionIntegrator(ball.body, nullptr, plane, load), Error);
  for (double h : {0.0, -0.01, std::numeric_limits<double>::quiet_NaN(),
                   std::numeric_limits<double>::infinity()}) {
    CollisionIntegratorSettings settings;
    settings.h = h;
    EXPECT_THROW(CollisionIntegrator(ball.body, shape, plane, load, settings), Error) << h;
  }
  CollisionIntegratorSettings noEvents;
  noEvents.maxEventsPerStep = 0;
  EXPECT_THROW(CollisionIntegrator(ball.body, shape, plane, load, noEvents), Error);

  BodyState sunk = ball.start;
  sunk.x.z() = 0.4;  // the ball's lowest point is 0.1 m below the plane
  EXPECT_THROW(ball.integrator.step(sunk, 0.0), Error);
  BodyState nan = ball.start;
  nan.gamma.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(ball.integrator.step(nan, 0.0), Error);
}

}  // namespace
}  // namespace carom::core
