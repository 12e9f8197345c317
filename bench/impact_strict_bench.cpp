// Nanoseconds per single-contact impact: the strict collision maps (roughness 0, 1, 2) against
// the classical Newton and Poisson laws with Coulomb friction. Each call includes validation of
// the contact and parameters and the impulse application, as a caller pays for them.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "carom/core/impact/classical.h"
#include "carom/core/impact/strict.h"

namespace {

using carom::core::Mat3;
using carom::core::Vec3;
using carom::core::impact::ClassicalParameters;
using carom::core::impact::Contact;
using carom::core::impact::ContactBody;
using carom::core::impact::StrictParameters;

// A rough direction paired with its contact (perpendicular to that contact's normal).
struct Case {
  Contact contact;
  Vec3 tangent;
};

// 256 approaching pairs of asymmetric bodies with full inertias, fixed seed: enough variety that
// branch prediction does not learn one case, small enough to stay in cache.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::mt19937_64 engine(2015);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto vector = [&] { return Vec3(unit(engine), unit(engine), unit(engine)); };
    auto body = [&] {
      ContactBody b;
      b.inverseMass = 1.0 + 0.5 * unit(engine);
      const Mat3 q = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
      b.inverseInertiaWorld = q * (Vec3(2, 3, 4) + vector()).asDiagonal() * q.transpose();
      b.inverseInertiaWorld = 0.5 * (b.inverseInertiaWorld + b.inverseInertiaWorld.transpose());
      b.centerOfMass = vector();
      b.linearVelocity = vector();
      b.angularVelocity = vector();
      return b;
    };
    std::vector<Case> built;
    while (built.size() < 256) {
      Case c{{body(), body(), 0.5 * vector(), vector().normalized()}, vector()};
      const Vec3& n = c.contact.normal;
      c.tangent = (c.tangent - c.tangent.dot(n) * n).normalized();
      if (n.dot(carom::core::impact::relativeVelocity(c.contact)) < 0.0) built.push_back(c);
    }
    return built;
  }();
  return all;
}

void BM_StrictImpact(benchmark::State& state) {
  StrictParameters parameters;
  parameters.roughness = static_cast<int>(state.range(0));
  std::size_t i = 0;
  for (auto _ : state) {
    const Case& c = cases()[i++ % cases().size()];
    parameters.roughDirection = c.tangent;
    benchmark::DoNotOptimize(carom::core::impact::strictImpact(c.contact, parameters));
  }
}
BENCHMARK(BM_StrictImpact)->Arg(0)->Arg(1)->Arg(2);

template <auto law>
void BM_ClassicalImpact(benchmark::State& state) {
  ClassicalParameters parameters;
  parameters.restitution = 0.5;
  parameters.friction = 0.3;
  std::size_t i = 0;
  for (auto _ : state) {
    const Case& c = cases()[i++ % cases().size()];
    benchmark::DoNotOptimize(law(c.contact, parameters));
  }
}
BENCHMARK_TEMPLATE(BM_ClassicalImpact, carom::core::impact::newtonImpact)->Name("BM_NewtonImpact");
BENCHMARK_TEMPLATE(BM_ClassicalImpact, carom::core::impact::poissonImpact)
    ->Name("BM_PoissonImpact");

}  // namespace
