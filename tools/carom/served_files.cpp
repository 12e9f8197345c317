#include "served_files.h"

#include <algorithm>
#include <system_error>

#include "carom/error.h"

namespace carom::cli {
namespace {

namespace fs = std::filesystem;

fs::path canonicalDirectory(const std::string& directory) {
  std::error_code error;
  const fs::path real = fs::canonical(directory, error);
  if (error) throw Error(directory + ": cannot serve this directory: " + error.message());
  return real;
}

// Component by component: /run/a is not inside /run/ab.
bool isInside(const fs::path& file, const fs::path& directory) {
  const auto [fileAt, directoryAt] =
      std::mismatch(file.begin(), file.end(), directory.begin(), directory.end());
  return directoryAt == directory.end() && fileAt != file.end();
}

}  // namespace

ServedFiles::ServedFiles(const std::string& run, const std::string& viewer)
    : run_(canonicalDirectory(run)), viewer_(canonicalDirectory(viewer)) {}

fs::path ServedFiles::resolve(const std::string& urlPath) const {
  const bool inRun = urlPath.rfind("/run/", 0) == 0;
  const fs::path& root = inRun ? run_ : viewer_;
  std::string relative = urlPath.substr(inRun ? 5 : 1);
  if (!inRun && (relative.empty() || relative.back() == '/')) relative += "index.html";
  if (relative.empty() || relative.find('\0') != std::string::npos) return {};
  std::error_code error;
  const fs::path real = fs::canonical(root / fs::path(relative).relative_path(), error);
  if (error || !isInside(real, root) || !fs::is_regular_file(real, error)) return {};
  return real;
}

bool isLoopbackHost(const std::string& host, int port) {
  const std::string suffix = ":" + std::to_string(port);
  return host == "127.0.0.1" + suffix || host == "localhost" + suffix;
}

const char* contentTypeOf(const fs::path& file) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".csv", "text/csv; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".map", "application/json"},
      {".txt", "text/plain; charset=utf-8"}};
  const std::string extension = file.extension().string();
  for (const auto& [suffix, type] : kTypes) {
    if (extension == suffix) return type;
  }
  return "application/octet-stream";
}

}  // namespace carom::cli
