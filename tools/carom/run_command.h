// `carom run SCENE.toml [--solver KIND] [--duration T] [--timestep H] [--out DIR] [--quiet]`
// (INTERFACES.md §3): simulate a scene and write bodies.csv, energy.csv, events.csv and
// energy.svg, and scene.json (the bodies' shapes, for the replay viewer).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "carom/bullet/config.h"
#include "carom/error.h"

namespace carom::cli {

struct RunOptions {
  std::string scene;
  std::optional<SolverKind> solver;  // overrides the scene's and CAROM_SOLVER's solver.kind
  std::optional<double> duration;    // overrides [world] duration (s)
  std::optional<double> timestep;    // overrides [world] timestep (s)
  std::string out = "carom-out";
  bool quiet = false;  // no progress bar
};

// A step that threw or left a body's state non-finite: the scene was good, the simulation not.
class StepFailure : public Error {
 public:
  using Error::Error;
};

// Writes the five files into options.out, all or none, and a summary to `log`. Throws
// carom::Error for a bad scene (before anything is written) and StepFailure when a step fails.
void runScene(const RunOptions& options, std::ostream& log);

}  // namespace carom::cli
