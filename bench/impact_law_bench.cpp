// The cost of choosing the law at run time: every law through applyLaw (law.h) on the contacts of
// impact_strict_bench.cpp, with the parameters used there, next to Stronge's world-frame call
// made directly. BM_ApplyLaw/N minus the matching direct benchmark is the dispatch overhead.
#include <benchmark/benchmark.h>

#include <vector>

#include "carom/core/impact/law.h"
#include "impact_cases.h"

namespace carom::core::impact {
namespace {

using bench::ImpactCase;
using bench::impactCases;

// Stronge's parameters for the world-frame benchmarks: sliding, sticking and resumed slip all
// occur among the random contacts.
StrongeParameters strongeParameters() {
  StrongeParameters parameters;
  parameters.friction = 0.3;
  parameters.restitution = 0.5;
  return parameters;
}

// The benchmark argument's law for contact `c`: 0–2 strict of that roughness rank (elastic),
// 3 Stronge, 4 Newton, 5 Poisson (e = 0.5, μ = 0.3 as in impact_strict_bench.cpp).
ImpactLaw lawFor(int which, const ImpactCase& c) {
  const ClassicalParameters classical{0.5, 0.3};
  switch (which) {
    case 3:
      return StrongeLaw{strongeParameters()};
    case 4:
      return NewtonLaw{classical};
    case 5:
      return PoissonLaw{classical};
    default: {
      StrictLaw law;
      law.parameters.roughness = which;
      law.parameters.roughDirection = c.tangent;
      return law;
    }
  }
}

void BM_ApplyLaw(benchmark::State& state) {
  std::vector<ImpactLaw> laws;
  for (const ImpactCase& c : impactCases())
    laws.push_back(lawFor(state.range(0), c));
  state.SetLabel(toString(kindOf(laws.front())));
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % laws.size();
    benchmark::DoNotOptimize(applyLaw(impactCases()[k].contact, laws[k]));
  }
}
BENCHMARK(BM_ApplyLaw)->DenseRange(0, 5);

void BM_StrongeWorldImpact(benchmark::State& state) {
  const StrongeParameters parameters = strongeParameters();
  std::size_t i = 0;
  for (auto _ : state) {
    const ImpactCase& c = impactCases()[i++ % impactCases().size()];
    benchmark::DoNotOptimize(resolveStrongeImpact(c.contact, parameters));
  }
}
BENCHMARK(BM_StrongeWorldImpact);

}  // namespace
}  // namespace carom::core::impact
