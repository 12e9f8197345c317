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

  core::Vec3 vector(double scale) {
    return core::Vec3(uniform(-scale, scale), uniform(-scale, scale), uniform(-scale, scale));
  }

  core::Vec3 unitVector() {
    core::Vec3 v;
    do {
      v = vector(1.0);
    } while (v.norm() < 0.1 || v.norm() > 1.0);
    return v.normalized();
  }

  core::Mat3 rotation() { return core::expSO3(uniform(0.0, 3.1) * unitVector()); }

  // A full (non-diagonal) inertia tensor: random principal moments obeying the triangle
  // inequality, in a random principal frame.
  core::Mat3 inertia() {
    const double a = uniform(0.5, 3.0), b = uniform(0.5, 3.0);
    const double c = uniform(std::abs(a - b) + 0.05, a + b - 0.05);
    const core::Mat3 Q = rotation();
    core::Mat3 J = Q * core::Vec3(a, b, c).asDiagonal() * Q.transpose();
    return 0.5 * (J + J.transpose());
  }

  core::MassProperties body() { return core::MassProperties::create(uniform(0.5, 3.0), inertia()); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace carom::test
