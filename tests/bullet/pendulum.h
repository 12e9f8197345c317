// A Bullet pendulum the joint tests of every mode share: a sphere on a btPoint2PointConstraint to
// the world, released level with its pivot (90°), and its exact (elliptic-integral) period.
#pragma once

#include <gtest/gtest.h>

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

}  // namespace carom::test
