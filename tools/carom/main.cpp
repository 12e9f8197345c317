// The carom command (INTERFACES.md §3): run, sets, check, view, --version, --help.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <string>

#include "carom/bullet/scene.h"
#include "carom/version.h"
#include "run_command.h"
#include "scene_summary.h"
#include "sets_command.h"
#include "view_command.h"
#include "viewer_files.h"

namespace {

// Exit statuses: 0 success; 1 bad input (a scene error names file, line and key; a view DIR that
// holds no run); 2 a subcommand this build cannot carry out (the viewer's page is missing); 3 a
// simulation step that failed; CLI11's own codes (> 100) for malformed arguments.
constexpr int kBadInput = 1;
constexpr int kNotInThisBuild = 2;
constexpr int kStepFailed = 3;

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"carom: physically correct impacts for Bullet Physics", "carom"};
  app.set_version_flag("--version", std::string("carom ") + CAROM_VERSION_STRING);
  app.require_subcommand(1);

  carom::cli::RunOptions runOptions;
  carom::SolverKind solver{};
  double duration = 0, timestep = 0;
  CLI::App* run = app.add_subcommand("run",
                                     "simulate a scene and write bodies.csv, energy.csv, "
                                     "events.csv, energy.svg and scene.json into DIR");
  run->add_option("SCENE", runOptions.scene, "scene file (TOML)")->required();
  const std::map<std::string, carom::SolverKind> solverKinds{
      {"bullet", carom::SolverKind::bullet},
      {"lcp", carom::SolverKind::lcp},
      {"variational", carom::SolverKind::variational}};
  CLI::Option* solverOption =
      run->add_option("--solver", solver, "override solver.kind (and CAROM_SOLVER)")
          ->transform(CLI::CheckedTransformer(solverKinds));
  CLI::Option* durationOption =
      run->add_option("--duration", duration, "simulated time T (s)")->check(CLI::PositiveNumber);
  CLI::Option* timestepOption =
      run->add_option("--timestep", timestep, "fixed step H (s)")->check(CLI::PositiveNumber);
  run->add_option("--out", runOptions.out, "output directory DIR (default ./carom-out)");
  run->add_flag("--quiet", runOptions.quiet, "no progress bar");

  carom::cli::SetsOptions sets;
  CLI::App* setsCommand = app.add_subcommand(
      "sets",
      "sample the Halm–Posa set of post-impact velocities of a scene touching at t = 0; "
      "write outcomes.csv and outcomes.svg into DIR");
  setsCommand->add_option("SCENE", sets.scene, "scene file (TOML)")->required();
  setsCommand->add_option("--samples", sets.samples, "number of samples N (default 16384)")
      ->check(CLI::Range(1, 1 << 24));
  setsCommand->add_option("--out", sets.out, "output directory DIR (default ./carom-out)");
  setsCommand
      ->add_option("--threads", sets.threads,
                   "worker threads N (default: every hardware thread); the outcomes do not "
                   "depend on it")
      ->check(CLI::Range(1, 1024));

  std::string checkScene;
  CLI::App* check = app.add_subcommand("check", "validate a scene and print what it holds");
  check->add_option("SCENE", checkScene, "scene file (TOML)")->required();

  carom::cli::ViewOptions viewOptions;
  bool noOpen = false;
  CLI::App* view = app.add_subcommand(
      "view", "serve the replay viewer for a run on 127.0.0.1 and print its URL; Ctrl-C stops");
  view->add_option("DIR", viewOptions.directory, "output directory of carom run")->required();
  view->add_option("--port", viewOptions.port, "port P (default 0: any free port)")
      ->check(CLI::Range(0, 65535));
  view->add_flag("--no-open", noOpen, "do not open the page in the desktop's browser");

  CLI11_PARSE(app, argc, argv);

  try {
    if (*run) {
      if (*solverOption) runOptions.solver = solver;
      if (*durationOption) runOptions.duration = duration;
      if (*timestepOption) runOptions.timestep = timestep;
      carom::cli::runScene(runOptions, std::cout);
    } else if (*setsCommand) {
      carom::cli::runSets(sets, std::cout);
    } else if (*check) {
      carom::cli::printScene(carom::Scene::fromFile(checkScene), std::cout);
    } else if (*view) {
      viewOptions.open = !noOpen;
      carom::cli::serveRun(viewOptions, std::cout);
    }
  } catch (const carom::cli::ViewerMissing& e) {
    std::cerr << "carom view: " << e.what() << "\n";
    return kNotInThisBuild;
  } catch (const carom::cli::StepFailure& e) {
    std::cerr << e.what() << "\n";
    return kStepFailed;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
