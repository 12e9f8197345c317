#include "run_command.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "carom/bullet/dynamics_world.h"
#include "carom/bullet/scene.h"
#include "progress_bar.h"
#include "run_record.h"
#include "scene_json.h"
#include "scene_world.h"
#include "staged_output.h"

namespace carom::cli {
namespace {

// The command line beats the environment, which beats the scene (INTERFACES.md §2).
Config configOf(const Scene& scene, const RunOptions& options) {
  Config config = Config::withEnvironment(scene.config);
  if (options.solver) config.solver.kind = *options.solver;
  return config;
}

bool isFinite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// Throws StepFailure naming the first body whose state is no longer a number.
void checkFinite(const SceneWorld& world, double t) {
  for (const auto& [spec, body] : world.dynamicBodies()) {
    if (!isFinite(body->getCenterOfMassPosition()) || !isFinite(body->getLinearVelocity()) ||
        !isFinite(body->getAngularVelocity())) {
      throw StepFailure("t = " + std::to_string(t) + " s: body " + spec->name +
                        ": position or velocity is not finite");
    }
  }
}

// The step count; the scene's own values were judged when it was read, so a problem here comes
// from --duration or --timestep, and names them.
long long stepsOf(const Scene& scene, const RunOptions& options, double duration, double h) {
  const std::string problem = runStepsProblem(duration, h);
  if (problem.empty()) return runSteps(duration, h);
  const std::string given = options.duration && options.timestep ? "--duration, --timestep"
                            : options.duration                   ? "--duration"
                                                                 : "--timestep";
  throw Error(scene.source + ": " + given + ": " + problem);
}

}  // namespace

void runScene(const RunOptions& options, std::ostream& log) {
  const Scene scene = Scene::fromFile(options.scene);
  const Config config = configOf(scene, options);
  const double h = options.timestep.value_or(scene.world.timestep);
  const double duration = options.duration.value_or(scene.world.duration);
  const long long steps = stepsOf(scene, options, duration, h);

  SceneWorld world(scene, config);
  StagedOutput output(options.out);  // files appear at its commit; a failure leaves none
  RunRecord record(output);
  ProgressBar progress(!options.quiet);
  int zenoSteps = 0;
  std::string firstZeno;
  record.addFrame(0.0, world, scene.world.gravity);
  for (long long n = 1; n <= steps; ++n) {
    const double t = static_cast<double>(n) * h;  // not a running sum: no drift in t
    const std::string failed =
        "t = " + std::to_string(t) + " s: step " + std::to_string(n) + " failed: ";
    try {
      world.world().stepSimulation(h, 1, h);  // exactly one internal step of h
    } catch (const PairError& e) {            // the world's objects, by their names in the scene
      throw StepFailure(failed + e.what() + " (bodies \"" + world.nameOf(e.first()) + "\" and \"" +
                        world.nameOf(e.second()) + "\")");
    } catch (const std::exception& e) {
      throw StepFailure(failed + e.what());
    }
    checkFinite(world, t);
    const StepDiagnostics& step = world.world().getLastStepDiagnostics();
    if (step.eventLimitReached && zenoSteps++ == 0) firstZeno = step.message;
    record.addEvents(world.world().getImpactEvents(), world);
    world.world().clearImpactEvents();
    if (n % scene.world.outputEvery == 0 || n == steps)
      record.addFrame(t, world, scene.world.gravity);
    progress.update(t, static_cast<double>(steps) * h);
  }

  record.close();
  output.write("scene.json", sceneJson(scene));
  record.writeEnergyPlot(
      std::string("carom run ") + scene.source + " (" + toString(config.solver.kind) + ")",
      output.stage("energy.svg"));
  output.commit();

  log << scene.source << ": " << steps << " steps of " << h << " s, solver "
      << toString(config.solver.kind) << "\n";
  if (zenoSteps > 0) {
    log << "warning: " << zenoSteps << " steps reached solver.max_events_per_step and held the "
        << "remaining contacts as persistent ones; first: " << firstZeno << "\n";
  }
  log << "wrote " << options.out
      << "/bodies.csv, energy.csv, events.csv, energy.svg and scene.json\n";
}

}  // namespace carom::cli
