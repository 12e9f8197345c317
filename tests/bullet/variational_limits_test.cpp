// Hinge and slider limits and motors in variational mode (plugin/bullet/variational_limits.h): a
// stop struck at its instant inside the step by Newton's restitution with the joints held, a hinge
// resting on its stop held there, a motor's bounded kick. Expected values are closed forms: of the
// motion, or, for an instant inside a step, of the LGVI's own discrete flow (a free rotation about
// a principal axis turns by asin(h ω) in a step of h, Tran & Leok (5.9c)), never this code's
// output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>

#include "carom/carom.h"
#include "joint_scenes.h"
#include "support/errors.h"
#include "world_scene.h"

namespace carom {
namespace {

using test::Band;
using test::kG;
using test::kPi;
using test::Scene;

// A rod (a 1 kg box 1 m long, 0.1 m square) on a hinge to the world about z, at one end (`atEnd`)
// or through its centre, level along x.
struct Rod {
  static constexpr double kHalf = 0.5;  // m
  explicit Rod(bool atEnd, bool useReferenceFrameA = false)
      : scene(test::configWith(SolverKind::variational)) {
    rod = scene.add(new btBoxShape(btVector3(kHalf, 0.05, 0.05)), 1.0,
                    btVector3(atEnd ? kHalf : 0, 2, 0));
    hinge = std::make_unique<btHingeConstraint>(*rod, btVector3(atEnd ? -kHalf : 0, 0, 0),
                                                btVector3(0, 0, 1), useReferenceFrameA);
  }
  void add() { scene.world().addConstraint(hinge.get(), true); }
  // Moments of inertia about z (kg m²): m (4a² + 4b²)/12 about the centre, + m a² at the end.
  static double centreInertia() { return (4 * kHalf * kHalf + 4 * 0.05 * 0.05) / 12.0; }
  static double endInertia() { return centreInertia() + kHalf * kHalf; }
  double spin() const { return rod->getAngularVelocity().z(); }
  double kinetic() const { return 0.5 * centreInertia() * spin() * spin(); }
  Scene<DynamicsWorld> scene;
  btRigidBody* rod;
  std::unique_ptr<btHingeConstraint> hinge;
};

void elasticStops(bool useReferenceFrameA);

// Spinning at ω without gravity about its centre (a principal axis: the joint does no work) between
// stops at ±0.5 rad, elastic (relaxation × bias = 1): the first strike comes at the discrete flow's
// instant, found from where the rod is at the end of that step, and every strike reverses the spin
// and keeps the energy. Bullet's angle turns the other way with useReferenceFrameA: the rod then
// strikes the low stop first, placed to be reached at the same instant.
TEST(JointLimitsVariational, ElasticStopsStrikeAtTheirInstantAndKeepTheEnergy) {
  for (const bool referenceA : {false, true}) {
    SCOPED_TRACE(referenceA);
    elasticStops(referenceA);
  }
}

void elasticStops(bool useReferenceFrameA) {
  // The stop it strikes first 0.5 rad away, the other 0.8 rad.
  const double h = 1.0 / 60, omega = 2.0, stop = 0.5, far = 0.8;
  Rod rod(false, useReferenceFrameA);
  rod.scene.world().setGravity(btVector3(0, 0, 0));
  const double low = useReferenceFrameA ? -stop : -far, high = useReferenceFrameA ? far : stop;
  rod.hinge->setLimit(low, high, 0.9, 1.0, 1.0);
  rod.add();
  rod.rod->setAngularVelocity(btVector3(0, 0, omega));
  const double energy0 = rod.kinetic();
  // The LGVI turns the rod by asin(α h ω) over a flow of αh (Tran & Leok (5.9c) about a principal
  // axis): n full steps, then the fraction α of the next reaches the stop.
  const double perStep = std::asin(h * omega);
  const int before = static_cast<int>(std::floor(stop / perStep));
  const double alpha = std::sin(stop - before * perStep) / (h * omega);
  const double instant = (before + alpha) * h;
  double worstEnergy = 0, beyond = 0;
  int reversals = 0;
  double lastSpin = omega;
  for (int i = 1; i <= 300; ++i) {  // 5 s: strikes at 0.25 s, then every 0.65 s
    rod.scene.world().stepSimulation(h, 1, h);
    const double angle = rod.hinge->getHingeAngle();
    beyond = std::max({beyond, low - angle, angle - high});
    worstEnergy = std::max(worstEnergy, std::abs(rod.kinetic() - energy0) / energy0);
    if (rod.spin() * lastSpin < 0) ++reversals;
    lastSpin = rod.spin();
    if (i == before + 1) {
      // Struck at αh into the step, it has turned back by asin((1 − α) h ω) since.
      ASSERT_LT(rod.spin(), 0) << "no strike in the step of the instant";
      EXPECT_GT(angle * (useReferenceFrameA ? -1 : 1), 0);  // Bullet's angle, either way
      const double struck = (i - 1 + 1 - std::sin(stop - std::abs(angle)) / (h * omega)) * h;
      ::testing::Test::RecordProperty("instantError", test::scientific(struck - instant));
      EXPECT_NEAR(struck, instant, 1e-9);
      EXPECT_NEAR(rod.spin(), -omega, 1e-12 * omega);
    }
  }
  ::testing::Test::RecordProperty("energyError", test::scientific(worstEnergy));
  ::testing::Test::RecordProperty("beyond", test::scientific(beyond));
  EXPECT_EQ(reversals, 8);
  EXPECT_LT(worstEnergy, 1e-12);
  EXPECT_LT(beyond, 1e-12);
}

// A partial bounce: Newton's restitution e = relaxationFactor × biasFactor (Bullet's hinge makes
// its stop's bounce speed so, and lcp mode reads it from those rows): the spin leaves the stop at
// −e ω and the strike takes exactly the Newton loss, (1 − e²) of the kinetic energy.
TEST(JointLimitsVariational, PartialBounceIsRelaxationTimesBias) {
  const double h = 1.0 / 60, omega = 2.0, stop = 0.5, e = 0.8 * 0.5;
  Rod rod(false);
  rod.scene.world().setGravity(btVector3(0, 0, 0));
  rod.hinge->setLimit(-stop, stop, 0.9, 0.5, 0.8);
  rod.add();
  rod.rod->setAngularVelocity(btVector3(0, 0, omega));
  const double energy0 = rod.kinetic();
  for (int i = 0; i < 30 && rod.spin() > 0; ++i)  // the strike comes after 0.25 s
    rod.scene.world().stepSimulation(h, 1, h);
  EXPECT_NEAR(rod.spin(), -e * omega, 1e-12 * omega);
  EXPECT_NEAR(rod.kinetic(), e * e * energy0, 1e-12 * energy0);
}

// The rod hinged at its end falls from level onto its stop at −45°. Elastic, it swings back up to
// level, over and over, its energy in the LGVI's band, which does not drift; plastic, it stays on
// the stop.
TEST(JointLimitsVariational, PendulumOnAnElasticStopKeepsItsEnergyBand) {
  const double h = 1.0 / 240, stop = kPi / 4;
  Rod rod(true);
  rod.hinge->setLimit(-stop, stop, 0.9, 1.0, 1.0);
  rod.add();
  const double energy0 = test::totalEnergy(rod.scene.world());
  const int steps = 4000, window = 1000;  // 16.7 s, 20 strikes
  Band first, last;
  double beyond = 0, highest = -stop;
  int strikes = 0;
  double lastSpin = 0;
  for (int i = 0; i < steps; ++i) {
    rod.scene.world().stepSimulation(h, 1, h);
    const double energy = test::totalEnergy(rod.scene.world());
    if (i < window) first.add(energy);
    if (i >= steps - window) last.add(energy);
    const double angle = rod.hinge->getHingeAngle();
    beyond = std::max(beyond, -stop - angle);
    if (i > steps / 2) highest = std::max(highest, angle);
    if (lastSpin < 0 && rod.spin() > 0 && angle < -stop / 2) ++strikes;
    lastSpin = rod.spin();
  }
  const double mga = kG * Rod::kHalf;  // J: the centre's potential energy 0.5 m below the pivot
  RecordProperty("firstBand", test::scientific(first.width() / mga));
  RecordProperty("lastBand", test::scientific(last.width() / mga));
  RecordProperty("highest", test::scientific(highest));
  RecordProperty("strikes", strikes);
  EXPECT_GE(strikes, 15);
  EXPECT_LT(beyond, 1e-12);
  test::expectBandWithoutDrift(first, last, energy0, mga, 0.05);
  EXPECT_NEAR(highest, 0.0, 1e-2);  // back up to level each time
}

TEST(JointLimitsVariational, PendulumOnAPlasticStopRestsOnIt) {
  const double h = 1.0 / 240, stop = kPi / 4;
  Rod rod(true);
  rod.hinge->setLimit(-stop, stop, 0.9, 0.3, 0.0);  // restitution 0 × 0.3
  rod.add();
  double worstRest = 0, beyond = 0, fastest = 0;
  int struck = -1;
  for (int i = 0; i < 1200; ++i) {  // 5 s; the fall takes 0.45 s
    rod.scene.world().stepSimulation(h, 1, h);
    const double angle = rod.hinge->getHingeAngle();
    beyond = std::max(beyond, -stop - angle);
    if (struck < 0 && angle < -stop + 1e-9) struck = i;
    if (struck >= 0) {
      worstRest = std::max(worstRest, std::abs(angle + stop));
      fastest = std::max(
          fastest, rod.rod->getAngularVelocity().length() + rod.rod->getLinearVelocity().length());
    }
  }
  RecordProperty("struck", struck);
  RecordProperty("offStop", test::scientific(worstRest));
  RecordProperty("speed", test::scientific(fastest));
  ASSERT_GE(struck, 0) << "never reached its stop";
  EXPECT_LT(struck, 120);
  EXPECT_LT(worstRest, 1e-9);
  EXPECT_LT(beyond, 1e-9);
  EXPECT_LT(fastest, 1e-9);
}

// A partial bounce under gravity, e = 0.5: the rod falls from level onto its stop at −45° and
// rebounds with e² of its kinetic energy, rising to sin θ = −(1 − e²) sin 45°; its bounces shrink
// until a rebound would come back within a step, which ends plastically on the stop, held there.
TEST(JointLimitsVariational, PendulumOnAPartialStopRisesByE2AndSettles) {
  const double h = 1.0 / 240, stop = kPi / 4, e = 0.5;
  Rod rod(true);
  rod.hinge->setLimit(-stop, stop, 0.9, 0.5, 1.0);  // restitution 1 × 0.5
  rod.add();
  const double peak = -std::asin((1 - e * e) * std::sin(stop));
  double firstPeak = -10, lastSpin = 0, beyond = 0;
  int rebounds = 0;
  for (int i = 0; i < 1200; ++i) {  // 5 s
    rod.scene.world().stepSimulation(h, 1, h);
    const double angle = rod.hinge->getHingeAngle();
    beyond = std::max(beyond, -stop - angle);
    if (lastSpin <= 0 && rod.spin() > 0) ++rebounds;
    if (rebounds == 1) firstPeak = std::max(firstPeak, angle);
    lastSpin = rod.spin();
  }
  RecordProperty("firstPeakError", test::scientific(firstPeak - peak));
  RecordProperty("rebounds", rebounds);
  EXPECT_NEAR(firstPeak, peak, 1e-4);  // the LGVI at 240 Hz: 1.2e-5
  EXPECT_GE(rebounds, 2);
  EXPECT_LT(beyond, 1e-12);
  EXPECT_NEAR(rod.hinge->getHingeAngle(), -stop, 1e-9);  // at rest on its stop
  EXPECT_LT(std::abs(rod.spin()), 1e-9);
}

// The rod about its end, no gravity, driven toward 3 rad/s by a motor of at most 0.004 N m s a
// step: each step's kick adds that much angular momentum about the hinge until the target is
// reached, which it then holds.
TEST(JointLimitsVariational, MotorAcceleratesAtItsBoundedRateThenHoldsItsTarget) {
  const double h = 1.0 / 240, target = 3.0, maxImpulse = 0.004;
  Rod rod(true);
  rod.scene.world().setGravity(btVector3(0, 0, 0));
  rod.hinge->enableAngularMotor(true, target, maxImpulse);
  rod.add();
  const double rate = maxImpulse / Rod::endInertia();  // rad/s a step
  const int capped = static_cast<int>(std::floor(target / rate));
  double worstRamp = 0, worstHold = 0;
  for (int n = 1; n <= capped + 100; ++n) {
    rod.scene.world().stepSimulation(h, 1, h);
    if (n <= capped) {
      worstRamp = std::max(worstRamp, std::abs(rod.spin() - n * rate));
    } else {
      worstHold = std::max(worstHold, std::abs(rod.spin() - target));
    }
  }
  RecordProperty("rampError", test::scientific(worstRamp));
  RecordProperty("holdError", test::scientific(worstHold));
  EXPECT_LT(worstRamp, 1e-10 * target);
  EXPECT_LT(worstHold, 1e-10 * target);
}

// A 1 kg box (0.2 m cube) on a slider to the world along x at (0, 2, 0). Bullet's position s is
// (p_B − p_A)·x_A with useLinearReferenceFrameA, A the box and B the world: s = −Δx.
struct SlidingBox {
  explicit SlidingBox(SolverKind kind = SolverKind::variational) : scene(test::configWith(kind)) {
    box = scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, start);
    slider = std::make_unique<btSliderConstraint>(
        *box, btTypedConstraint::getFixedBody(), btTransform::getIdentity(),
        btTransform(btQuaternion::getIdentity(), start), true);
    slider->setLowerLinLimit(1);  // free until a test limits it
    slider->setUpperLinLimit(-1);
  }
  void add() { scene.world().addConstraint(slider.get(), true); }
  // Bullet's own reading of the slider's position (m).
  double position() {
    slider->calculateTransforms(box->getCenterOfMassTransform(),
                                btTypedConstraint::getFixedBody().getCenterOfMassTransform());
    slider->testLinLimits();  // where Bullet keeps it
    return slider->getLinearPos();
  }
  double speed() const { return box->getLinearVelocity().x(); }  // m/s, along x
  btVector3 start{0, 2, 0};
  Scene<DynamicsWorld> scene;
  btRigidBody* box;
  std::unique_ptr<btSliderConstraint> slider;
};

// Sliding at 1.5 m/s without gravity between stops at s = −0.5 m and 0.3 m, elastic
// (|1 − dampingLimLin| × softnessLimLin = 1): the LGVI's translation is exact, so the first strike
// comes at 0.5 m / 1.5 m/s, found from where the box is at the end of that step; each strike
// reverses the velocity and keeps the energy.
TEST(JointLimitsVariational, SliderStopsStrikeAtTheirInstantAndKeepTheEnergy) {
  const double h = 1.0 / 60, v = 1.5, low = -0.5, high = 0.3;
  SlidingBox slider;
  slider.scene.world().setGravity(btVector3(0, 0, 0));
  slider.slider->setLowerLinLimit(low);
  slider.slider->setUpperLinLimit(high);
  slider.slider->setDampingLimLin(0.0);
  slider.add();
  slider.box->setLinearVelocity(btVector3(v, 0, 0));
  const double instant = -low / v;
  int reversals = 0;
  double lastSpeed = v, worstSpeed = 0, beyond = 0;
  for (int i = 1; i <= 170; ++i) {  // 2.8 s: strikes at 1/3 s, then every 0.53 s
    slider.scene.world().stepSimulation(h, 1, h);
    const double s = slider.position();
    beyond = std::max({beyond, low - s, s - high});
    if (i == 1) {
      EXPECT_NEAR(s, -v * h, 1e-15);  // Bullet's s is −Δx, as the step's
    }
    if (slider.speed() * lastSpeed < 0) {
      if (++reversals == 1) {
        // Struck at the low stop, it has come back by v (t − t*) since.
        const double struck = i * h - (s - low) / v;
        RecordProperty("sliderInstantError", test::scientific(struck - instant));
        EXPECT_NEAR(struck, instant, 1e-9);
      }
    }
    lastSpeed = slider.speed();
    worstSpeed = std::max(worstSpeed, std::abs(std::abs(slider.speed()) - v));
  }
  RecordProperty("sliderSpeedError", test::scientific(worstSpeed));
  EXPECT_EQ(reversals, 5);
  EXPECT_LT(worstSpeed, 1e-12 * v);
  EXPECT_LT(beyond, 1e-12);
  EXPECT_LT(slider.box->getAngularVelocity().length(), 1e-12);
}

// Gravity along the slider (+x) carries the box onto its low stop, plastic by Bullet's default
// dampingLimLin of 1, where it rests without creeping through.
TEST(JointLimitsVariational, SliderRestsOnAPlasticStop) {
  const double h = 1.0 / 240, low = -0.5;
  SlidingBox slider;
  slider.scene.world().setGravity(btVector3(kG, 0, 0));
  slider.slider->setLowerLinLimit(low);
  slider.slider->setUpperLinLimit(0.3);
  slider.add();
  int struck = -1;
  double offStop = 0, fastest = 0;
  for (int i = 0; i < 480; ++i) {  // 2 s; it falls 0.5 m in 0.32 s
    slider.scene.world().stepSimulation(h, 1, h);
    const double s = slider.position();
    if (struck < 0 && s < low + 1e-9) struck = i;
    if (struck >= 0) {
      offStop = std::max(offStop, std::abs(s - low));
      fastest = std::max(fastest, slider.box->getLinearVelocity().length());
    }
  }
  RecordProperty("sliderOffStop", test::scientific(offStop));
  ASSERT_GE(struck, 0) << "never reached its stop";
  EXPECT_LT(offStop, 1e-9);
  EXPECT_LT(fastest, 1e-9);
}

// A slider motor toward s' = 2 m/s with at most 5 N: each step's kick adds 5 N × h of momentum
// until the target is reached, which it then holds; lcp mode (Bullet's rows) drives the same way.
TEST(JointLimitsVariational, SliderMotorAcceleratesAtItsBoundedRateThenHoldsItsTarget) {
  const double h = 1.0 / 240, target = 2.0, force = 5.0;
  const double rate = force * h;  // m/s a step, for 1 kg
  const int capped = static_cast<int>(std::floor(target / rate));
  double worstRamp = 0, worstHold = 0;
  for (const SolverKind kind : {SolverKind::variational, SolverKind::lcp}) {
    SlidingBox slider(kind);
    slider.scene.world().setGravity(btVector3(0, 0, 0));
    slider.slider->setPoweredLinMotor(true);
    slider.slider->setTargetLinMotorVelocity(target);
    slider.slider->setMaxLinMotorForce(force);
    slider.add();
    for (int n = 1; n <= capped + 50; ++n) {
      slider.scene.world().stepSimulation(h, 1, h);
      const double sDot = -slider.speed();  // s = −Δx
      if (kind == SolverKind::lcp) {
        if (n == 10) {
          EXPECT_NEAR(sDot, 10 * rate, 1e-3 * rate) << "lcp mode";
        }
        continue;
      }
      if (n <= capped) {
        worstRamp = std::max(worstRamp, std::abs(sDot - n * rate));
      } else {
        worstHold = std::max(worstHold, std::abs(sDot - target));
      }
    }
  }
  RecordProperty("sliderRampError", test::scientific(worstRamp));
  RecordProperty("sliderHoldError", test::scientific(worstHold));
  EXPECT_LT(worstRamp, 1e-12 * target);
  EXPECT_LT(worstHold, 1e-12 * target);
}

// Two 1 kg boxes on a slider between them, spinning together at 1 rad/s about z while they slide
// apart at 1 m/s, elastic stops at 0.2 m and 0.8 m apart, no gravity: the strikes are internal, so
// the pair's linear and angular momentum stay as they were (to round-off: the constrained LGVI
// keeps them exactly), the stops are never passed, and the boxes turn back.
TEST(JointLimitsVariational, SpinningSliderPairKeepsItsMomentaThroughItsStrikes) {
  Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  scene.world().setGravity(btVector3(0, 0, 0));
  const btVector3 centre(0, 2, 0), spin(0, 0, 1.0);
  btRigidBody* a =
      scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, centre - btVector3(0.3, 0, 0));
  btRigidBody* b =
      scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, centre + btVector3(0.3, 0, 0));
  for (btRigidBody* body : {a, b}) {
    const btVector3 arm = body->getCenterOfMassPosition() - centre;
    body->setLinearVelocity(arm / arm.length() * 0.5 + spin.cross(arm));
    body->setAngularVelocity(spin);
  }
  // The slider's frames off the boxes' centres (levers of their own in the stops' rows).
  const btTransform frame(btQuaternion::getIdentity(), btVector3(0, 0.1, 0.05));
  btSliderConstraint slider(*a, *b, frame, frame, true);
  slider.setLowerLinLimit(0.2);
  slider.setUpperLinLimit(0.8);
  slider.setDampingLimLin(0.0);  // elastic
  scene.world().addConstraint(&slider, true);
  const auto momenta = [&] {
    btVector3 linear(0, 0, 0), angular(0, 0, 0);
    for (btRigidBody* body : {a, b}) {
      linear += body->getLinearVelocity();  // 1 kg
      angular += body->getCenterOfMassPosition().cross(body->getLinearVelocity()) +
                 body->getInvInertiaTensorWorld().inverse() * body->getAngularVelocity();
    }
    return std::make_pair(linear, angular);
  };
  const auto [linear0, angular0] = momenta();
  const double h = 1.0 / 240;
  double worstLinear = 0, worstAngular = 0, beyond = 0;
  int reversals = 0;
  double lastRate = 1;
  for (int i = 0; i < 240; ++i) {  // 1 s: strikes at about 0.2 s and 0.8 s
    scene.world().stepSimulation(h, 1, h);
    const auto [linear, angular] = momenta();
    worstLinear = std::max(worstLinear, (linear - linear0).length());
    worstAngular = std::max(worstAngular, (angular - angular0).length() / angular0.length());
    slider.calculateTransforms(a->getCenterOfMassTransform(), b->getCenterOfMassTransform());
    slider.testLinLimits();
    const double s = slider.getLinearPos();
    beyond = std::max({beyond, 0.2 - s, s - 0.8});
    const btVector3 axis = a->getCenterOfMassTransform().getBasis().getColumn(0);
    const double rate = (b->getLinearVelocity() - a->getLinearVelocity()).dot(axis);
    if (rate * lastRate < 0) ++reversals;
    lastRate = rate;
  }
  RecordProperty("pairLinear", test::scientific(worstLinear));
  RecordProperty("pairAngular", test::scientific(worstAngular));
  RecordProperty("pairBeyond", test::scientific(beyond));
  EXPECT_GE(reversals, 2);
  EXPECT_LT(worstLinear, 1e-12);
  EXPECT_LT(worstAngular, 1e-12);
  EXPECT_LT(beyond, 1e-9);
}

// A ball dropped onto the free end of the rod resting level on its plastic stop: the strike is a
// contact impact of the jointed rod (its hinge's rows held), after which the stop holds the rod
// again, inside the same step; the rod never goes past its stop and the scene gains no energy.
TEST(JointLimitsVariational, RodOnItsStopStruckByABallStaysOnIt) {
  const double h = 1.0 / 240;
  Rod rod(true);
  rod.hinge->setLimit(0, kPi / 2, 0.9, 0.3, 0.0);  // level is its low stop; plastic
  rod.add();
  btRigidBody* ball =
      rod.scene.add(new btSphereShape(0.05), 0.2, btVector3(0.8, 2.05 + 0.05 + 0.3, 0));
  const double energy0 = test::totalEnergy(rod.scene.world());
  double beyond = 0, gained = 0, lowest = 10;
  for (int i = 0; i < 240; ++i) {  // 1 s: the ball lands after 0.25 s
    rod.scene.world().stepSimulation(h, 1, h);
    beyond = std::max(beyond, -rod.hinge->getHingeAngle());
    gained = std::max(gained, test::totalEnergy(rod.scene.world()) - energy0);
    lowest = std::min(lowest, ball->getCenterOfMassPosition().y());
  }
  RecordProperty("struckBeyond", test::scientific(beyond));
  RecordProperty("struckGained", test::scientific(gained));
  EXPECT_LT(lowest, 2.05 + 0.05 + 0.01);  // it reached the rod
  EXPECT_GT(lowest, 2.05 + 0.05 - 0.01);  // and did not pass through it
  EXPECT_LT(beyond, 1e-9);
  EXPECT_LT(gained, 1e-9);
}

// What the step cannot hold is refused by name at addConstraint, which adds nothing.
TEST(JointLimitsVariational, UnsupportedLimitsAreRefusedByName) {
  Rod rod(true);
  rod.hinge->setLimit(-1, 1, 0.9, 0.3, 1.5);
  test::expectErrorNaming([&] { rod.add(); }, "relaxationFactor");
  rod.hinge->setLimit(-1, 1, 0.9, 1.5, 1.0);
  test::expectErrorNaming([&] { rod.add(); }, "biasFactor");
  rod.hinge->setLimit(0.5, 0.5);
  test::expectErrorNaming([&] { rod.add(); }, "low equals its high");
  rod.hinge->setLimit(1, -1);  // free again
  rod.hinge->enableAngularMotor(true, 1.0, -1.0);
  test::expectErrorNaming([&] { rod.add(); }, "maxMotorImpulse");
  EXPECT_EQ(rod.scene.world().getNumConstraints(), 0);

  SlidingBox slider;
  slider.slider->setLowerLinLimit(0.2);
  slider.slider->setUpperLinLimit(0.2);
  test::expectErrorNaming([&] { slider.add(); }, "lower equals its upper");
  slider.slider->setUpperLinLimit(0.5);
  slider.slider->setDampingLimLin(2.5);
  test::expectErrorNaming([&] { slider.add(); }, "dampingLimLin");
  slider.slider->setDampingLimLin(1.0);
  slider.slider->setPoweredAngMotor(true);
  test::expectErrorNaming([&] { slider.add(); }, "angular motor");
  EXPECT_EQ(slider.scene.world().getNumConstraints(), 0);
}

}  // namespace
}  // namespace carom
