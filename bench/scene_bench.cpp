// The same Bullet scenes stepped by stock Bullet (solver.kind = bullet), carom's lcp mode and its
// variational mode, side by side: time per step, its ratio to stock Bullet measured in the same
// run, energy drift, the deepest overlap of any two shapes after a step and, in variational mode,
// the impact search's work per event. Times are CPU time of the run's process, all its threads
// (lcp mode's impact groups may use several: solver.threads), which another busy process on the
// machine disturbs less than wall time; the wall time per step and its ratio are printed beside
// them.
//
// A round's three runs are pinned to one CPU, the rounds taking the CPUs the process may use in
// turn: cores can differ (on the development VM one core ran the same code 1.4–1.5× slower than
// the other for minutes at a time), and a ratio of two runs on different cores measures the cores.
// lcp mode's solver.threads = 0 then counts that one CPU and starts no helper threads (a helper
// there only shared the CPU, its hand-overs costing context switches).
//
// Usage: carom-scene-bench [--rounds=N] [steps] [seconds] [scene ...]
//   rounds   times each scene's three modes are run, back to back (default 1); with more, each
//            mode's row gives the median over the rounds of its ms/step and of its ratio to stock
//            Bullet's run of the same round (on the same CPU)
//   steps    steps timed per scene and mode (default 60: 1 s at 60 Hz)
//   seconds  stepping CPU time after which a run stops early and says how many steps it took
//            (default 5); a single step still running at 4× this (plus 10 s) is reported as not
//            finished, its run killed: each run is a child process
//   scene    bin, bin-settled (steps 100–130 of the bin), pyramid, balls, scaling (the bin's mix
//            at 25 … 800 bodies and the fitted growth exponent), pyramid-drop (55 boxes, 4 cm
//            under each level), pyramid-drop-settled (its steps 60 on, landed), wall (a brick wall
//            at rest), hulls (1,000 convex hulls), ragdolls (8 of Bullet's ragdolls dropped onto
//            each other: hinges and cone-twist joints with their limits, 2 m apart as Bullet's
//            BenchmarkDemo stacks them), ragdolls-pile (their steps 85 on, as they land on each
//            other); default bin, pyramid and balls.
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "carom/bullet/gap.h"
#include "carom/error.h"
#include "scenes.h"

namespace {

using carom::SolverKind;
using carom::bench::World;

struct Run {
  int steps = 0;             // timed, before the step count or the wall-time cap was reached
  double msPerStep = 0;      // CPU time, every thread of the run's process
  double wallMsPerStep = 0;  // elapsed time
  double energyChange = 0;   // (E_end − E_0) / E_0
  double largestGain = 0;    // largest one-step energy increase / E_0: energy made by the solver
  double deepest = 0;        // the deepest overlap of two shapes after any step (m, ≥ 0)
  long impacts = 0;
  long events = 0;      // StepDiagnostics::impacts (landings included), summed (variational mode)
  long landings = 0;    // StepDiagnostics::landings, summed
  long probes = 0;      // StepDiagnostics::locationProbes, summed
  long gapQueries = 0;  // StepDiagnostics::gapQueries, summed
  char error[200] = {};
};

struct Scene {
  std::string name;
  int bodies;
  std::function<void(World&)> build;
  int skip = 0;  // steps taken untimed first
};

// How deep two shapes overlap after a step (m, 0 where none does): carom::gap, exact for the
// scenes' spheres, boxes and ellipsoids, over the broadphase's pairs with a dynamic body. The same
// measure for every mode, where each mode's own contacts (Bullet's manifolds, carom's contacts)
// would measure it differently.
double deepestOverlap(const carom::DynamicsWorld& world) {
  double deepest = 0;
  const btOverlappingPairCache& cache = *world.getBroadphase()->getOverlappingPairCache();
  for (int i = 0; i < cache.getNumOverlappingPairs(); ++i) {
    const btBroadphasePair& pair = cache.getOverlappingPairArrayPtr()[i];
    const auto* a = static_cast<const btCollisionObject*>(pair.m_pProxy0->m_clientObject);
    const auto* b = static_cast<const btCollisionObject*>(pair.m_pProxy1->m_clientObject);
    if (a->isStaticOrKinematicObject() && b->isStaticOrKinematicObject()) continue;
    if (!a->checkCollideWith(b) || !b->checkCollideWith(a)) continue;  // a ragdoll's jointed links
    const carom::Gap g = carom::gap(*a->getCollisionShape(), a->getWorldTransform(),
                                    *b->getCollisionShape(), b->getWorldTransform());
    deepest = std::max(deepest, -g.distance);
  }
  return deepest;
}

// `clock`'s time (ms): CLOCK_PROCESS_CPUTIME_ID (CPU time of every thread of the process: each
// run is a process of its own) or CLOCK_MONOTONIC (wall time).
double milliseconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

// A run of `scene` in `kind`'s mode; with `overlaps`, its deepest overlap measured after each step
// and its times not to be used: the queries between the steps slow the steps themselves (stock
// Bullet's steps of the 1,000 hulls took 16 ms instead of 8.8).
Run runScene(const Scene& scene, SolverKind kind, int steps, double cap, bool overlaps) {
  World world(carom::test::configWith(kind));
  scene.build(world);
  const double h = 1.0 / 60.0;
  for (int i = 0; i < scene.skip; ++i)
    world.world().stepSimulation(h, 1, h);
  const double e0 = carom::test::totalEnergy(world.world());
  world.world().clearImpactEvents();
  double previous = e0;
  Run run;
  double stepping = 0;  // ms of the process's CPU time: steadier than wall time on a busy machine
  double elapsed = 0;   // ms of wall time
  for (; run.steps < steps && stepping < 1000 * cap; ++run.steps) {
    const double start = milliseconds(CLOCK_PROCESS_CPUTIME_ID);
    const double wallStart = milliseconds(CLOCK_MONOTONIC);
    world.world().stepSimulation(h, 1, h);
    elapsed += milliseconds(CLOCK_MONOTONIC) - wallStart;
    stepping += milliseconds(CLOCK_PROCESS_CPUTIME_ID) - start;
    const double energy = carom::test::totalEnergy(world.world());  // outside the timing
    run.largestGain = std::max(run.largestGain, (energy - previous) / std::abs(e0));
    previous = energy;
    if (overlaps) run.deepest = std::max(run.deepest, deepestOverlap(world.world()));
    // A game reads a step's impacts and clears them before the next: kept for the whole run, their
    // list's growth would be timed as the step's.
    run.impacts += static_cast<long>(world.world().getImpactEvents().size());
    world.world().clearImpactEvents();
    const carom::StepDiagnostics& diagnostics = world.world().getLastStepDiagnostics();
    run.events += diagnostics.impacts;
    run.landings += diagnostics.landings;
    run.probes += diagnostics.locationProbes;
    run.gapQueries += diagnostics.gapQueries;
  }
  run.msPerStep = stepping / run.steps;
  run.wallMsPerStep = elapsed / run.steps;
  run.energyChange = (previous - e0) / std::abs(e0);
  return run;
}

// The CPUs this process may run on; empty where the system does not say.
std::vector<int> allowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// Runs `scene` in a child process pinned to `cpu` (none where negative): a step that does not
// finish cannot hang the benchmark.
std::optional<Run> runIsolated(const Scene& scene, SolverKind kind, int steps, double cap, int cpu,
                               bool overlaps = false) {
  int channel[2];
  if (pipe(channel) != 0) return std::nullopt;
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    Run run;
    cpu_set_t one;
    CPU_ZERO(&one);
    if (cpu >= 0) CPU_SET(cpu, &one);
    if (cpu >= 0 && sched_setaffinity(0, sizeof one, &one) != 0) {
      std::snprintf(run.error, sizeof run.error, "could not pin the run to CPU %d", cpu);
    } else {
      try {
        run = runScene(scene, kind, steps, cap, overlaps);
      } catch (const carom::Error& error) {  // a mode that fails the scene says so in its row
        std::snprintf(run.error, sizeof run.error, "%s", error.what());
      }
    }
    const ssize_t written = write(channel[1], &run, sizeof run);
    _exit(written == static_cast<ssize_t>(sizeof run) ? 0 : 1);
  }
  close(channel[1]);
  const double limit = 4 * cap + 10 + (scene.skip > 0 ? 20 * cap : 0);  // s
  pollfd ready{channel[0], POLLIN, 0};
  Run run;
  const bool answered = poll(&ready, 1, static_cast<int>(1000 * limit)) == 1 &&
                        read(channel[0], &run, sizeof run) == static_cast<ssize_t>(sizeof run);
  if (!answered) kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  close(channel[0]);
  if (!answered) return std::nullopt;
  return run;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 == 1 ? values[half] : 0.5 * (values[half - 1] + values[half]);
}

// Each mode's run of `scene`, `rounds` times, the three modes back to back in each round; per
// mode the last round's run with its times replaced by their medians over the rounds, or nothing
// where it failed (a mode that fails is not run again).
std::vector<std::optional<Run>> compare(const Scene& scene, int steps, double cap, int rounds) {
  const std::vector<int> cpus = allowedCpus();
  std::printf("\n%s: %d dynamic bodies, %d steps at 60 Hz%s or %g s of stepping per mode%s\n",
              scene.name.c_str(), scene.bodies, steps,
              scene.skip > 0 ? (" after " + std::to_string(scene.skip)).c_str() : "", cap,
              rounds > 1 ? (", median of " + std::to_string(rounds) + " rounds").c_str() : "");
  std::printf("  %s\n", cpus.empty() ? "runs not pinned: the CPUs this process may use are unknown"
                                     : "each round's runs pinned to one CPU, rounds taking turns");
  std::printf("  %-12s %6s %10s %9s %10s %8s %12s %14s %12s %8s %10s %10s %11s %12s\n", "mode",
              "steps", "ms/step", "x bullet", "wall ms", "x wall", "dE/E0 (run)", "max gain/E0",
              "overlap mm", "impacts", "evts/step", "land/step", "probes/evt", "queries/evt");
  const SolverKind kinds[] = {SolverKind::bullet, SolverKind::lcp, SolverKind::variational};
  std::vector<std::optional<Run>> runs(3);
  std::vector<bool> failed(3, false);
  // Per mode and round: ms/step, wall ms/step, and their ratios to the round's bullet run.
  std::vector<std::vector<double>> cpu(3), wall(3), cpuRatio(3), wallRatio(3);
  for (int round = 0; round < rounds; ++round) {
    const int pinned = cpus.empty() ? -1 : cpus[static_cast<std::size_t>(round) % cpus.size()];
    for (int mode = 0; mode < 3; ++mode) {
      if (failed[mode]) continue;
      std::optional<Run> run = runIsolated(scene, kinds[mode], steps, cap, pinned);
      const char* name = carom::toString(kinds[mode]);
      if (!run) {
        std::printf("  %-12s did not finish a step within the run's limit (killed)\n", name);
      } else if (run->error[0] != '\0') {
        std::printf("  %-12s failed: %s\n", name, run->error);
        run.reset();
      }
      std::fflush(stdout);
      if (!run) {
        failed[mode] = true;
        runs[mode].reset();
        continue;
      }
      cpu[mode].push_back(run->msPerStep);
      wall[mode].push_back(run->wallMsPerStep);
      if (!failed[0]) {
        cpuRatio[mode].push_back(run->msPerStep / cpu[0].back());
        wallRatio[mode].push_back(run->wallMsPerStep / wall[0].back());
      }
      runs[mode] = run;
    }
  }
  for (int mode = 0; mode < 3; ++mode) {
    std::optional<Run>& run = runs[mode];
    if (!run) continue;
    // The deepest overlap from a run of its own, untimed, over as many steps (each mode's runs
    // take the same path every time: the steps are deterministic).
    const std::optional<Run> measured =
        runIsolated(scene, kinds[mode], run->steps, 2 * cap, cpus.empty() ? -1 : cpus[0], true);
    run->deepest = measured && measured->error[0] == '\0' ? measured->deepest : NAN;
    run->msPerStep = median(cpu[mode]);
    run->wallMsPerStep = median(wall[mode]);
    const double ratio = cpuRatio[mode].empty() ? NAN : median(cpuRatio[mode]);
    const double wallOver = wallRatio[mode].empty() ? NAN : median(wallRatio[mode]);
    // Per event; nan for a run with none (its count divided by one would pass for a rate).
    const double events = run->events > 0 ? static_cast<double>(run->events) : NAN;
    std::printf(
        "  %-12s %6d %10.3f %9.2f %10.3f %8.2f %12.3e %14.3e %12.3f %8ld %10.1f %10.1f %11.1f "
        "%12.1f\n",
        carom::toString(kinds[mode]), run->steps, run->msPerStep, ratio, run->wallMsPerStep,
        wallOver, run->energyChange, run->largestGain, 1e3 * run->deepest, run->impacts,
        static_cast<double>(run->events) / run->steps,
        static_cast<double>(run->landings) / run->steps, run->probes / events,
        run->gapQueries / events);
  }
  std::fflush(stdout);
  return runs;
}

// The bin's mix at several body counts, and each mode's growth exponent: the slope of
// log(ms/step) against log(N) by least squares over the counts from 50 up whose runs took every
// step (a capped run measured only the pour's first steps).
void scaling(int steps, double cap, int rounds) {
  const int counts[] = {25, 50, 100, 200, 400, 800};
  std::vector<std::vector<std::optional<Run>>> byCount;
  for (const int n : counts) {
    byCount.push_back(
        compare({"bin " + std::to_string(n), n, [n](World& w) { carom::bench::pourIntoBin(w, n); }},
                steps, cap, rounds));
  }
  std::printf("\ngrowth exponent of ms/step with N (N >= 50, runs that took all %d steps):\n",
              steps);
  for (int mode = 0; mode < 3; ++mode) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int points = 0;
    for (std::size_t i = 1; i < byCount.size(); ++i) {
      const std::optional<Run>& run = byCount[i][mode];
      if (!run || run->steps < steps) continue;
      const double x = std::log(counts[i]), y = std::log(run->msPerStep);
      sx += x, sy += y, sxx += x * x, sxy += x * y, ++points;
    }
    const char* name = carom::toString(static_cast<SolverKind>(mode));
    if (points < 2) {
      std::printf("  %-12s too few complete runs\n", name);
      continue;
    }
    std::printf("  %-12s %.2f over %d counts\n", name,
                (points * sxy - sx * sy) / (points * sxx - sx * sx), points);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 1;
  std::vector<std::string> arguments;  // the positional ones
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--rounds=", 0) == 0) {
      rounds = std::atoi(argument.c_str() + 9);
    } else {
      arguments.push_back(argument);
    }
  }
  const int steps = arguments.size() > 0 ? std::atoi(arguments[0].c_str()) : 60;
  const double cap = arguments.size() > 1 ? std::atof(arguments[1].c_str()) : 5.0;
  std::vector<std::string> wanted;
  for (std::size_t i = 2; i < arguments.size(); ++i)
    wanted.push_back(arguments[i]);
  if (wanted.empty()) wanted = {"bin", "pyramid", "balls"};
  using namespace carom::bench;
  const std::vector<Scene> scenes = {
      {"bin", 300, [](World& w) { pourIntoBin(w, 300); }},
      {"bin-settled", 300, [](World& w) { pourIntoBin(w, 300); }, 100},
      {"pyramid", 55, [](World& w) { boxPyramid(w, 10); }},
      {"balls", 100, [](World& w) { elasticBallsInABox(w, 100); }},
      {"pyramid-drop", 55, [](World& w) { droppedBoxPyramid(w, 10, 0.04); }},
      {"pyramid-drop-settled", 55, [](World& w) { droppedBoxPyramid(w, 10, 0.04); }, 60},
      {"wall", 200, [](World& w) { brickWall(w, 10, 20); }},
      {"hulls", 1000, [](World& w) { pourHulls(w, 1000); }},
      {"ragdolls", 88, [](World& w) { ragdollPile(w, 8); }},
      {"ragdolls-pile", 88, [](World& w) { ragdollPile(w, 8); }, 85},
  };
  const auto known = [&](const std::string& name) {
    if (name == "scaling") return true;
    for (const Scene& scene : scenes)
      if (scene.name == name) return true;
    return false;
  };
  bool ok = steps > 0 && cap > 0 && rounds > 0;
  for (const std::string& name : wanted)
    ok = ok && known(name);
  if (!ok) {
    std::fprintf(stderr,
                 "usage: carom-scene-bench [--rounds=N > 0] [steps > 0] [seconds > 0] [bin | "
                 "bin-settled | pyramid | balls | scaling | pyramid-drop | pyramid-drop-settled | "
                 "wall | hulls | ragdolls | ragdolls-pile ...]\n");
    return 2;
  }
  for (const std::string& name : wanted) {
    if (name == "scaling") {
      scaling(steps, cap, rounds);
      continue;
    }
    for (const Scene& scene : scenes)
      if (scene.name == name) compare(scene, steps, cap, rounds);
  }
  return 0;
}
