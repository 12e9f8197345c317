// `carom sets SCENE.toml [--samples N] [--out DIR]` (INTERFACES.md §3): the set of post-impact
// velocities of a scene whose bodies touch at t = 0, sampled by Algorithm 2 of Halm & Posa.
#pragma once

#include <ostream>
#include <string>

namespace carom::cli {

struct SetsOptions {
  std::string scene;
  // M of Algorithm 2. Default 2^14, the paper's smallest set (Tables 4–8).
  int samples = 1 << 14;
  std::string out = "carom-out";
  // Worker threads, ≥ 1; 0: every hardware thread. The outcomes do not depend on it.
  int threads = 0;
};

// Writes DIR/outcomes.csv and DIR/outcomes.svg (both or neither) and a summary to `log`. Throws
// carom::Error for a bad scene or a scene without an impact.
void runSets(const SetsOptions& options, std::ostream& log);

}  // namespace carom::cli
