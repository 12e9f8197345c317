#include "carom/core/joints/jointed_flow.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <vector>

#include "carom/error.h"
#include "core/joints/scenes.h"
#include "support/errors.h"
#include "support/random.h"

namespace carom::core::joints {
namespace {

double maxDifference(const std::vector<BodyState>& a, const std::vector<BodyState>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max({d, (a[i].x - b[i].x).cwiseAbs().maxCoeff(),
                  (a[i].R - b[i].R).cwiseAbs().maxCoeff(),
                  (a[i].gamma - b[i].gamma).cwiseAbs().maxCoeff(),
                  (a[i].Pi - b[i].Pi).cwiseAbs().maxCoeff()});
  }
  return d;
}

// The frame with origin p and axes E (world) in the body frame of `state`.
JointFrame frameAt(int body, const BodyState& state, const Vec3& p, const Mat3& E) {
  return {body, state.R.transpose() * (p - state.x), state.R.transpose() * E};
}

// Random velocities (up to 1 m/s, 2 rad/s a component), projected onto the joints' tangent
// (projectMomenta).
std::vector<BodyState> withRandomVelocities(const JointedSystem& system,
                                            std::vector<BodyState> states, test::Random& random) {
  for (int i = 0; i < system.bodyCount(); ++i) {
    const MassProperties& body = system.bodies()[i];
    states[i].gamma = body.mass() * random.vector(1.0);
    states[i].Pi = body.inertia() * random.vector(2.0);
  }
  const JointedFlowResult projected = projectMomenta(system, states);
  EXPECT_TRUE(projected.ok());
  return projected.states;
}

// Two boxes at random poses, joined at a point between them by a joint of the given kind with
// frames that meet (slider: B's frame 0.1 m along A's x axis).
scenes::Chain jointedPair(JointType type, test::Random& random) {
  const std::vector<BodyState> states{{Vec3(-0.4, 0.1, 0.0), random.rotation()},
                                      {Vec3(0.5, -0.2, 0.1), random.rotation()}};
  const Mat3 axes = random.rotation();
  const Vec3 pivot(0.05, 0.0, 0.02);
  const JointFrame a = frameAt(0, states[0], pivot, axes);
  const JointFrame b = frameAt(1, states[1], pivot, axes);
  const JointFrame slid = frameAt(1, states[1], pivot + 0.1 * axes.col(0), axes);
  const Joint joint = type == JointType::kPoint ? pointJoint(0, a.pivot, 1, b.pivot)
                      : type == JointType::kHinge
                          ? hingeJoint(0, a.pivot, a.basis.col(2), 1, b.pivot, b.basis.col(2))
                      : type == JointType::kFixed ? fixedJoint(a, b)
                                                  : sliderJoint(a, slid);
  const JointedSystem system({uniformBox(1.0, {0.4, 0.1, 0.2}), uniformBox(2.0, {0.1, 0.3, 0.15})},
                             {joint});
  return {system, withRandomVelocities(system, states, random)};
}

constexpr JointType kEveryKind[] = {JointType::kPoint, JointType::kHinge, JointType::kFixed,
                                    JointType::kSlider};

// The largest |E − E0| (J) of a run.
double energyEnvelope(const scenes::Chain& scene, double h, int steps) {
  const double E0 = scenes::totalEnergy(scene.system, scene.states);
  double envelope = 0.0;
  scenes::run(scene.system, scene.states, h, steps, scenes::gravityLoads(scene.system),
              [&](int, const std::vector<BodyState>& states) {
                envelope =
                    std::max(envelope, std::abs(scenes::totalEnergy(scene.system, states) - E0));
              });
  return envelope;
}

TEST(JointedFlow, DoublePendulumKeepsEnergyBoundedAndItsJointsHeld) {
  // A spherical double pendulum, released from horizontal with a random out-of-plane push: chaotic,
  // its energy error bounded and second order, its joints and their velocity rows held.
  test::Random random(31);
  scenes::Chain pendulum = scenes::rodChain(2, scenes::kPi / 2);
  pendulum.states = withRandomVelocities(pendulum.system, pendulum.states, random);
  EXPECT_LE(scenes::velocityError(pendulum.system, pendulum.states), 1e-14);
  const double E0 = scenes::totalEnergy(pendulum.system, pendulum.states);
  double energyError = 0.0, jointError = 0.0, velocityError = 0.0;
  scenes::run(pendulum.system, pendulum.states, 1e-3, 20000, scenes::gravityLoads(pendulum.system),
              [&](int, const std::vector<BodyState>& states) {
                energyError = std::max(energyError,
                                       std::abs(scenes::totalEnergy(pendulum.system, states) - E0));
                jointError = std::max(jointError, scenes::constraintError(pendulum.system, states));
                velocityError =
                    std::max(velocityError, scenes::velocityError(pendulum.system, states));
              });
  // Measured over 20 s at h = 1 ms: |E − E0| ≤ 1.75e-3 J (9e-5 of the 19.6 J the rods' fall
  // releases), joints 4.4e-16 m, velocity rows 3.1e-15 m/s.
  EXPECT_LE(energyError, 3e-3);
  EXPECT_LE(jointError, 1e-14);
  EXPECT_LE(velocityError, 1e-13);
  // Second order: over the first 2 s the envelope quarters as h halves (measured 6.00e-4 J at
  // 1 ms, 1.50e-4 J at 0.5 ms: ratio 4.00).
  EXPECT_NEAR(energyEnvelope(pendulum, 1e-3, 2000) / energyEnvelope(pendulum, 5e-4, 4000), 4.0,
              0.2);
}

TEST(JointedFlow, HingeAlongGravityKeepsItsAxisAndTheSpinAboutIt) {
  // A door (0.8 m × 2 m, 10 kg) hinged on its edge about the vertical, spinning at 3 rad/s:
  // gravity and the hinge exert no torque about the axis, so the discrete Noether theorem keeps
  // the angular momentum about it (through the pivot) exactly.
  const MassProperties door = uniformBox(10.0, {0.4, 0.02, 1.0});
  const JointedSystem system(
      {door}, {hingeJoint(0, {-0.4, 0, 0}, Vec3::UnitZ(), kWorld, Vec3::Zero(), Vec3::UnitZ())});
  const Vec3 spin(0.0, 0.0, 3.0), x(0.4, 0.0, 0.0);
  const std::vector<BodyState> start{
      stateFromVelocities(door, x, Mat3::Identity(), spin.cross(x), spin)};
  const double L0 = spatialAngularMomentum(start[0]).z();
  const double E0 = scenes::totalEnergy(system, start);
  double axisError = 0.0, momentumError = 0.0, energyError = 0.0;
  scenes::run(system, start, 1e-2, 2000, scenes::gravityLoads(system),
              [&](int, const std::vector<BodyState>& states) {
                axisError = std::max(axisError, scenes::constraintError(system, states));
                momentumError =
                    std::max(momentumError, std::abs(spatialAngularMomentum(states[0]).z() - L0));
                energyError =
                    std::max(energyError, std::abs(scenes::totalEnergy(system, states) - E0));
              });
  // Measured over 20 s (9.5 turns) at h = 10 ms: axis rows 1.1e-16, L_z within 1.9e-14 of
  // 6.40 kg m²/s, energy within 5.5e-13 J.
  EXPECT_LE(axisError, 1e-14);
  EXPECT_LE(momentumError, 1e-13 * std::abs(L0));
  EXPECT_LE(energyError, 1e-4 * E0);
}

TEST(JointedFlow, SliderOnATiltedRailAcceleratesExactlyAndDoesNotTurn) {
  // A rail 30° below the horizontal: the body slides s = ½ g sin 30° t² exactly (the LGVI is exact
  // for a constant force, and the rail's forces are normal to it) and keeps its attitude, although
  // its frame sits off its centre of mass.
  test::Random random(32);
  const double alpha = scenes::kPi / 6;
  const Vec3 along(std::cos(alpha), 0.0, -std::sin(alpha));
  Mat3 rail;
  rail << along, Vec3::UnitY(), along.cross(Vec3::UnitY());
  const BodyState start{Vec3(-0.1, 0.05, 0.2), random.rotation()};
  const JointedSystem system(
      {uniformBox(2.0, {0.1, 0.2, 0.3})},
      {sliderJoint({kWorld, start.x + start.R * Vec3(0.1, -0.05, -0.2), rail},
                   frameAt(0, start, start.x + start.R * Vec3(0.1, -0.05, -0.2), rail))});
  const double h = 1e-2, acceleration = scenes::kGravity * std::sin(alpha);
  double slideError = 0.0, attitudeError = 0.0, jointError = 0.0;
  scenes::run(
      system, {start}, h, 500, scenes::gravityLoads(system),
      [&](int k, const std::vector<BodyState>& states) {
        const double t = k * h;
        slideError = std::max(
            slideError, std::abs((states[0].x - start.x).dot(along) - 0.5 * acceleration * t * t));
        attitudeError = std::max(attitudeError, (states[0].R - start.R).cwiseAbs().maxCoeff());
        jointError = std::max(jointError, scenes::constraintError(system, states));
      });
  // Measured over 5 s at h = 10 ms (s = 61 m): slide 6.4e-14 m, attitude 1.1e-16, rows 3.6e-15.
  EXPECT_LE(slideError, 1e-11);
  EXPECT_LE(attitudeError, 1e-13);
  EXPECT_LE(jointError, 1e-12);
}

TEST(JointedFlow, RunsBackToItsStartWhenTheStepIsReversed) {
  test::Random random(33);
  scenes::Chain pendulum = scenes::rodChain(2, 1.2);
  pendulum.states = withRandomVelocities(pendulum.system, pendulum.states, random);
  std::vector<scenes::Chain> scenes{pendulum};
  for (JointType type : kEveryKind)
    scenes.push_back(jointedPair(type, random));
  for (const scenes::Chain& scene : scenes) {
    const auto loads = scenes::gravityLoads(scene.system);
    const auto none = [](int, const std::vector<BodyState>&) {};
    const std::vector<BodyState> there =
        scenes::run(scene.system, scene.states, 2e-3, 500, loads, none);
    const std::vector<BodyState> back = scenes::run(scene.system, there, -2e-3, 500, loads, none);
    EXPECT_GT(maxDifference(there, scene.states), 0.1);
    EXPECT_LE(maxDifference(back, scene.states), 2e-13);  // measured 7e-15 to 4.3e-14
  }
}

TEST(JointedFlow, IsolatedJointedPairKeepsLinearAndAngularMomentumToRoundOff) {
  test::Random random(34);
  for (JointType type : kEveryKind) {
    const scenes::Chain pair = jointedPair(type, random);
    const auto total = [](const std::vector<BodyState>& states) {
      Eigen::Matrix<double, 6, 1> momentum = Eigen::Matrix<double, 6, 1>::Zero();
      for (const BodyState& s : states)
        momentum +=
            (Eigen::Matrix<double, 6, 1>() << s.gamma, spatialAngularMomentum(s)).finished();
      return momentum;
    };
    const auto start = total(pair.states);
    const double E0 = scenes::totalEnergy(pair.system, pair.states, Vec3::Zero());
    double momentumError = 0.0, energyError = 0.0, jointError = 0.0;
    scenes::run(
        pair.system, pair.states, 1e-2, 1000, scenes::gravityLoads(pair.system, Vec3::Zero()),
        [&](int, const std::vector<BodyState>& states) {
          momentumError = std::max(momentumError, (total(states) - start).cwiseAbs().maxCoeff());
          energyError = std::max(
              energyError, std::abs(scenes::totalEnergy(pair.system, states, Vec3::Zero()) - E0));
          jointError = std::max(jointError, scenes::constraintError(pair.system, states));
        });
    // Measured over 10 s at h = 10 ms: momenta within 3.2e-14 of |p| ≈ 1.4–3.6; energy within
    // 1.5e-5 J of 0.6–2.2 J (the fixed pair, one rigid body, 3e-15 J); rows 3.6e-15. The Newton
    // tolerance is 1e-14 m per metre of |x|, which reaches 12 m here.
    EXPECT_LE(momentumError, 1e-13) << toString(type);
    EXPECT_LE(energyError, 1e-4 * E0) << toString(type);
    EXPECT_LE(jointError, 1e-13) << toString(type);
  }
}

TEST(JointedFlow, RefusesBadInputAndChangesNothing) {
  test::expectErrorNaming([] { uniformBox(0.0, {0.1, 0.1, 0.1}); }, "mass");
  test::expectErrorNaming([] { uniformBox(-1.0, {0.1, 0.1, 0.1}); }, "mass");
  scenes::Chain pendulum = scenes::rodChain(2, 1.0);
  const auto loads = scenes::gravityLoads(pendulum.system);
  const std::vector<BodyState> before = pendulum.states;
  pendulum.states[1].Pi.x() = std::numeric_limits<double>::quiet_NaN();
  test::expectErrorNaming([&] { flow(pendulum.system, pendulum.states, 1e-3, loads); },
                          "joints::flow: body 1 state: angular momentum Pi is not finite");
  test::expectErrorNaming([&] { projectMomenta(pendulum.system, pendulum.states); },
                          "joints::projectMomenta: body 1 state");
  EXPECT_TRUE(std::isnan(pendulum.states[1].Pi.x()));
  pendulum.states = before;
  test::expectErrorNaming([&] { flow(pendulum.system, {before[0]}, 1e-3, loads); },
                          "1 states for 2 bodies");
  test::expectErrorNaming([&] { flow(pendulum.system, before, 1e-3, {loads[0]}); },
                          "1 loads for 2 bodies");
  test::expectErrorNaming([&] { flow(pendulum.system, before, NAN, loads); }, "step length h");
  JointSettings loose;
  loose.tolerance = 0.0;
  test::expectErrorNaming([&] { flow(pendulum.system, before, 1e-3, loads, loose); },
                          "JointSettings.tolerance");
  EXPECT_EQ(maxDifference(pendulum.states, before), 0.0);
}

TEST(JointedFlow, ReportsANewtonSolveCutShortAndChangesNothing) {
  const scenes::Chain pendulum = scenes::rodChain(2, 1.0);
  JointSettings oneIteration;
  oneIteration.maxIterations = 1;
  const JointedFlowResult step = flow(pendulum.system, pendulum.states, 1e-2,
                                      scenes::gravityLoads(pendulum.system), oneIteration);
  EXPECT_EQ(step.status, SolveStatus::kIterationLimit);
  EXPECT_GT(step.residual, 1e-12);
  EXPECT_EQ(maxDifference(step.states, pendulum.states), 0.0);
  EXPECT_EQ(step.startImpulse, Eigen::VectorXd::Zero(6));
}

// The same point joint twice: its rows are redundant, the Newton and projection matrices singular
// (their condition estimate at round-off). Their least-squares solves of least norm share the
// impulse between the copies, and the pendulum flows as with the joint once.
TEST(JointedFlow, RedundantRowsShareTheirImpulseAndTheSystemFlowsAsWithoutThem) {
  const scenes::Chain pendulum = scenes::rodChain(1, 1.0);
  const Joint joint = pendulum.system.joints()[0];
  const JointedSystem twice(pendulum.system.bodies(), {joint, joint});
  std::vector<BodyState> once = pendulum.states, doubled = pendulum.states;
  for (int i = 0; i < 100; ++i) {
    const JointedFlowResult single =
        flow(pendulum.system, once, 1e-2, scenes::gravityLoads(pendulum.system));
    const JointedFlowResult repeated = flow(twice, doubled, 1e-2, scenes::gravityLoads(twice));
    ASSERT_TRUE(single.ok());
    ASSERT_TRUE(repeated.ok()) << toString(repeated.status);
    once = single.states;
    doubled = repeated.states;
    // Shared equally: the least-norm split of the one joint's impulse.
    EXPECT_LT((repeated.startImpulse.head(3) - repeated.startImpulse.tail(3)).norm(),
              1e-9 * single.startImpulse.norm());
    EXPECT_LT((repeated.startImpulse.head(3) + repeated.startImpulse.tail(3) - single.startImpulse)
                  .norm(),
              1e-9 * single.startImpulse.norm());
  }
  EXPECT_LT(maxDifference(doubled, once), 1e-12);
  EXPECT_TRUE(projectMomenta(twice, pendulum.states).ok());
}

// A step of no length (an event at the instant a flow starts) moves nothing and takes no impulse,
// even where the start is off its joint by 1e-9 m (a jointed push leaves it so): no impulse could
// bring it on in no time, and Newton's method had stalled there (a zero Jacobian) and failed.
TEST(JointedFlow, AStepOfNoLengthMovesNothing) {
  scenes::Chain pendulum = scenes::rodChain(1, 1.0);
  pendulum.states[0].x += Vec3(1e-9, 0, 0);
  const JointedFlowResult step =
      flow(pendulum.system, pendulum.states, 0.0, scenes::gravityLoads(pendulum.system));
  EXPECT_TRUE(step.ok()) << toString(step.status);
  EXPECT_EQ(maxDifference(step.states, pendulum.states), 0.0);
  EXPECT_EQ(step.startImpulse, Eigen::VectorXd::Zero(3));
  EXPECT_NEAR(step.residual, 1e-9, 1e-12);
}

}  // namespace
}  // namespace carom::core::joints
