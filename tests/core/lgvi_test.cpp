#include "carom/core/lgvi.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>

#include "carom/core/lie.h"
#include "carom/error.h"
#include "support/random.h"

namespace carom::core {
namespace {

double maxAbs(const Mat3& m) {
  return m.cwiseAbs().maxCoeff();
}

// Tolerances follow digest §7.1 (A, B) with ×10 safety.

TEST(RotationSolve, BothChartsSolveTheImplicitEquationToRoundOff) {
  test::Random random(20);
  for (int i = 0; i < 500; ++i) {
    const MassProperties body = random.body();
    const double smallest = body.inertia().eigenvalues().real().minCoeff();
    const Vec3 g = random.uniform(0.0, 0.5 * smallest) * random.unitVector();
    const RotationSolution cay = solveRotation(body, g, {RotationChart::kCayley});
    const RotationSolution exp = solveRotation(body, g, {RotationChart::kExponential});
    ASSERT_EQ(cay.status, SolveStatus::kConverged);
    ASSERT_EQ(exp.status, SolveStatus::kConverged);
    const Mat3& Jd = body.nonStandardInertia();
    EXPECT_LE(maxAbs(cay.F * Jd - Jd * cay.F.transpose() - hat(g)),
              1e-14 * std::max(1.0, g.norm()));
    EXPECT_LE(cay.residual, 1e-14 * std::max(1.0, g.norm()));
    EXPECT_LE(orthogonalityError(cay.F), 1e-14);
    EXPECT_NEAR(cay.F.determinant(), 1.0, 1e-14);
    EXPECT_LE(maxAbs(cay.F - exp.F), 1e-13);  // digest A2: the chart changes only the iteration
  }
}

TEST(RotationSolve, WithoutItsResidualSolvesToTheSameRotation) {
  // NewtonSettings::residual only skips the residual's computation: the same F and iterations.
  test::Random random(22);
  NewtonSettings quiet;
  quiet.residual = false;
  for (int i = 0; i < 200; ++i) {
    const MassProperties body = i % 4 == 0 ? uniformEllipsoid(2.0, {0.3, 0.3, 0.3}) : random.body();
    const double smallest = body.inertia().eigenvalues().real().minCoeff();
    const Vec3 g = random.uniform(0.0, 0.5 * smallest) * random.unitVector();
    const RotationSolution full = solveRotation(body, g), bare = solveRotation(body, g, quiet);
    ASSERT_EQ(bare.status, SolveStatus::kConverged);
    EXPECT_EQ(bare.F, full.F);
    EXPECT_EQ(bare.iterations, full.iterations);
    EXPECT_EQ(bare.residual, 0.0);
  }
}

TEST(RotationSolve, TakesFewIterationsAtSmallSteps) {
  // h‖Π‖/‖J‖ ≈ 0.01 (digest A2): at most 5 Newton iterations.
  const MassProperties body = uniformEllipsoid(1.0, {2, 3, 4});
  const Vec3 g = 0.01 * Vec3(4, -4, 4);
  for (RotationChart chart : {RotationChart::kCayley, RotationChart::kExponential}) {
    const RotationSolution s = solveRotation(body, g, {chart});
    EXPECT_EQ(s.status, SolveStatus::kConverged);
    EXPECT_LE(s.iterations, 5);
  }
}

TEST(RotationSolve, StopsWhereTheNextUpdateWouldBeWithinTheTolerance) {
  // The solve continued to the iteration cap (a tolerance no update meets) is converged to
  // round-off; stopped where the quadratic estimate puts the next update within a tenth of 1e-15,
  // F is the same to a few 1e-15, one update sooner than the update-size rule alone (three at
  // this g).
  NewtonSettings continued;
  continued.tolerance = 1e-300;
  continued.maxIterations = 8;
  test::Random random(21);
  for (int i = 0; i < 500; ++i) {
    const MassProperties body = random.body();
    const double smallest = body.inertia().eigenvalues().real().minCoeff();
    const Vec3 g = random.uniform(0.0, 0.5 * smallest) * random.unitVector();
    for (RotationChart chart : {RotationChart::kCayley, RotationChart::kExponential}) {
      continued.chart = chart;
      const RotationSolution s = solveRotation(body, g, {chart});
      ASSERT_EQ(s.status, SolveStatus::kConverged);
      EXPECT_LE(maxAbs(s.F - solveRotation(body, g, continued).F), 4e-15);
    }
  }
  const MassProperties box = uniformEllipsoid(1.0, {2, 3, 4});
  EXPECT_EQ(solveRotation(box, 0.01 * Vec3(4, -4, 4)).iterations, 2);
}

TEST(RotationSolve, SmallImpulseLimitIsTheLinearisedRotation) {
  // Digest A3: F ≈ I + S(J⁻¹g) + O(g²).
  const MassProperties body = uniformEllipsoid(1.0, {2, 3, 4});
  for (double scale : {1e-3, 1e-4, 1e-5}) {
    const Vec3 g = scale * Vec3(1, 2, -1);
    const RotationSolution s = solveRotation(body, g);
    const Mat3 linear = Mat3::Identity() + hat(body.inverseInertia() * g);
    EXPECT_LE(maxAbs(s.F - linear), 10.0 * scale * scale);
  }
  EXPECT_EQ(solveRotation(body, Vec3::Zero()).F, Mat3::Identity());
}

TEST(RotationSolve, ReportsTheIterationCapInsteadOfAcceptingAnUnconvergedRotation) {
  const MassProperties body = uniformEllipsoid(1.0, {2, 3, 4});
  NewtonSettings oneIteration;
  oneIteration.maxIterations = 1;
  const RotationSolution s = solveRotation(body, Vec3(1.0, -0.5, 0.7), oneIteration);
  EXPECT_EQ(s.status, SolveStatus::kIterationLimit);
  EXPECT_GT(s.residual, 1e-10);
  const FlowResult step =
      flow(body, BodyState{{0, 0, 0}, Mat3::Identity(), {1, 0, 0}, {100, -50, 70}}, 0.01, {},
           oneIteration);
  EXPECT_FALSE(step.ok());
  EXPECT_EQ(step.state.x, Vec3::Zero());  // a failed step changes nothing
  EXPECT_EQ(step.state.R, Mat3::Identity());
}

TEST(RotationSolve, IsotropicBodyTurnsAboutTheImpulseByTheAnalyticAngle) {
  // J = jI (a uniform sphere): (D.1) reads j sin θ S(û) = S(g), so F is the rotation by
  // θ = asin(|g|/j) about ĝ, up to the chart's limit |g| = j.
  const MassProperties ball = uniformEllipsoid(2.0, {0.3, 0.3, 0.3});
  ASSERT_TRUE(ball.isotropic());
  const double j = ball.inertia()(0, 0);
  test::Random random(21);
  for (int i = 0; i < 200; ++i) {
    const Vec3 g = random.uniform(0.0, 0.999 * j) * random.unitVector();
    const Mat3 analytic = Eigen::AngleAxisd(std::asin(g.norm() / j), g.normalized()).matrix();
    for (RotationChart chart : {RotationChart::kCayley, RotationChart::kExponential}) {
      const RotationSolution s = solveRotation(ball, g, {chart});
      ASSERT_EQ(s.status, SolveStatus::kConverged);
      EXPECT_EQ(s.iterations, 0);  // no Newton iteration
      EXPECT_LE(maxAbs(s.F - analytic), 1e-14);
      EXPECT_LE(s.residual, 1e-14 * std::max(1.0, g.norm()));
    }
  }
  EXPECT_EQ(solveRotation(ball, Vec3::Zero()).F, Mat3::Identity());
  // A body a hair off isotropic takes the Newton iteration to the same rotation.
  Mat3 nearly = ball.inertia();
  nearly(2, 2) *= 1 + 1e-9;
  const MassProperties offBall = MassProperties::create(2.0, nearly);
  ASSERT_FALSE(offBall.isotropic());
  const Vec3 g = 0.3 * j * Vec3(1, -2, 0.5).normalized();
  const RotationSolution newton = solveRotation(offBall, g);
  ASSERT_EQ(newton.status, SolveStatus::kConverged);
  EXPECT_GT(newton.iterations, 0);
  EXPECT_LE(maxAbs(newton.F - solveRotation(ball, g).F), 1e-8);
  // Beyond |g| = j no rotation solves (D.1): reported, not accepted.
  EXPECT_NE(solveRotation(ball, Vec3(1.01 * j, 0, 0)).status, SolveStatus::kConverged);
}

TEST(RotationSolve, SensitivityIsTheDerivativeOfTheSolution) {
  // Central differences of F(g) in the body frame of F: ξ_k ≈ log(F(g)ᵀF(g + εe_k))/ε, error O(ε²).
  test::Random random(21);
  for (int i = 0; i < 20; ++i) {
    const MassProperties body = random.body();
    const double smallest = body.inertia().eigenvalues().real().minCoeff();
    const Vec3 g = random.uniform(0.0, 0.5 * smallest) * random.unitVector();
    const Mat3 F = solveRotation(body, g).F;
    const double epsilon = 1e-6;
    Mat3 difference;
    for (int k = 0; k < 3; ++k) {
      const Vec3 step = epsilon * Vec3::Unit(k);
      const Mat3 plus = solveRotation(body, g + step).F, minus = solveRotation(body, g - step).F;
      difference.col(k) = logSO3(minus.transpose() * plus) / (2.0 * epsilon);
    }
    EXPECT_LE(maxAbs(rotationSensitivity(body, F) - difference), 1e-8 * maxAbs(difference));
  }
  const MassProperties body = uniformEllipsoid(1.0, {2, 3, 4});
  EXPECT_LE(maxAbs(rotationSensitivity(body, Mat3::Identity()) - body.inverseInertia()), 1e-15);
}

TEST(RotationSolve, RefusesBadInput) {
  const MassProperties body = uniformEllipsoid(1.0, {2, 3, 4});
  EXPECT_THROW(solveRotation(body, Vec3(std::nan(""), 0, 0)), Error);
  NewtonSettings bad;
  bad.tolerance = 0.0;
  EXPECT_THROW(solveRotation(body, Vec3(0.01, 0, 0), bad), Error);
  bad = NewtonSettings{};
  bad.maxIterations = 0;
  EXPECT_THROW(solveRotation(body, Vec3(0.01, 0, 0), bad), Error);
  EXPECT_THROW(flow(body, BodyState{}, std::numeric_limits<double>::infinity(), {}), Error);
  ExternalLoad load;
  load.torque.x() = std::nan("");
  EXPECT_THROW(flow(body, BodyState{}, 0.01, load), Error);
}

BodyState paperInitialState() {
  // Tran & Leok §6.1: x₀ = (0,0,10), γ₀ = (2,2,10), Π₀ = (4,−4,4), R₀ = I.
  return {{0, 0, 10}, Mat3::Identity(), {2, 2, 10}, {4, -4, 4}};
}

const Vec3 kGravity(0, 0, -9.80665);

TEST(FreeFlight, ConservesEnergyAndMomentaToRoundOffOver1e5Steps) {
  test::Random random(21);
  const MassProperties body = MassProperties::create(1.3, random.inertia());  // non-diagonal J
  BodyState s = paperInitialState();
  s.R = random.rotation();
  const ExternalLoad load{kGravity, Vec3::Zero(), Vec3::Zero()};
  const double rot0 = energy(body, s, kGravity).rotational;
  const Vec3 spin0 = s.R * s.Pi;  // spatial angular momentum about the centre of mass
  const double h = 0.01;
  double maxEnergyError = 0.0, maxRotError = 0.0, maxSpinError = 0.0;
  for (int k = 1; k <= 100000; ++k) {
    const FlowResult r = flow(body, s, h, load);
    ASSERT_TRUE(r.ok()) << k;
    s = r.state;
    if (k % 100 == 0) {
      const Energy e = energy(body, s, kGravity);
      maxRotError = std::max(maxRotError, std::abs(e.rotational - rot0) / rot0);
      maxSpinError = std::max(maxSpinError, (s.R * s.Pi - spin0).norm() / spin0.norm());
      // Translational + potential energy is exact up to the round-off of the falling height:
      // compare it with the scale of its two terms, which grow to ~1e7 J over 1000 s.
      const double scale = std::abs(e.translational) + std::abs(e.potential);
      const double t = k * h;
      const Vec3 x = Vec3(0, 0, 10) + t * Vec3(2, 2, 10) / 1.3 + 0.5 * t * t * kGravity;
      const Vec3 gamma = Vec3(2, 2, 10) + 1.3 * t * kGravity;
      const Energy parabola = energy(body, {x, s.R, gamma, s.Pi}, kGravity);
      maxEnergyError = std::max(maxEnergyError, std::abs(e.total() - parabola.total()) / scale);
    }
  }
  // Digest B2: ≤ 1e-11 relative over 1e5 steps (round-off random walk).
  EXPECT_LE(maxRotError, 1e-11);
  EXPECT_LE(maxSpinError, 1e-11);
  EXPECT_LE(maxEnergyError, 1e-11);
  EXPECT_LE(orthogonalityError(s.R), 1e-11);  // B3, without re-orthonormalisation
  // B1: the translation is the exact parabola; horizontal momentum is untouched.
  const double t = 1000.0;
  const Vec3 exact = Vec3(0, 0, 10) + t * Vec3(2, 2, 10) / 1.3 + 0.5 * t * t * kGravity;
  EXPECT_LE((s.x - exact).norm(), 1e-12 * (1.0 + exact.norm()));
  EXPECT_EQ(s.gamma.x(), 2.0);
  EXPECT_EQ(s.gamma.y(), 2.0);
}

TEST(FreeFlight, LinearAndAngularMomentumExactWithoutGravity) {
  test::Random random(22);
  const MassProperties body = random.body();
  BodyState s{random.vector(5.0), random.rotation(), random.vector(3.0), random.vector(3.0)};
  const Vec3 L0 = spatialAngularMomentum(s);
  const Vec3 p0 = s.gamma;
  for (int k = 0; k < 100000; ++k) {
    const FlowResult r = flow(body, s, 0.01, {});
    ASSERT_TRUE(r.ok()) << k;
    s = r.state;
  }
  EXPECT_EQ(s.gamma, p0);
  // L = x × γ + RΠ: the orbital term grows with the distance travelled, and x accumulates one
  // rounding per step, so the bound is N·ε relative to |x||γ| (measured: 3.5e-13 of it).
  const double scale = L0.norm() + s.x.norm() * s.gamma.norm();
  EXPECT_LE((spatialAngularMomentum(s) - L0).norm(), 1e5 * 1.1e-16 * scale);
}

TEST(FreeFlight, IsExactlyTimeReversible) {
  test::Random random(23);
  for (int i = 0; i < 50; ++i) {
    const MassProperties body = random.body();
    // |Π| ≤ 1 keeps the rotation per step below a half turn even at h = 0.5 for these inertias.
    const BodyState s{random.vector(5.0), random.rotation(), random.vector(3.0),
                      random.vector(0.5)};
    const ExternalLoad load{kGravity, random.vector(1.0), random.vector(1.0)};
    for (double h : {0.01, 0.1, 0.5}) {
      const FlowResult forward = flow(body, s, h, load);
      ASSERT_TRUE(forward.ok()) << i << " h=" << h;
      const FlowResult backward = flow(body, forward.state, -h, load);
      ASSERT_TRUE(backward.ok()) << i << " h=" << h;
      const BodyState& back = backward.state;
      // Digest A4: ≤ 1e-14 per component (scaled by the magnitudes involved).
      EXPECT_LE((back.x - s.x).cwiseAbs().maxCoeff(),
                1e-14 * (1.0 + s.x.norm() + forward.state.x.norm()));
      EXPECT_LE(maxAbs(back.R - s.R), 1e-14);
      EXPECT_LE((back.gamma - s.gamma).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + s.gamma.norm()));
      EXPECT_LE((back.Pi - s.Pi).cwiseAbs().maxCoeff(), 1e-14 * (1.0 + s.Pi.norm()));
    }
  }
}

TEST(FreeFlight, ConstantTorqueAndForceChangeMomentaExactly) {
  // Discrete Lagrange–d'Alembert forcing: Δγ = h f and Δ(RΠ) = h τ exactly, for any h.
  test::Random random(24);
  const MassProperties body = random.body();
  BodyState s{random.vector(1.0), random.rotation(), random.vector(1.0), random.vector(1.0)};
  const ExternalLoad load{Vec3(0, -9.81, 0), Vec3(0.3, -0.2, 0.1), Vec3(0.5, 1.0, -0.7)};
  const double h = 0.02;
  const int steps = 1000;
  const Vec3 spin0 = s.R * s.Pi, gamma0 = s.gamma;
  for (int k = 0; k < steps; ++k)
    s = flow(body, s, h, load).state;
  EXPECT_LE((s.R * s.Pi - (spin0 + steps * h * load.torque)).norm(), 1e-11);
  EXPECT_LE((s.gamma - (gamma0 + steps * h * (body.mass() * load.gravity + load.force))).norm(),
            1e-11);
}

TEST(FreeFlight, AttitudeIsSecondOrderAccurate) {
  // Digest B4: against the same integrator at h/64, the error ratio per halving is ≈ 4.
  const MassProperties body = uniformEllipsoid(1.0, {2, 3, 4});
  const BodyState s0 = paperInitialState();
  const double T = 2.0;
  const auto attitudeAt = [&](double h) {
    BodyState s = s0;
    const int n = static_cast<int>(std::lround(T / h));
    for (int k = 0; k < n; ++k)
      s = flow(body, s, h, {}).state;
    return s.R;
  };
  const Mat3 reference = attitudeAt(0.1 / 64.0);
  const double e1 = maxAbs(attitudeAt(0.1) - reference);
  const double e2 = maxAbs(attitudeAt(0.05) - reference);
  const double e3 = maxAbs(attitudeAt(0.025) - reference);
  EXPECT_NEAR(e1 / e2, 4.0, 0.5);
  EXPECT_NEAR(e2 / e3, 4.0, 0.5);
}

// A uniform sphere spinning at ω with h|ω| = 3: (5.9c) needs h|ω| ≤ 1 (|g| ≤ j), so one step has no
// rotation, and four of h/4 each turn it by asin(3/4) about ω (the isotropic closed form).
TEST(FlowInSubsteps, TurnsABallTooFastForOneStepByTheAnalyticAngleInFourSubsteps) {
  const MassProperties ball = uniformEllipsoid(2.0, {0.3, 0.3, 0.3});
  const double h = 0.01, j = ball.inertia()(0, 0);
  const Vec3 axis = Vec3(1, -2, 0.5).normalized();
  const BodyState s{{0, 0, 1}, Mat3::Identity(), {1, 0, 0}, (3.0 / h) * j * axis};
  EXPECT_FALSE(flow(ball, s, h, {}).ok());
  const FlowResult r = flowInSubsteps(ball, s, h, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.substeps, 4);
  const Mat3 analytic = Eigen::AngleAxisd(4 * std::asin(0.75), axis).matrix();
  EXPECT_LE(maxAbs(r.state.R - analytic), 1e-13);
  EXPECT_LE((r.state.R * r.state.Pi - s.Pi).norm(), 1e-13 * s.Pi.norm());
  BodyState byHand = s;
  for (int i = 0; i < 4; ++i)
    byHand = flow(ball, byHand, h / 4, {}).state;
  EXPECT_EQ(r.state.R, byHand.R);
  EXPECT_EQ(r.state.x, byHand.x);
}

TEST(FlowInSubsteps, IsExactlyFlowWhereOneStepSolves) {
  test::Random random(24);
  const MassProperties body = MassProperties::create(1.3, random.inertia());
  const BodyState s{random.vector(5.0), random.rotation(), random.vector(3.0), random.vector(0.5)};
  const ExternalLoad load{kGravity, Vec3(0.1, 0, 0), Vec3(0, 0.2, 0)};
  const FlowResult one = flow(body, s, 0.01, load);
  const FlowResult sub = flowInSubsteps(body, s, 0.01, load);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(sub.substeps, 1);
  EXPECT_EQ(sub.state.R, one.state.R);
  EXPECT_EQ(sub.state.Pi, one.state.Pi);
  EXPECT_EQ(sub.state.x, one.state.x);
}

// A box-like body tumbling at about three rotations' worth of the one-step limit: its sub-stepped
// flow keeps what the variational step keeps over 10⁴ steps.
TEST(FlowInSubsteps, ATumblingBodyKeepsItsMomentumAndEnergyAndRunsBackward) {
  const MassProperties box = uniformEllipsoid(1.0, {0.05, 0.03, 0.02});
  const double h = 1.0 / 60;
  const Vec3 omega = 200.0 * Vec3(0.3, 0.2, 1.0).normalized();  // rad/s, body frame
  BodyState s{{0, 0, 0}, Mat3::Identity(), {0, 0, 0}, box.inertia() * omega};
  const ExternalLoad load{kGravity, Vec3::Zero(), Vec3::Zero()};
  ASSERT_FALSE(flow(box, s, h, load).ok());
  const double rot0 = energy(box, s, kGravity).rotational;
  const Vec3 spin0 = s.R * s.Pi;
  double maxRotError = 0, maxSpinError = 0;
  int substeps = 0;
  for (int k = 0; k < 10000; ++k) {
    const FlowResult r = flowInSubsteps(box, s, h, load);
    ASSERT_TRUE(r.ok()) << k;
    substeps = std::max(substeps, r.substeps);
    s = r.state;
    maxRotError =
        std::max(maxRotError, std::abs(energy(box, s, kGravity).rotational - rot0) / rot0);
    maxSpinError = std::max(maxSpinError, (s.R * s.Pi - spin0).norm() / spin0.norm());
  }
  EXPECT_GT(substeps, 1);
  EXPECT_LE(maxSpinError, 1e-11);  // spatial angular momentum: exact but for round-off
  EXPECT_LE(maxRotError, 1e-11);   // torque-free: the LGVI keeps |Π| and the energy (digest B2)
  EXPECT_LE(orthogonalityError(s.R), 1e-11);
  const FlowResult forward = flowInSubsteps(box, s, h, load);
  const FlowResult back = flowInSubsteps(box, forward.state, -h, load);
  ASSERT_TRUE(back.ok());
  EXPECT_LE(maxAbs(back.state.R - s.R), 1e-12);
  EXPECT_LE((back.state.Pi - s.Pi).norm(), 1e-12 * s.Pi.norm());
}

TEST(FlowInSubsteps, ReportsASpinBeyondItsSubstepsAndChangesNothing) {
  const MassProperties ball = uniformEllipsoid(2.0, {0.3, 0.3, 0.3});
  const double h = 0.01, j = ball.inertia()(0, 0);
  const BodyState s{{0, 0, 1}, Mat3::Identity(), {1, 0, 0}, (3.0 / h) * j * Vec3::UnitZ()};
  const FlowResult r = flowInSubsteps(ball, s, h, {}, 2);  // h|ω|/2 = 1.5 > 1
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.substeps, 2);
  EXPECT_EQ(r.state.R, s.R);
  EXPECT_EQ(r.state.x, s.x);
  EXPECT_THROW(flowInSubsteps(ball, s, h, {}, 0), Error);
}

// A path of flows from one state (the variational step's probes between events) takes the
// sub-steps its longest flow needed: fewestSubsteps = 4 on a body one step could turn is F̃[h/4]⁴,
// not F̃[h], and one the four cannot turn doubles on from there.
TEST(FlowInSubsteps, TakesAtLeastTheSubstepsAskedFor) {
  test::Random random(7);
  const MassProperties body = MassProperties::create(1.3, random.inertia());
  const BodyState s{random.vector(5.0), random.rotation(), random.vector(3.0), random.vector(0.5)};
  const ExternalLoad load{kGravity, Vec3(0.1, 0, 0), Vec3(0, 0.2, 0)};
  const double h = 0.01;
  ASSERT_TRUE(flow(body, s, h, load).ok());
  const FlowResult four = flowInSubsteps(body, s, h, load, kMaxFlowSubsteps, {}, 4);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four.substeps, 4);
  BodyState byHand = s;
  for (int i = 0; i < 4; ++i)
    byHand = flow(body, byHand, h / 4, load).state;
  EXPECT_EQ(four.state.R, byHand.R);
  EXPECT_EQ(four.state.Pi, byHand.Pi);
  EXPECT_EQ(four.state.x, byHand.x);
  EXPECT_NE(four.state.R, flow(body, s, h, load).state.R);
  // h|ω| = 12 for the ball: 16 sub-steps, the first count from 2 on that solves.
  const MassProperties ball = uniformEllipsoid(2.0, {0.3, 0.3, 0.3});
  const BodyState fast{
      {0, 0, 1}, Mat3::Identity(), {1, 0, 0}, (12.0 / h) * ball.inertia()(0, 0) * Vec3::UnitZ()};
  EXPECT_EQ(flowInSubsteps(ball, fast, h, {}, kMaxFlowSubsteps, {}, 2).substeps, 16);
  EXPECT_THROW(flowInSubsteps(body, s, h, load, kMaxFlowSubsteps, {}, 0), Error);
  EXPECT_THROW(flowInSubsteps(body, s, h, load, 4, {}, 8), Error);
}

}  // namespace
}  // namespace carom::core
