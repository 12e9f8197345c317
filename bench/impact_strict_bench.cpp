// Nanoseconds per single-contact impact: the strict collision maps (roughness 0, 1, 2) against
// the classical Newton and Poisson laws with Coulomb friction. Each call includes validation of
// the contact and parameters and the impulse application, as a caller pays for them.
#include <benchmark/benchmark.h>

#include "carom/core/impact/classical.h"
#include "carom/core/impact/strict.h"
#include "impact_cases.h"

namespace {

using carom::bench::ImpactCase;
using carom::bench::impactCases;
using carom::core::impact::ClassicalParameters;
using carom::core::impact::StrictParameters;

void BM_StrictImpact(benchmark::State& state) {
  StrictParameters parameters;
  parameters.roughness = static_cast<int>(state.range(0));
  std::size_t i = 0;
  for (auto _ : state) {
    const ImpactCase& c = impactCases()[i++ % impactCases().size()];
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
    const ImpactCase& c = impactCases()[i++ % impactCases().size()];
    benchmark::DoNotOptimize(law(c.contact, parameters));
  }
}
BENCHMARK_TEMPLATE(BM_ClassicalImpact, carom::core::impact::newtonImpact)->Name("BM_NewtonImpact");
BENCHMARK_TEMPLATE(BM_ClassicalImpact, carom::core::impact::poissonImpact)
    ->Name("BM_PoissonImpact");

}  // namespace
