#include "view_command.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "carom/error.h"
#include "viewer_files.h"

extern char** environ;

namespace carom::cli {
namespace {

// Only the loopback interface: the page is for the user at this machine, not for the network.
constexpr const char* kHost = "127.0.0.1";

// SIGINT and SIGTERM are blocked in every thread and taken by sigwait() in the main one, so the
// server is stopped from ordinary code rather than from a signal handler.
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
  }
  ~StopSignals() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  void wait() const {
    int signal = 0;
    sigwait(&set_, &signal);
  }

 private:
  sigset_t set_{}, previous_{};
};

// Best effort: without a desktop (or xdg-open) the printed URL is the way in, and we say so.
void openBrowser(const std::string& url) {
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) return;
  pid_t child = 0;
  char* argv[] = {const_cast<char*>("xdg-open"), const_cast<char*>(url.c_str()), nullptr};
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&quiet, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const int failed = posix_spawnp(&child, "xdg-open", &quiet, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&quiet);
  if (failed) {
    std::cerr << "carom view: cannot start xdg-open; open " << url << " in a browser\n";
    return;
  }
  std::thread([child] { waitpid(child, nullptr, 0); }).detach();  // no zombie left behind
}

}  // namespace

void serveRun(const ViewOptions& options, std::ostream& out) {
  checkRunDirectory(options.directory);
  const std::string viewer = findViewerDirectory();

  httplib::Server server;
  // The run's files under /run/, the page at /. Mount points serve only files inside their
  // directory: httplib refuses a path that climbs out with "..", percent-encoded or not.
  if (!server.set_mount_point("/run/", options.directory) || !server.set_mount_point("/", viewer))
    throw Error(options.directory + ": cannot serve this directory");

  const StopSignals stopSignals;  // before the server's threads start, so that they inherit it
  const int port = options.port == 0
                       ? server.bind_to_any_port(kHost)
                       : (server.bind_to_port(kHost, options.port) ? options.port : -1);
  if (port < 0) {
    throw Error(std::string(kHost) + ":" + std::to_string(options.port) +
                ": cannot listen (port in use?)");
  }
  const std::string url = "http://" + std::string(kHost) + ":" + std::to_string(port) + "/";
  out << url << std::endl;
  std::cerr << "carom view: serving " << options.directory << "; Ctrl-C stops\n";

  std::atomic<bool> stopping{false}, failed{false}, done{false};
  std::thread listener([&] {
    if (!server.listen_after_bind() && !stopping) {
      failed = true;
      ::kill(::getpid(), SIGTERM);  // wakes the sigwait below
    }
    done = true;
  });
  if (options.open) openBrowser(url);
  stopSignals.wait();
  stopping = true;
  // stop() does nothing to a server that has not started its loop yet: a signal that came that
  // early must wait for it, or the listener would never return.
  while (!done && !server.is_running())
    std::this_thread::yield();
  server.stop();
  listener.join();
  if (failed) throw Error(url + ": the server stopped unexpectedly");
}

}  // namespace carom::cli
