#include "viewer_files.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "carom/error.h"

namespace carom::cli {
namespace {

namespace fs = std::filesystem;

// A page without its three.js would load and then fail in the browser; both must be there.
bool holdsViewer(const fs::path& directory) {
  std::error_code error;
  return fs::is_regular_file(directory / "index.html", error) &&
         fs::is_regular_file(directory / "vendor" / "three.module.js", error);
}

fs::path besideExecutable() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return executable.parent_path().parent_path() / "share" / "carom" / "viewer";
}

}  // namespace

void checkRunDirectory(const std::string& directory) {
  std::error_code error;
  if (!fs::is_directory(directory, error))
    throw Error(directory + ": no such directory (carom view takes the --out DIR of carom run)");
  for (const char* file : kRunFiles) {
    if (!fs::is_regular_file(fs::path(directory) / file, error)) {
      throw Error(directory + ": not a carom run directory: no " + file +
                  " (write one with carom run SCENE.toml --out " + directory + ")");
    }
  }
}

std::string findViewerDirectory() {
  if (const char* override = std::getenv("CAROM_VIEWER_DIR")) {
    // An explicit choice that is wrong is reported, not silently replaced by another copy.
    if (holdsViewer(override)) return override;
    throw ViewerMissing(std::string("CAROM_VIEWER_DIR=") + override +
                        " holds no replay viewer (index.html and vendor/three.module.js)");
  }
  const std::vector<fs::path> candidates{besideExecutable(), CAROM_VIEWER_BUILD_DIR,
                                         CAROM_VIEWER_INSTALL_DIR};
  for (const fs::path& candidate : candidates) {
    if (!candidate.empty() && holdsViewer(candidate)) return candidate.string();
  }
  throw ViewerMissing(
      "the replay viewer is not in this build: install nodejs and npm, rebuild carom (its build "
      "fetches three.js with npm ci) and install it, or set CAROM_VIEWER_DIR");
}

}  // namespace carom::cli
