// The cost of the variational core: one free LGVI step (5.9) and one grid step that locates and
// resolves an impact (localization + jump), on Tran & Leok's Case I.
#include <benchmark/benchmark.h>

#include <memory>

#include "carom/core/collision_integrator.h"
#include "carom/core/lgvi.h"

namespace {

using namespace carom::core;

const Vec3 kGravity(0, 0, -9.80665);
const MassProperties kEllipsoid = uniformEllipsoid(1.0, {2, 3, 4});  // J = diag(5, 4, 2.6)
const BodyState kPaperStart{{0, 0, 10}, Mat3::Identity(), {2, 2, 10}, {4, -4, 4}};

void freeStep(benchmark::State& bench, RotationChart chart) {
  NewtonSettings newton;
  newton.chart = chart;
  BodyState s = kPaperStart;
  const ExternalLoad load{kGravity, Vec3::Zero(), Vec3::Zero()};
  for (auto _ : bench) {
    const FlowResult r = flow(kEllipsoid, s, 0.01, load, newton);
    s = r.state;
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK_CAPTURE(freeStep, cayley, RotationChart::kCayley);
BENCHMARK_CAPTURE(freeStep, exponential, RotationChart::kExponential);

// The grid step that contains Case I's first impact (t = 2.649 s, in the step from 2.64 s).
void locatedImpactStep(benchmark::State& bench, RootMethod method) {
  CollisionIntegratorSettings settings;
  settings.root.method = method;
  const CollisionIntegrator integrator(kEllipsoid, std::make_shared<Ellipsoid>(Vec3(2, 3, 4)),
                                       Plane(Vec3::UnitZ()), {kGravity, Vec3::Zero(), Vec3::Zero()},
                                       settings);
  BodyState s = kPaperStart;
  for (int k = 0; k < 264; ++k)
    s = integrator.step(s, k * 0.01).state;
  std::size_t impacts = 0;
  for (auto _ : bench) {
    const StepReport report = integrator.step(s, 2.64);
    impacts += report.impacts.size();
    benchmark::DoNotOptimize(report);
  }
  bench.counters["impacts/step"] =
      benchmark::Counter(static_cast<double>(impacts), benchmark::Counter::kAvgIterations);
}
BENCHMARK_CAPTURE(locatedImpactStep, illinois, RootMethod::kIllinois);
BENCHMARK_CAPTURE(locatedImpactStep, bisection, RootMethod::kBisection);

}  // namespace
