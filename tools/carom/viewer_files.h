// The two directories `carom view` serves: the replay viewer's page, built from tools/viewer, and
// the output directory of a `carom run`.
#pragma once

#include <stdexcept>
#include <string>

namespace carom::cli {

// The files every run directory holds (INTERFACES.md §3, and scene.json for the viewer).
inline constexpr const char* kRunFiles[] = {"bodies.csv", "energy.csv", "events.csv", "scene.json"};

// Throws carom::Error, one line, unless `directory` holds every file of kRunFiles.
void checkRunDirectory(const std::string& directory);

// Thrown when the viewer's page is in none of the places a build or an install puts it.
class ViewerMissing : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The directory holding the viewer's index.html: $CAROM_VIEWER_DIR when set, else
// ../share/carom/viewer beside the executable (an install, wherever it was moved), the build
// tree's share/carom/viewer, the install prefix's. Throws ViewerMissing, one line naming what to
// install, when none holds the page.
std::string findViewerDirectory();

}  // namespace carom::cli
