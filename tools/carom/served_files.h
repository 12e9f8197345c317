// What `carom view` hands out, and to whom: regular files whose real path (symbolic links
// resolved) lies inside the run directory (under /run/) or the viewer's page directory (under /),
// to requests whose Host is this server's loopback address, so that a link to /etc/passwd in the
// run or a DNS-rebinding page reads nothing.
#pragma once

#include <filesystem>
#include <string>

namespace carom::cli {

class ServedFiles {
 public:
  // Throws carom::Error when either directory cannot be resolved.
  ServedFiles(const std::string& run, const std::string& viewer);

  // The real path of the regular file that the (decoded) URL path names, or an empty path when
  // it names none inside its directory.
  std::filesystem::path resolve(const std::string& urlPath) const;

 private:
  std::filesystem::path run_, viewer_;  // canonical
};

// True for "127.0.0.1:PORT" and "localhost:PORT", the names a browser on this machine sends.
bool isLoopbackHost(const std::string& host, int port);

// The Content-Type of a served file by its extension (a module script must be JavaScript).
const char* contentTypeOf(const std::filesystem::path& file);

}  // namespace carom::cli
