// `carom view DIR [--port P] [--no-open]` (INTERFACES.md §3): serve the replay viewer for the
// output directory of a `carom run` on 127.0.0.1 until SIGINT or SIGTERM.
#pragma once

#include <ostream>
#include <string>

namespace carom::cli {

struct ViewOptions {
  std::string directory;  // the --out DIR of a carom run
  int port = 0;           // 0: any free port
  bool open = true;       // open the page in the desktop's browser, when there is a desktop
};

// Prints the page's URL, one line, on `out` once the server listens, then serves until SIGINT or
// SIGTERM and returns. Throws carom::Error for a directory that holds no run or a port that cannot
// be bound, ViewerMissing when the viewer's page is not installed.
void serveRun(const ViewOptions& options, std::ostream& out);

}  // namespace carom::cli
