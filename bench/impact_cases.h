// The world-frame contacts the single-contact impact benchmarks share.
#pragma once

#include <random>
#include <vector>

#include "carom/core/impact/contact.h"

namespace carom::bench {

// A contact and a rough direction for it (unit, perpendicular to its normal).
struct ImpactCase {
  core::impact::Contact contact;
  core::Vec3 tangent;
};

// 256 approaching pairs of asymmetric bodies with full inertias, fixed seed: enough variety that
// branch prediction does not learn one case, small enough to stay in cache.
inline const std::vector<ImpactCase>& impactCases() {
  using core::Mat3;
  using core::Vec3;
  static const std::vector<ImpactCase> all = [] {
    std::mt19937_64 engine(2015);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto vector = [&] { return Vec3(unit(engine), unit(engine), unit(engine)); };
    auto body = [&] {
      core::impact::ContactBody b;
      b.inverseMass = 1.0 + 0.5 * unit(engine);
      const Mat3 q = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
      b.inverseInertiaWorld = q * (Vec3(2, 3, 4) + vector()).asDiagonal() * q.transpose();
      b.inverseInertiaWorld = 0.5 * (b.inverseInertiaWorld + b.inverseInertiaWorld.transpose());
      b.centerOfMass = vector();
      b.linearVelocity = vector();
      b.angularVelocity = vector();
      return b;
    };
    std::vector<ImpactCase> built;
    while (built.size() < 256) {
      ImpactCase c{{body(), body(), 0.5 * vector(), vector().normalized()}, vector()};
      const Vec3& n = c.contact.normal;
      c.tangent = (c.tangent - c.tangent.dot(n) * n).normalized();
      if (n.dot(core::impact::relativeVelocity(c.contact)) < 0.0) built.push_back(c);
    }
    return built;
  }();
  return all;
}

}  // namespace carom::bench
