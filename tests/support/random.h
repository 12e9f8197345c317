// Seeded random inputs for property tests: the same seed gives the same cases on every machine.
#pragma once

#include <random>

#include "carom/core/body.h"
#include "carom/core/lie.h"

namespace carom::test {

class Random {
 public:
  explicit Random(unsigned seed) : engine_(seed) {}

  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }

  // Here and below each draw is its own statement: a call's arguments and an operator's operands
  // are evaluated in an order the compiler picks (g++ last to first, clang first to last), and
  // the cases must not depend on it. The order is g++'s, the one the tolerances were measured in.
  core::Vec3 vector(double scale) {
    const double z = uniform(-scale, scale);
    const double y = uniform(-scale, scale);
    const double x = uniform(-scale, scale);
    return {x, y, z};
  }

  core::Vec3 unitVector() {
    core::Vec3 v;
    do {
      v = vector(1.0);
    } while (v.norm() < 0.1 || v.norm() > 1.0);
    return v.normalized();
  }

  core::Mat3 rotation() {
    const core::Vec3 axis = unitVector();
    const double angle = uniform(0.0, 3.1);
    return core::expSO3(angle * axis);
  }

  // A full (non-diagonal) inertia tensor: random principal moments obeying the triangle
  // inequality, in a random principal frame.
  core::Mat3 inertia() {
    const double a = uniform(0.5, 3.0), b = uniform(0.5, 3.0);
    const double c = uniform(std::abs(a - b) + 0.05, a + b - 0.05);
    const core::Mat3 Q = rotation();
    core::Mat3 J = Q * core::Vec3(a, b, c).asDiagonal() * Q.transpose();
    return 0.5 * (J + J.transpose());
  }

  core::MassProperties body() {
    const core::Mat3 J = inertia();
    const double mass = uniform(0.5, 3.0);
    return core::MassProperties::create(mass, J);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace carom::test
