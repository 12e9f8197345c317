#include "view_command.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "carom/error.h"
#include "served_files.h"
#include "task_queue.h"
#include "viewer_files.h"

extern char** environ;

namespace carom::cli {
namespace {

// Only the loopback interface: the page is for the user at this machine, not for the network.
constexpr const char* kHost = "127.0.0.1";
// A connection that sends nothing for a second is closed, and enough workers wait that a few
// dozen idle ones (a browser's preconnects, a half-open socket) never hold up the page. At most
// kWaiting more connections wait for a worker; beyond them the server stops accepting until one is
// free (task_queue.h), so a flood of connections holds bounded memory.
constexpr time_t kIdleSeconds = 1;
constexpr std::size_t kWorkers = 64;
constexpr std::size_t kWaiting = 64;

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

// The file streamed from disk (a long run's bodies.csv need not fit in memory).
void serveFile(const std::filesystem::path& file, httplib::Response& response) {
  auto stream = std::make_shared<std::ifstream>(file, std::ios::binary);
  std::error_code error;
  const auto size = std::filesystem::file_size(file, error);
  if (!*stream || error) {
    response.status = 404;
    return;
  }
  response.set_content_provider(
      static_cast<std::size_t>(size), contentTypeOf(file),
      [stream](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        char buffer[1 << 16];
        stream->seekg(static_cast<std::streamoff>(offset));
        stream->read(buffer, static_cast<std::streamsize>(std::min(length, sizeof buffer)));
        return stream->gcount() > 0 &&
               sink.write(buffer, static_cast<std::size_t>(stream->gcount()));
      });
}

}  // namespace

void serveRun(const ViewOptions& options, std::ostream& out) {
  checkRunDirectory(options.directory);
  const std::string viewer = findViewerDirectory();

  const ServedFiles files(options.directory, viewer);

  httplib::Server server;
  int port = -1;  // known once bound, before the first request
  server.set_read_timeout(kIdleSeconds, 0);
  server.set_keep_alive_timeout(kIdleSeconds);
  server.new_task_queue = [] { return new BoundedTaskQueue(kWorkers, kWaiting); };
  server.set_pre_routing_handler([&](const httplib::Request& request, httplib::Response& response) {
    if (isLoopbackHost(request.get_header_value("Host"), port))
      return httplib::Server::HandlerResponse::Unhandled;
    response.status = 403;
    response.set_content("carom view answers requests for 127.0.0.1 and localhost only\n",
                         "text/plain");
    return httplib::Server::HandlerResponse::Handled;
  });
  // The run's files under /run/, the page at /.
  server.Get(".*", [&](const httplib::Request& request, httplib::Response& response) {
    const std::filesystem::path file = files.resolve(request.path);
    if (file.empty()) {
      response.status = 404;
      return;
    }
    serveFile(file, response);
  });

  const StopSignals stopSignals;  // before the server's threads start, so that they inherit it
  port = options.port == 0 ? server.bind_to_any_port(kHost)
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
