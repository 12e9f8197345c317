// `carom view` as a user starts it: the executable serving a run made by `carom run`, queried
// over HTTP (the page, a CSV, paths that try to climb out of the served directories), then
// stopped by SIGTERM or SIGINT.
#include <gtest/gtest.h>
#include <httplib.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

const std::string kCarom = CAROM_EXECUTABLE;

// One `carom run` of the gapped Newton's cradle for the whole suite, and a file beside it that
// the server must never hand out. ctest runs each test in a process of its own, in parallel: the
// process id keeps their directories apart.
class View : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    work_ = ::testing::TempDir() + "carom-view-" + std::to_string(getpid());
    std::filesystem::remove_all(work_);
    std::filesystem::create_directories(work_);
    run_ = work_ + "/run";
    const std::string command = kCarom + " run " + CAROM_SCENES_DIR +
                                "/newtons_cradle_gapped.toml --duration 0.5 --quiet --out " + run_ +
                                " > /dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::ofstream(work_ + "/secret.txt") << "not for the browser\n";
    // Links inside the run that lead out of it; the server must resolve them and refuse.
    std::filesystem::create_symlink("/etc/passwd", run_ + "/passwd.csv");
    std::filesystem::create_symlink(work_ + "/secret.txt", run_ + "/secret.csv");
    std::filesystem::create_directory_symlink(work_, run_ + "/up");
    // A link that stays inside is as good as the file.
    std::filesystem::create_symlink(run_ + "/events.csv", run_ + "/events-link.csv");
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(work_); }
  static std::string work_, run_;
};
std::string View::work_, View::run_;

// A `carom view DIR --no-open` process; its first line of stdout is the URL.
class ViewProcess {
 public:
  explicit ViewProcess(const std::string& directory) {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      execl(kCarom.c_str(), "carom", "view", directory.c_str(), "--no-open", nullptr);
      _exit(127);
    }
    close(out[1]);
    // The URL comes once the server has bound its port; 10 s is far more than that takes.
    pollfd ready{out[0], POLLIN, 0};
    char c = 0;
    while (poll(&ready, 1, 10000) == 1 && read(out[0], &c, 1) == 1 && c != '\n')
      url_ += c;
    close(out[0]);
  }
  ~ViewProcess() {
    if (pid_ > 0) stop(SIGTERM);
  }
  ViewProcess(const ViewProcess&) = delete;
  ViewProcess& operator=(const ViewProcess&) = delete;

  const std::string& url() const { return url_; }
  int port() const { return std::atoi(url_.substr(url_.rfind(':') + 1).c_str()); }

  // Sends `signal` and returns the exit status, or -1 when the process did not exit normally.
  int stop(int signal) {
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  std::string url_;
};

TEST_F(View, ServesThePageAndTheRunOnLoopbackOnly) {
  ViewProcess view(run_);
  ASSERT_TRUE(view.url().rfind("http://127.0.0.1:", 0) == 0) << view.url();
  ASSERT_GT(view.port(), 0);
  httplib::Client client("127.0.0.1", view.port());

  const auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("carom replay"), std::string::npos);

  // A module script with another content type is refused by the browser.
  const auto script = client.Get("/js/main.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_NE(script->get_header_value("Content-Type").find("javascript"), std::string::npos);

  const auto bodies = client.Get("/run/bodies.csv");
  ASSERT_TRUE(bodies);
  EXPECT_EQ(bodies->status, 200);
  EXPECT_EQ(bodies->body.rfind("t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", 0), 0u);
  const auto scene = client.Get("/run/scene.json");
  ASSERT_TRUE(scene);
  EXPECT_NE(scene->body.find("\"ball1\""), std::string::npos);

  EXPECT_EQ(view.stop(SIGTERM), 0);
}

TEST_F(View, RefusesPathsOutsideTheServedDirectories) {
  ViewProcess view(run_);
  ASSERT_GT(view.port(), 0);
  httplib::Client client("127.0.0.1", view.port());
  for (const char* path :
       {"/../../../../../../etc/passwd", "/run/../../../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/run/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/run/../secret.txt", "/run/%2e%2e/secret.txt", "/run//../secret.txt"}) {
    const auto response = client.Get(path);
    ASSERT_TRUE(response) << path;
    EXPECT_NE(response->status, 200) << path;
    EXPECT_EQ(response->body.find("root:"), std::string::npos) << path;
    EXPECT_EQ(response->body.find("not for the browser"), std::string::npos) << path;
  }
  EXPECT_EQ(view.stop(SIGINT), 0);
}

TEST_F(View, RefusesSymbolicLinksThatLeadOutOfTheRun) {
  ViewProcess view(run_);
  ASSERT_GT(view.port(), 0);
  httplib::Client client("127.0.0.1", view.port());
  for (const char* path : {"/run/passwd.csv", "/run/secret.csv", "/run/up/secret.txt"}) {
    const auto response = client.Get(path);
    ASSERT_TRUE(response) << path;
    EXPECT_EQ(response->status, 404) << path;
    EXPECT_EQ(response->body.find("root:"), std::string::npos) << path;
    EXPECT_EQ(response->body.find("not for the browser"), std::string::npos) << path;
  }
  const auto inside = client.Get("/run/events-link.csv");
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->status, 200);
  EXPECT_EQ(inside->body.rfind("t,bodyA,bodyB,", 0), 0u);
  EXPECT_EQ(view.stop(SIGTERM), 0);
}

// A page from another origin that resolves its own name to 127.0.0.1 (DNS rebinding) sends its
// own name as Host: refused.
TEST_F(View, AnswersOnlyTheLoopbackHostNames) {
  ViewProcess view(run_);
  ASSERT_GT(view.port(), 0);
  httplib::Client client("127.0.0.1", view.port());
  const std::string port = std::to_string(view.port());
  for (const std::string& host : {"127.0.0.1:" + port, "localhost:" + port}) {
    const auto response = client.Get("/run/energy.csv", {{"Host", host}});
    ASSERT_TRUE(response) << host;
    EXPECT_EQ(response->status, 200) << host;
  }
  for (const std::string& host :
       {std::string("evil.example"), "evil.example:" + port, std::string("127.0.0.1"),
        "127.0.0.1:1" + port, "localhost.evil.example:" + port}) {
    const auto response = client.Get("/run/energy.csv", {{"Host", host}});
    ASSERT_TRUE(response) << host;
    EXPECT_EQ(response->status, 403) << host;
    EXPECT_EQ(response->body.find("t,kinetic"), std::string::npos) << host;
  }
  EXPECT_EQ(view.stop(SIGTERM), 0);
}

// Sixteen connections that never send a request (half-open, idle) must not hold up the next
// request by more than about a second. Loopback only; every socket is closed at the end.
TEST_F(View, IdleConnectionsDoNotBlockTheNextRequest) {
  ViewProcess view(run_);
  ASSERT_GT(view.port(), 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(view.port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::vector<int> idle;
  for (int i = 0; i < 16; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    idle.push_back(fd);
  }
  httplib::Client client("127.0.0.1", view.port());
  client.set_connection_timeout(5);
  client.set_read_timeout(5);
  const auto start = std::chrono::steady_clock::now();
  const auto response = client.Get("/run/energy.csv");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const int fd : idle)
    close(fd);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  EXPECT_LT(seconds, 1.5);
  EXPECT_EQ(view.stop(SIGTERM), 0);
}

// The page missing (a build without npm, an install without share/carom/viewer): exit 2 and one
// line naming what to install.
TEST_F(View, SaysWhatToInstallWhenThePageIsMissing) {
  const std::string command =
      "CAROM_VIEWER_DIR=/nonexistent " + kCarom + " view " + run_ + " --no-open 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe))
    output += buffer;
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2) << output;
  EXPECT_NE(output.find("CAROM_VIEWER_DIR=/nonexistent holds no replay viewer"), std::string::npos)
      << output;
  EXPECT_EQ(output.find('\n'), output.size() - 1) << output;
}

}  // namespace
