// The jointed Bullet scenes the joint tests of every mode share (joints_test.cpp for lcp mode,
// variational_joints_test.cpp): a pendulum with its exact (elliptic-integral) period, a double
// pendulum, a box on a slider down a slope, a chain of hinged capsules, Newton's cradle on strings,
// a welded rod landing flat.
#pragma once

#include <gtest/gtest.h>

#include <BulletDynamics/ConstraintSolver/btFixedConstraint.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "carom/carom.h"
#include "world_scene.h"

namespace carom::test {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kG = 9.81;  // m/s², the scenes' gravity

// The energy's band over a window of steps (J).
struct Band {
  double low = INFINITY, high = -INFINITY;
  void add(double energy) {
    low = std::min(low, energy);
    high = std::max(high, energy);
  }
  double width() const { return high - low; }
};

// An LGVI's energy band that neither grows nor moves (J): the band over the first window of steps
// narrower than 2e-4 `scale` (J, the system's m g L), the last window's no wider than the first's
// × (1 + `growth`), neither edge moved by more than 1e-6 scale, and the band's middle the starting
// energy `energy0` within 1e-4 scale.
inline void expectBandWithoutDrift(const Band& first, const Band& last, double energy0,
                                   double scale, double growth) {
  EXPECT_LT(first.width(), 2e-4 * scale);
  EXPECT_LE(last.width(), first.width() * (1 + growth));
  EXPECT_GE(last.low, first.low - 1e-6 * scale);
  EXPECT_LE(last.high, first.high + 1e-6 * scale);
  EXPECT_NEAR(0.5 * (first.low + first.high), energy0, 1e-4 * scale);
}

// `value` as %.3e, for a test's recorded measurements (RecordProperty).
inline std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}

// K(k), the complete elliptic integral of the first kind, by the arithmetic-geometric mean:
// K = π / (2 AGM(1, √(1 − k²))), converging quadratically (ten rounds are far beyond round-off).
inline double ellipticK(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 10; ++i) {
    const double next = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = next;
  }
  return kPi / (2.0 * a);
}

// A body's world angular momentum about its centre of mass, R J Rᵀ ω (kg m²/s).
inline btVector3 angularMomentum(const btRigidBody& body) {
  const btMatrix3x3& R = body.getCenterOfMassTransform().getBasis();
  const btVector3 inverse = body.getInvInertiaDiagLocal();
  const btMatrix3x3 inertia =
      btMatrix3x3(1 / inverse.x(), 0, 0, 0, 1 / inverse.y(), 0, 0, 0, 1 / inverse.z());
  return R * inertia * R.transpose() * body.getAngularVelocity();
}

// A compound pendulum: a sphere (radius r, 1 kg) on a point-to-point joint to the world at
// `pivot`, its centre `length` from the pivot, released at rest level with it (90°).
struct Pendulum {
  static constexpr double kLength = 1.0;   // m
  static constexpr double kRadius = 0.05;  // m
  explicit Pendulum(const Config& config) : scene(config) {
    bob = scene.add(new btSphereShape(kRadius), 1.0, pivot + btVector3(kLength, 0, 0));
    joint = std::make_unique<btPoint2PointConstraint>(*bob, btVector3(-kLength, 0, 0));
    joint->setPivotB(pivot);  // the world's point (the joint's B is the fixed body)
    scene.world().addConstraint(joint.get());
  }
  // The joint's position error: the bob's pivot point's distance from the world's (m).
  double jointError() const {
    return (bob->getCenterOfMassTransform() * btVector3(-kLength, 0, 0) - pivot).length();
  }
  double energy() { return totalEnergy(scene.world()); }
  // The exact period of a compound pendulum of amplitude 90°: 4 √(I_p / (m g L)) K(sin 45°).
  static double exactPeriod() {
    const double inertia = kLength * kLength + 0.4 * kRadius * kRadius;  // about the pivot, m = 1
    return 4.0 * std::sqrt(inertia / (kG * kLength)) * ellipticK(std::sqrt(0.5));
  }
  Scene<DynamicsWorld> scene;
  btVector3 pivot{0, 2, 0};
  btRigidBody* bob;
  std::unique_ptr<btPoint2PointConstraint> joint;
};

// The mean period over the first `periods` periods at step h: the time between the bob's first
// and last downward crossings of the vertical through the pivot, interpolated within a step.
inline double measuredPeriod(const Config& config, double h, int periods) {
  Pendulum pendulum(config);
  std::vector<double> crossings;  // instants where x goes from > 0 to <= 0
  double x = Pendulum::kLength, t = 0;
  const int steps = static_cast<int>((periods + 0.5) * Pendulum::exactPeriod() / h);
  for (int i = 0; i < steps; ++i) {
    pendulum.scene.world().stepSimulation(h, 1, h);
    t += h;
    const double next = pendulum.bob->getCenterOfMassPosition().x() - pendulum.pivot.x();
    if (x > 0 && next <= 0) crossings.push_back(t - h * next / (next - x));
    x = next;
  }
  EXPECT_EQ(static_cast<int>(crossings.size()), periods + 1);
  return (crossings.back() - crossings.front()) / periods;
}

// A double pendulum of two 1 m rods (1 kg boxes) on hinges about z, released level: the upper
// hung from the world at (0, 3, 0), the lower from its end.
struct DoublePendulum {
  explicit DoublePendulum(Scene<DynamicsWorld>& scene) {
    upper = scene.add(new btBoxShape(btVector3(0.5, 0.05, 0.05)), 1.0, btVector3(0.5, 3, 0));
    lower = scene.add(new btBoxShape(btVector3(0.5, 0.05, 0.05)), 1.0, btVector3(1.5, 3, 0));
    scene.addJoint(new btHingeConstraint(*upper, btVector3(-0.5, 0, 0), btVector3(0, 0, 1)), true);
    scene.addJoint(
        new btHingeConstraint(*upper, *lower, btVector3(0.5, 0, 0), btVector3(-0.5, 0, 0),
                              btVector3(0, 0, 1), btVector3(0, 0, 1)),
        true);
  }
  // How far apart the elbow's two points are (m).
  double elbowGap() const {
    const btVector3 end = upper->getCenterOfMassTransform() * btVector3(0.5, 0, 0);
    const btVector3 start = lower->getCenterOfMassTransform() * btVector3(-0.5, 0, 0);
    return (end - start).length();
  }
  btRigidBody* upper;
  btRigidBody* lower;
};

// A 0.2 m box (1 kg) at (0, 2, 0) on a slider to the world along a 30° incline, free along it.
struct SlopeSlider {
  static constexpr double kSlope = kPi / 6;
  explicit SlopeSlider(Scene<DynamicsWorld>& scene) {
    box = scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, start);
    const btTransform frame(btQuaternion(btVector3(0, 0, 1), -kSlope), btVector3(0, 0, 0));
    auto* slider = new btSliderConstraint(*box, btTypedConstraint::getFixedBody(), frame,
                                          btTransform(frame.getRotation(), start), true);
    slider->setLowerLinLimit(1);  // lower > upper: free along the line
    slider->setUpperLinLimit(-1);
    scene.addJoint(slider, false);
    along = quatRotate(frame.getRotation(), btVector3(1, 0, 0));
  }
  // The part of `v` off the slider's line.
  btVector3 across(const btVector3& v) const { return v - v.dot(along) * along; }
  btVector3 start{0, 2, 0};
  btRigidBody* box;
  btVector3 along;  // the line, downhill
};

// `count` capsules (1 kg, 0.3 m long) joined end to end by hinges about z, straight and tilted
// by 0.2 rad, the low end `height` above the ground.
struct HingedChain {
  static constexpr double kRadius = 0.05, kHalf = 0.1, kLink = 2 * (kHalf + kRadius);  // m
  HingedChain(Scene<DynamicsWorld>& scene, int count, double height) {
    const double slope = 0.2;  // rad
    const btQuaternion tilt(btVector3(0, 0, 1), slope);
    for (int i = 0; i < count; ++i) {
      btRigidBody* body = scene.add(new btCapsuleShapeX(kRadius, 2 * kHalf), 1.0,
                                    btVector3((i + 0.5) * kLink * std::cos(slope),
                                              height + (i + 0.5) * kLink * std::sin(slope), 0));
      body->setCenterOfMassTransform(btTransform(tilt, body->getCenterOfMassPosition()));
      if (!links.empty()) {
        scene.addJoint(new btHingeConstraint(*links.back(), *body, btVector3(0.5 * kLink, 0, 0),
                                             btVector3(-0.5 * kLink, 0, 0), btVector3(0, 0, 1),
                                             btVector3(0, 0, 1)),
                       true);
      }
      links.push_back(body);
    }
  }
  // The largest distance between a hinge's two points (m).
  double largestGap() const {
    double gap = 0;
    for (std::size_t j = 1; j < links.size(); ++j) {
      const btVector3 end = links[j - 1]->getCenterOfMassTransform() * btVector3(0.5 * kLink, 0, 0);
      const btVector3 start = links[j]->getCenterOfMassTransform() * btVector3(-0.5 * kLink, 0, 0);
      gap = std::max(gap, (end - start).length());
    }
    return gap;
  }
  std::vector<btRigidBody*> links;
};

// Newton's cradle on strings: five 0.1 m balls (1 kg, material "test"), each on a point-to-point
// joint 0.3 m below its pivot, 1 mm apart; the first released from 30°.
struct CradleOnStrings {
  static constexpr double kRadius = 0.1, kLength = 0.3, kGap = 1e-3, kRelease = kPi / 6;
  explicit CradleOnStrings(Scene<DynamicsWorld>& scene) {
    for (int i = 0; i < 5; ++i) {
      const btVector3 pivot(i * (2 * kRadius + kGap), 1.0, 0);
      const double angle = i == 0 ? kRelease : 0.0;
      btRigidBody* ball =
          scene.add(new btSphereShape(kRadius), 1.0,
                    pivot + btVector3(-kLength * std::sin(angle), -kLength * std::cos(angle), 0));
      scene.world().setMaterial(ball, "test");
      scene.addJoint(
          new btPoint2PointConstraint(*ball, ball->getCenterOfMassTransform().inverse() * pivot),
          false);
      balls.push_back(ball);
    }
  }
  // The first ball's speed at the bottom: (m L² + I_c) ω² / 2 = m g L (1 − cos 30°).
  static double bottomSpeed() {
    const double inertia = kLength * kLength + 0.4 * kRadius * kRadius;
    return kLength * std::sqrt(2 * kG * kLength * (1 - std::cos(kRelease)) / inertia);
  }
  // The first ball's height when released (m), and its drop to the bottom.
  static double releaseHeight() { return 1.0 - kLength * std::cos(kRelease); }
  static double drop() { return releaseHeight() - (1.0 - kLength); }
  std::vector<btRigidBody*> balls;
};

// A rod 0.8 m × 0.2 m × 0.2 m landing flat at 1 m/s on the ground (Newton's e = 0.5, μ = 0.3, no
// gravity) in `kind`: two boxes of 1 kg welded side by side (btFixedConstraint), or one box of
// 2 kg. After the step of the strike: its parts' mean velocity (m/s), and the largest of a part's
// spin plus its velocity's difference from the mean (m/s and rad/s; 0 for a rod moving level).
struct Landing {
  btVector3 velocity;
  double unlevel;
};
inline Landing flatLanding(SolverKind kind, bool welded) {
  Scene<DynamicsWorld> scene(configWithMaterial(kind, ImpactLawKind::kNewton, 0.5, 0.3));
  scene.useMultipointManifolds();
  std::vector<btRigidBody*> parts;
  if (welded) {
    for (const double x : {-0.2, 0.2}) {
      parts.push_back(scene.add(new btBoxShape(btVector3(0.2, 0.1, 0.1)), 1.0,
                                btVector3(x, 0.15, 0), btVector3(0, -1, 0)));
    }
    scene.addJoint(
        new btFixedConstraint(*parts[0], *parts[1],
                              btTransform(btQuaternion::getIdentity(), btVector3(0.2, 0, 0)),
                              btTransform(btQuaternion::getIdentity(), btVector3(-0.2, 0, 0))),
        true);
  } else {
    parts.push_back(scene.add(new btBoxShape(btVector3(0.4, 0.1, 0.1)), 2.0, btVector3(0, 0.15, 0),
                              btVector3(0, -1, 0)));
  }
  for (btRigidBody* part : parts)
    scene.world().setMaterial(part, "test");
  scene.world().setMaterial(scene.addGround(), "test");
  scene.world().setGravity(btVector3(0, 0, 0));
  for (int i = 0; i < 100 && scene.world().getImpactEvents().empty(); ++i)
    scene.world().stepSimulation(1.0 / 240, 1, 1.0 / 240);  // 0.05 m at 1 m/s: the 13th step
  Landing landing{btVector3(0, 0, 0), 0.0};
  for (btRigidBody* part : parts)
    landing.velocity += part->getLinearVelocity() / parts.size();
  for (btRigidBody* part : parts) {
    landing.unlevel =
        std::max(landing.unlevel, (part->getLinearVelocity() - landing.velocity).length() +
                                      part->getAngularVelocity().length());
  }
  return landing;
}

// The welded rod landing flat is struck as the one box of its shape: both rebound level at e = 0.5
// times the landing speed, to 1e-9.
inline void expectWeldedRodStruckAsItsBox(SolverKind kind) {
  const Landing box = flatLanding(kind, false);
  const Landing rod = flatLanding(kind, true);
  ::testing::Test::RecordProperty("rodUnlevel", scientific(rod.unlevel));
  EXPECT_NEAR(box.velocity.y(), 0.5, 1e-9);  // Newton's e = 0.5 at 1 m/s
  EXPECT_LT(box.unlevel, 1e-9);
  EXPECT_NEAR(rod.velocity.y(), box.velocity.y(), 1e-9);
  EXPECT_LT(std::hypot(rod.velocity.x(), rod.velocity.z()), 1e-9);
  EXPECT_LT(rod.unlevel, 1e-9);
}

}  // namespace carom::test
