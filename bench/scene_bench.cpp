// Issue 5 §5: the same Bullet scenes stepped by stock Bullet (solver.kind = bullet), carom's lcp
// mode and its variational mode, side by side: wall time per step, its ratio to stock Bullet, and
// energy drift. Usage: carom-scene-bench [steps-per-scene] [seconds-per-run] [bin|pyramid|balls]
// (defaults 60 steps, 1 s at 60 Hz, 5 s, and every scene): a run that reaches its wall-time cap
// stops there and says how many steps it took, so the default stays under a minute.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "carom/error.h"
#include "scenes.h"

namespace {

using carom::SolverKind;
using carom::bench::World;

struct Run {
  int steps = 0;  // taken before the step count or the wall-time cap was reached
  double msPerStep = 0;
  double energyChange = 0;  // (E_end − E_0) / E_0
  double largestGain = 0;   // largest one-step energy increase / E_0: energy made by the solver
  std::size_t impacts = 0;
};

Run runScene(const std::function<void(World&)>& build, SolverKind kind, int steps, double cap) {
  World scene(carom::test::configWith(kind));
  build(scene);
  const double h = 1.0 / 60.0;
  const double e0 = carom::test::totalEnergy(scene.world());
  double previous = e0;
  Run run;
  std::chrono::duration<double, std::milli> stepping{0};
  for (; run.steps < steps && stepping.count() < 1000 * cap; ++run.steps) {
    const auto start = std::chrono::steady_clock::now();
    scene.world().stepSimulation(h, 1, h);
    stepping += std::chrono::steady_clock::now() - start;
    const double energy = carom::test::totalEnergy(scene.world());  // outside the timing
    run.largestGain = std::max(run.largestGain, (energy - previous) / e0);
    previous = energy;
  }
  run.msPerStep = stepping.count() / run.steps;
  run.energyChange = (previous - e0) / e0;
  run.impacts = scene.world().getImpactEvents().size();
  return run;
}

void compare(const char* name, int bodies, const std::function<void(World&)>& build, int steps,
             double cap) {
  std::printf("\n%s: %d dynamic bodies, %d steps at 60 Hz or %g s of stepping per mode\n", name,
              bodies, steps, cap);
  std::printf("  %-12s %6s %10s %9s %14s %16s %8s\n", "mode", "steps", "ms/step", "x bullet",
              "dE/E0 (run)", "max step gain/E0", "impacts");
  double stock = 0;
  for (SolverKind kind : {SolverKind::bullet, SolverKind::lcp, SolverKind::variational}) {
    Run run;
    try {
      run = runScene(build, kind, steps, cap);
    } catch (const carom::Error& error) {  // a mode that fails the scene says so in its row
      std::printf("  %-12s failed: %s\n", carom::toString(kind), error.what());
      continue;
    }
    if (kind == SolverKind::bullet) stock = run.msPerStep;
    std::printf("  %-12s %6d %10.3f %9.2f %14.3e %16.3e %8zu\n", carom::toString(kind), run.steps,
                run.msPerStep, run.msPerStep / stock, run.energyChange, run.largestGain,
                run.impacts);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 60;
  const double cap = argc > 2 ? std::atof(argv[2]) : 5.0;
  const std::string only = argc > 3 ? argv[3] : "";
  const bool known = only.empty() || only == "bin" || only == "pyramid" || only == "balls";
  if (steps <= 0 || !(cap > 0) || !known) {
    std::fprintf(stderr,
                 "usage: carom-scene-bench [steps-per-scene > 0] [seconds-per-run > 0] "
                 "[bin|pyramid|balls]\n");
    return 2;
  }
  const auto wanted = [&](const char* scene) { return only.empty() || only == scene; };
  if (wanted("bin")) {
    compare(
        "bin", 300, [](World& scene) { carom::bench::pourIntoBin(scene, 300); }, steps, cap);
  }
  if (wanted("pyramid")) {
    compare(
        "pyramid", 55, [](World& scene) { carom::bench::boxPyramid(scene, 10); }, steps, cap);
  }
  if (wanted("balls")) {
    compare(
        "elastic balls", 100, [](World& scene) { carom::bench::elasticBallsInABox(scene, 100); },
        steps, cap);
  }
  return 0;
}
