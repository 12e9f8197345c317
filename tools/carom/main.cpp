// The carom command (INTERFACES.md §3): run, sets, check, view, --version, --help.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "carom/bullet/scene.h"
#include "carom/version.h"
#include "scene_summary.h"
#include "sets_command.h"

namespace {

// Exit statuses: 0 success; 1 bad input (a scene error names file, line and key); 2 a subcommand
// this build cannot carry out; CLI11's own codes (> 100) for malformed arguments.
constexpr int kBadInput = 1;
constexpr int kNotInThisBuild = 2;

// `carom run` and `carom view` need carom::DynamicsWorld, which this build does not have yet: they
// check their arguments and then say so rather than write output that only looks like a run.
int notInThisBuild(const std::string& command) {
  std::cerr << "carom " << command
            << ": needs carom::DynamicsWorld, which is not in this build yet\n";
  return kNotInThisBuild;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"carom: physically correct impacts for Bullet Physics", "carom"};
  app.set_version_flag("--version", std::string("carom ") + CAROM_VERSION_STRING);
  app.require_subcommand(1);

  std::string runScene, runSolver, runOut = "carom-out";
  double duration = 0, timestep = 0;
  bool quiet = false;
  CLI::App* run = app.add_subcommand("run",
                                     "simulate a scene and write bodies.csv, energy.csv, "
                                     "events.csv and energy.svg into DIR");
  run->add_option("SCENE", runScene, "scene file (TOML)")->required();
  run->add_option("--solver", runSolver, "override solver.kind")
      ->check(CLI::IsMember({"bullet", "lcp", "variational"}));
  run->add_option("--duration", duration, "simulated time T (s)")->check(CLI::PositiveNumber);
  run->add_option("--timestep", timestep, "fixed step H (s)")->check(CLI::PositiveNumber);
  run->add_option("--out", runOut, "output directory DIR (default ./carom-out)");
  run->add_flag("--quiet", quiet, "no progress bar");

  carom::cli::SetsOptions sets;
  CLI::App* setsCommand = app.add_subcommand(
      "sets",
      "sample the Halm–Posa set of post-impact velocities of a scene touching at t = 0; "
      "write outcomes.csv and outcomes.svg into DIR");
  setsCommand->add_option("SCENE", sets.scene, "scene file (TOML)")->required();
  setsCommand->add_option("--samples", sets.samples, "number of samples N (default 16384)")
      ->check(CLI::Range(1, 1 << 24));
  setsCommand->add_option("--out", sets.out, "output directory DIR (default ./carom-out)");

  std::string checkScene;
  CLI::App* check = app.add_subcommand("check", "validate a scene and print what it holds");
  check->add_option("SCENE", checkScene, "scene file (TOML)")->required();

  std::string viewDirectory;
  CLI::App* view = app.add_subcommand("view", "serve the replay viewer for a run on localhost");
  view->add_option("DIR", viewDirectory, "output directory of carom run")
      ->required()
      ->check(CLI::ExistingDirectory);

  CLI11_PARSE(app, argc, argv);

  try {
    if (*run) {
      carom::Scene::fromFile(runScene);
      return notInThisBuild("run");
    }
    if (*setsCommand) {
      carom::cli::runSets(sets, std::cout);
    } else if (*check) {
      carom::cli::printScene(carom::Scene::fromFile(checkScene), std::cout);
    } else if (*view) {
      return notInThisBuild("view");
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
