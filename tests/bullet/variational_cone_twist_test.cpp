// btConeTwistConstraint in variational mode (issue 29): a ball joint whose swing cone and twist
// stops are located inside the flow and struck there (variational_limits.h).
#include <gtest/gtest.h>

#include <BulletDynamics/ConstraintSolver/btConeTwistConstraint.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "carom/carom.h"
#include "carom/core/joints/cone.h"
#include "carom/core/joints/jointed_flow.h"
#include "joint_scenes.h"
#include "support/errors.h"
#include "variational_limits.h"
#include "world_scene.h"

namespace carom {
namespace {

using test::Band;
using test::kG;
using test::kPi;
using test::Scene;

constexpr double kHalf = 0.5;  // m: the rod's half-length, a 1 kg box 1 m × 0.1 m × 0.1 m

// A rod level along x, its centre at (kHalf, 2, 0), on a cone-twist to the world at its end
// (0, 2, 0): frame A the rod's own axes there (x along the rod, the twist axis), frame B the
// world's axes turned so that x_B is `axisB`'s direction with y_B = `towardB`.
struct ConeRod {
  ConeRod(const btVector3& axisB, const btVector3& towardB)
      : scene(test::configWith(SolverKind::variational)) {
    rod = scene.add(new btBoxShape(btVector3(kHalf, 0.05, 0.05)), 1.0, btVector3(kHalf, 2, 0));
    btTransform frameA(btMatrix3x3::getIdentity(), btVector3(-kHalf, 0, 0));
    const btVector3 x = axisB.normalized(), y = towardB.normalized(), z = x.cross(y);
    btTransform frameB(btMatrix3x3(x.x(), y.x(), z.x(), x.y(), y.y(), z.y(), x.z(), y.z(), z.z()),
                       btVector3(0, 2, 0));
    cone = std::make_unique<btConeTwistConstraint>(*rod, btTypedConstraint::getFixedBody(), frameA,
                                                   frameB);
  }
  void add() { scene.world().addConstraint(cone.get(), true); }
  // The pivot as the rod holds it, from the world's (m).
  double pivotError() const {
    return (rod->getCenterOfMassTransform() * btVector3(-kHalf, 0, 0) - btVector3(0, 2, 0))
        .length();
  }
  // The angle between the rod and x_B (rad).
  double swing(const btVector3& axisB) const {
    const btVector3 along = rod->getCenterOfMassTransform().getBasis().getColumn(0);
    return std::acos(std::clamp(double(along.dot(axisB.normalized())), -1.0, 1.0));
  }
  Scene<DynamicsWorld> scene;
  btRigidBody* rod;
  std::unique_ptr<btConeTwistConstraint> cone;
};

// Released level with its cone about the downward vertical (2.5 rad, never reached: it swings to
// 90°) and a twist span of 1 rad (a swing in one plane does not twist): the LGVI's energy band,
// which neither grows nor moves, and the pivot to round-off, as the point-to-point pendulum's.
TEST(ConeTwistVariational, PendulumWithinItsLimitsKeepsItsEnergyBandAndItsPivot) {
  const btVector3 down(0, -1, 0);
  ConeRod pendulum(down, btVector3(1, 0, 0));
  pendulum.cone->setLimit(2.5, 2.5, 1.0);
  pendulum.add();
  const double h = 1.0 / 240;
  const double energy0 = test::totalEnergy(pendulum.scene.world());
  const int steps = 4000, window = 1000;  // 16.7 s, 8 swings
  Band first, last;
  double pivotError = 0, widest = 0;
  for (int i = 0; i < steps; ++i) {
    pendulum.scene.world().stepSimulation(h, 1, h);
    const double energy = test::totalEnergy(pendulum.scene.world());
    pivotError = std::max(pivotError, pendulum.pivotError());
    widest = std::max(widest, pendulum.swing(down));
    if (i < window) first.add(energy);
    if (i >= steps - window) last.add(energy);
  }
  const double mgl = kG * kHalf;  // J: the rod's potential energy over its swing's depth
  RecordProperty("firstBand", test::scientific(first.width() / mgl));
  RecordProperty("lastBand", test::scientific(last.width() / mgl));
  RecordProperty("pivotError", test::scientific(pivotError));
  test::expectBandWithoutDrift(first, last, energy0, mgl, 1e-2);
  EXPECT_LT(pivotError, 1e-13);
  EXPECT_LT(widest, kPi / 2 + 1e-3);  // it reached level again, far inside its cone
  EXPECT_GT(widest, kPi / 2 - 1e-2);
}

// The rod on a ball joint at its centre of mass to the world, frames aligned with the world's, as
// the step's joint group holds it, without gravity: its system, its flow (the constrained LGVI)
// and a swing or twist drive on its joint; `spinning` its state turning at ω (rad/s, world).
struct CentredRod {
  core::MassProperties mass = core::uniformBox(1.0, {kHalf, 0.05, 0.05});
  core::joints::JointedSystem system{
      {mass},
      {core::joints::Joint{core::joints::JointType::kPoint,
                           {0, core::Vec3::Zero(), core::Mat3::Identity()},
                           {core::joints::kWorld, core::Vec3::Zero(), core::Mat3::Identity()}}}};
  detail::GroupFlow flow = [](const core::joints::JointedSystem& s,
                              const std::vector<core::BodyState>& states, double step) {
    const auto result = core::joints::flow(s, states, step, {core::ExternalLoad{}});
    EXPECT_TRUE(result.ok());
    return detail::GroupStep{result.states, detail::JointImpulses(s.joints().size())};
  };
  static detail::JointDrive drive(detail::DriveKind kind, double halfRange, double span1,
                                  double span2, double bounce) {
    detail::JointDrive drive;
    drive.joint = 0;
    drive.kind = kind;
    drive.halfRange = halfRange;
    drive.swingSpan1 = span1;
    drive.swingSpan2 = span2;
    drive.bounce = bounce;
    return drive;
  }
  std::vector<core::BodyState> spinning(const core::Vec3& omega) const {
    return {core::stateFromVelocities(mass, core::Vec3::Zero(), core::Mat3::Identity(),
                                      core::Vec3::Zero(), omega)};
  }
  double kinetic(const std::vector<core::BodyState>& states) const {
    return core::energy(mass, states[0], {}).kinetic();
  }
  core::Vec3 omega(const std::vector<core::BodyState>& states) const {
    return core::angularVelocityWorld(mass, states[0]);
  }
};

// A rod about its centre (a ball joint at its centre of mass holds it without a force) spinning at
// ω about a principal axis without gravity turns by asin(α h ω) over a flow of αh (Tran & Leok
// (5.9c)), so the instant its swing or twist reaches a stop is known: n whole steps, then the
// fraction α of the next. Struck there with restitution e (a drive's bounce set here: Bullet's
// cone-twist rows have none, JointDrive::bounce, so this is the step's own flowWithStops), the
// spin reverses to −eω and the rod has turned back by asin((1 − α) h e ω) at the step's end, with
// e² of its energy; every later strike, at the far side of the stop, takes e² more.
void strikeAtTheInstant(detail::DriveKind kind, const core::Vec3& spin, double e) {
  const double h = 1.0 / 60, omega = 2.0, stop = 0.5;
  const CentredRod rod;
  // A swing's cone: `stop` toward y_B, where a spin about z swings the rod, 0.9 toward z_B.
  const detail::JointDrive drive =
      CentredRod::drive(kind, kind == detail::DriveKind::kSwing ? 0 : stop, stop, 0.9, e);
  std::vector<core::BodyState> states = rod.spinning(omega * spin);
  const double energy0 = rod.kinetic(states);
  const double perStep = std::asin(h * omega);
  const int before = static_cast<int>(std::floor(stop / perStep));
  const double alpha = std::sin(stop - before * perStep) / (h * omega);
  for (int i = 0; i <= before; ++i)
    states = detail::flowWithStops(rod.system, {drive}, states, h, rod.flow).states;
  const double position = detail::jointPosition(rod.system, drive, states);
  const double expected = stop - std::asin((1 - alpha) * h * e * omega);
  ::testing::Test::RecordProperty("positionError", test::scientific(position - expected));
  EXPECT_NEAR(std::abs(position), expected, 1e-12);
  const core::Vec3 after = rod.omega(states);
  EXPECT_NEAR(after.dot(spin), -e * omega, 1e-12 * omega);
  EXPECT_NEAR(rod.kinetic(states), e * e * energy0, 1e-13 * energy0);
  // It turns back freely to the far side and strikes it too, never past the stop.
  double reached = 0, turning = after.dot(spin);
  int strikes = 1;
  for (int i = 0; i < 120; ++i) {
    states = detail::flowWithStops(rod.system, {drive}, states, h, rod.flow).states;
    reached = std::max(reached, std::abs(detail::jointPosition(rod.system, drive, states)));
    const double now = rod.omega(states).dot(spin);
    if (now * turning < 0) ++strikes;
    turning = now;
  }
  ::testing::Test::RecordProperty("strikes", strikes);
  EXPECT_GE(strikes, 2);
  EXPECT_LE(reached, stop + 1e-12);
  EXPECT_NEAR(rod.kinetic(states), std::pow(e, 2 * strikes) * energy0, 1e-12 * energy0);
}

TEST(ConeTwistVariational, SwingStrikesItsConeAtTheFlowsInstantAndKeepsTheEnergy) {
  strikeAtTheInstant(detail::DriveKind::kSwing, core::Vec3::UnitZ(), 1.0);
}

TEST(ConeTwistVariational, TwistStrikesItsStopAtTheFlowsInstantAndKeepsTheEnergy) {
  strikeAtTheInstant(detail::DriveKind::kTwist, core::Vec3::UnitX(), 1.0);
}

TEST(ConeTwistVariational, PartialBouncesOffTheConeAndTheTwistStopKeepE2OfTheEnergy) {
  strikeAtTheInstant(detail::DriveKind::kSwing, core::Vec3::UnitZ(), 0.5);
  strikeAtTheInstant(detail::DriveKind::kTwist, core::Vec3::UnitX(), 0.5);
}

// A swing toward the cone between its axes: spun about (0, −sin β, cos β), the rod's axis x_A
// swings toward (0, cos β, sin β), where the elliptic cone's half-angle is
// r = 1/√(cos²β/span1² + sin²β/span2²) (Bullet's computeConeLimitInfo), so it strikes in step
// ⌊r / asin(hω)⌋ + 1. Struck elastically along the ellipse's normal it leaves the plane, and runs
// around inside the cone, its gap to it never below zero, keeping its energy.
TEST(ConeTwistVariational, SwingBetweenTheConesAxesStrikesTheEllipse) {
  const double h = 1.0 / 60, omega = 2.0, span1 = 0.5, span2 = 0.9, beta = 0.6;
  const CentredRod rod;
  const detail::JointDrive drive =
      CentredRod::drive(detail::DriveKind::kSwing, 0, span1, span2, 1.0);
  // The rod's inertia is the same about y and z: a spin about any axis ⟂ x is principal.
  const core::Vec3 spin(0, -std::sin(beta), std::cos(beta));
  std::vector<core::BodyState> states = rod.spinning(omega * spin);
  const double energy0 = rod.kinetic(states);
  const double r = 1 / std::hypot(std::cos(beta) / span1, std::sin(beta) / span2);
  const int strikeStep = static_cast<int>(std::floor(r / std::asin(h * omega))) + 1;
  int struck = -1;
  double lowestGap = INFINITY;
  for (int i = 1; i <= 120; ++i) {
    states = detail::flowWithStops(rod.system, {drive}, states, h, rod.flow).states;
    if (struck < 0 && rod.omega(states).dot(spin) < omega * (1 - 1e-9)) struck = i;
    lowestGap = std::min(lowestGap, core::joints::swingGap(states[0].R.col(0), span1, span2).value);
  }
  RecordProperty("lowestGap", test::scientific(lowestGap));
  EXPECT_EQ(struck, strikeStep);
  EXPECT_GE(lowestGap, -1e-12);
  EXPECT_NEAR(rod.kinetic(states), energy0, 1e-12 * energy0);
}

// Its cone about the level x axis, 0.5 rad toward ±y_B (vertical) and 0.9 toward ±z: the rod falls
// from level onto the cone, plastic as Bullet's cone-twist rows are (JointDrive::bounce), and
// rests on it at 0.5 rad without creeping through, gaining no energy. It strikes at the instant a
// compound pendulum released level reaches 0.5 rad: t = ∫ dθ / θ̇, θ̇² = 2 m g l sin θ / I_O.
TEST(ConeTwistVariational, RodFallsOntoItsConeAtThePendulumsInstantAndRestsOnIt) {
  const btVector3 level(1, 0, 0);
  ConeRod rod(level, btVector3(0, 1, 0));
  rod.cone->setLimit(0.5, 0.9, 1.0);
  rod.add();
  // I_O = m (L² + w²)/12 + m (L/2)² about the pivot, m = 1 kg; θ = u² takes the 1/√θ out of the
  // integrand, then Simpson's rule.
  const double inertia = (1.0 + 0.01) / 12 + kHalf * kHalf;
  const auto integrand = [&](double u) {
    return u == 0 ? 2 / std::sqrt(2 * kG * kHalf / inertia)
                  : 2 * u / std::sqrt(2 * kG * kHalf * std::sin(u * u) / inertia);
  };
  const int n = 2000;
  const double top = std::sqrt(0.5);
  double sum = integrand(0) + integrand(top);
  for (int i = 1; i < n; ++i)
    sum += (i % 2 ? 4 : 2) * integrand(top * i / n);
  const double instant = sum * top / n / 3;
  const double h = 1.0 / 240;
  const double energy0 = test::totalEnergy(rod.scene.world());
  double beyond = 0, gained = 0;
  int struck = -1;
  for (int i = 1; i <= 240; ++i) {  // 1 s
    rod.scene.world().stepSimulation(h, 1, h);
    beyond = std::max(beyond, rod.swing(level) - 0.5);
    gained = std::max(gained, test::totalEnergy(rod.scene.world()) - energy0);
    if (struck < 0 && rod.rod->getAngularVelocity().length() < 1e-6) struck = i;
  }
  RecordProperty("instant", test::scientific(instant));
  RecordProperty("beyond", test::scientific(beyond));
  // Struck within the step that holds the instant (the LGVI's phase error over 0.3 s is ~1e-5 s).
  EXPECT_GT(struck * h, instant - 1e-4);
  EXPECT_LT((struck - 1) * h, instant + 1e-4);
  EXPECT_LT(beyond, 1e-9);
  EXPECT_NEAR(rod.swing(level), 0.5, 1e-9);
  EXPECT_LT(rod.rod->getAngularVelocity().length(), 1e-6);
  // What it has lost is its kinetic energy at the strike, m g l sin 0.5: it rests there.
  EXPECT_NEAR(test::totalEnergy(rod.scene.world()), energy0 - kG * kHalf * std::sin(0.5), 1e-9);
  EXPECT_LT(gained, 1e-9);
  EXPECT_LT(rod.pivotError(), 1e-12);
}

// The same rod with its feedback enabled: between impacts the LGVI changes a body's momentum by
// −m g h and its angular momentum about its centre by nothing but the joint's impulses (Tran & Leok
// (5.9)), so each step's feedback is (Δγ/h − m g, ΔL/h), the cone's strike and its weld's holding
// impulses (a joint the stop adds to the flow's system) included; at rest on the cone the joint
// carries the weight and no net torque about the centre.
TEST(ConeTwistVariational, FeedbackOfTheRodOnItsConeIsItsMomentumBalance) {
  const btVector3 level(1, 0, 0);
  ConeRod rod(level, btVector3(0, 1, 0));
  rod.cone->setLimit(0.5, 0.9, 1.0);
  btJointFeedback feedback;
  rod.cone->setJointFeedback(&feedback);
  rod.cone->enableFeedback(true);
  rod.add();
  const double h = 1.0 / 240;
  const btVector3 gravity(0, -kG, 0);
  double forceError = 0, torqueError = 0, largestTorque = 0;
  for (int i = 0; i < 240; ++i) {  // 1 s: struck at 0.36 s, then resting on the cone
    const btVector3 momentum = rod.rod->getLinearVelocity();
    const btVector3 spin = test::angularMomentum(*rod.rod);
    rod.scene.world().stepSimulation(h, 1, h);
    const btVector3 force = (rod.rod->getLinearVelocity() - momentum) / h - gravity;
    const btVector3 torque = (test::angularMomentum(*rod.rod) - spin) / h;
    forceError = std::max(forceError, (feedback.m_appliedForceBodyA - force).length());
    torqueError = std::max(torqueError, (feedback.m_appliedTorqueBodyA - torque).length());
    largestTorque = std::max(largestTorque, torque.length());
  }
  RecordProperty("forceError", test::scientific(forceError));
  RecordProperty("torqueError", test::scientific(torqueError));
  EXPECT_GT(largestTorque, 10.0);  // the strike's
  EXPECT_LT(forceError, 1e-9 * kG);
  EXPECT_LT(torqueError, 1e-9 * kG);
  EXPECT_LT((feedback.m_appliedForceBodyA + gravity).length(), 1e-9 * kG);
  EXPECT_LT(feedback.m_appliedTorqueBodyA.length(), 1e-9 * kG);
}

// Spinning about its own axis without gravity into a twist span of 0.5 rad: stopped there (plastic)
// and held, the twist never past it.
TEST(ConeTwistVariational, SpinningRodStopsAtItsTwistStop) {
  const btVector3 level(1, 0, 0);
  ConeRod rod(level, btVector3(0, 1, 0));
  rod.scene.world().setGravity(btVector3(0, 0, 0));
  rod.cone->setLimit(1.0, 1.0, 0.5);
  rod.add();
  rod.rod->setAngularVelocity(btVector3(3, 0, 0));
  const double h = 1.0 / 240;
  double twist = 0, largest = 0;
  for (int i = 0; i < 120; ++i) {
    rod.scene.world().stepSimulation(h, 1, h);
    const btVector3 y = rod.rod->getCenterOfMassTransform().getBasis().getColumn(1);
    twist = std::atan2(y.z(), y.y());
    largest = std::max(largest, std::abs(twist));
  }
  RecordProperty("beyond", test::scientific(largest - 0.5));
  EXPECT_LT(largest, 0.5 + 1e-9);
  EXPECT_LT(rod.pivotError(), 1e-12);
  EXPECT_NEAR(std::abs(twist), 0.5, 1e-9);
  EXPECT_LT(rod.rod->getAngularVelocity().length(), 1e-9);
}

// The twist of the rod's frame A against the cone's frame B (rad): core::joints::twistOf, Bullet's
// swing–twist split.
double twistOf(const ConeRod& rod) {
  core::Mat3 a, b;
  const btMatrix3x3 rodAxes = rod.rod->getCenterOfMassTransform().getBasis();
  const btMatrix3x3 coneAxes = rod.cone->getBFrame().getBasis();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      a(i, j) = rodAxes[i][j];
      b(i, j) = coneAxes[i][j];
    }
  return core::joints::twistOf(a, b).angle;
}

// A twist span of 0 locks the twist (Bullet's row then holds τ = 0 both ways). Released level and
// turning about (1, 1, 0), which leaves τ still at first, the rod swings around the vertical in
// three dimensions: with the twist free its τ wanders (the swing's geometric phase), locked it
// stays at 0 to round-off, the energy band and the pivot held as the free pendulum's.
TEST(ConeTwistVariational, TwistSpanZeroLocksTheTwistThroughAThreeDimensionalSwing) {
  const btVector3 down(0, -1, 0);
  const auto run = [&](double twistSpan, double& widestTwist, double& band, double& pivotError) {
    ConeRod rod(down, btVector3(1, 0, 0));
    rod.cone->setLimit(2.5, 2.5, twistSpan);
    rod.add();
    rod.rod->setAngularVelocity(btVector3(1, 1, 0));
    rod.rod->setLinearVelocity(btVector3(0, 0, -kHalf));  // the pivot still: −ω × (−kHalf, 0, 0)
    const double h = 1.0 / 240;
    Band energy;
    widestTwist = pivotError = 0;
    for (int i = 0; i < 960; ++i) {  // 4 s
      rod.scene.world().stepSimulation(h, 1, h);
      widestTwist = std::max(widestTwist, std::abs(twistOf(rod)));
      pivotError = std::max(pivotError, rod.pivotError());
      energy.add(test::totalEnergy(rod.scene.world()));
    }
    band = energy.width() / (kG * kHalf);
  };
  double freeTwist, freeBand, freePivot, lockedTwist, lockedBand, lockedPivot;
  run(-1, freeTwist, freeBand, freePivot);
  run(0, lockedTwist, lockedBand, lockedPivot);
  RecordProperty("freeTwist", test::scientific(freeTwist));
  RecordProperty("lockedTwist", test::scientific(lockedTwist));
  RecordProperty("lockedBand", test::scientific(lockedBand));
  EXPECT_GT(freeTwist, 1e-2);
  EXPECT_LT(lockedTwist, 1e-9);
  EXPECT_LT(lockedBand, 2e-4);
  EXPECT_LT(freePivot, 1e-12);
  EXPECT_LT(lockedPivot, 1e-12);
}

// What the step cannot hold is refused by name at addConstraint, which adds nothing; a twist span
// below fixThresh is a stop like any other (Bullet's calcAngleInfo2 has no threshold for it).
TEST(ConeTwistVariational, UnsupportedConeTwistsAreRefusedByName) {
  ConeRod rod(btVector3(1, 0, 0), btVector3(0, 1, 0));
  rod.cone->setLimit(0.5, 0.5, 0.5, 0.8);
  test::expectErrorNaming([&] { rod.add(); }, "softness");
  rod.cone->setLimit(0.01, 0.5, 0.5);
  test::expectErrorNaming([&] { rod.add(); }, "fixThresh");
  rod.cone->setLimit(0.5, 0.5, NAN);
  test::expectErrorNaming([&] { rod.add(); }, "twistSpan");
  rod.cone->setLimit(0.5, 0.5, 0.5, 1.0, 0.3, 0.0);
  test::expectErrorNaming([&] { rod.add(); }, "relaxationFactor");
  rod.cone->setLimit(0.5, 0.5, 0.5);
  rod.cone->enableMotor(true);
  test::expectErrorNaming([&] { rod.add(); }, "motor");
  rod.cone->enableMotor(false);
  rod.cone->setAngularOnly(true);
  test::expectErrorNaming([&] { rod.add(); }, "angularOnly");
  rod.cone->setAngularOnly(false);
  rod.cone->setParam(BT_CONSTRAINT_CFM, 0.1, 3);
  test::expectErrorNaming([&] { rod.add(); }, "CFM");
  EXPECT_EQ(rod.scene.world().getNumConstraints(), 0);
  ConeRod small(btVector3(1, 0, 0), btVector3(0, 1, 0));
  small.cone->setLimit(0.5, 0.5, 0.02);
  small.add();
  EXPECT_EQ(small.scene.world().getNumConstraints(), 1);
}

}  // namespace
}  // namespace carom
