// No run writes a value that is not a number and exits 0: a non-finite value about to be written
// stops the run with StepFailure (exit status 3) naming the time and the body, and leaves no
// files; what can be known from the file (an overflowing kinetic energy, a name that would break
// a CSV row) is refused when it is read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "carom/bullet/scene.h"
#include "run_command.h"
#include "run_record.h"
#include "scene_world.h"
#include "support/errors.h"

namespace carom::cli {
namespace {

using carom::test::expectErrorNaming;

std::string ball(const std::string& keys) {
  return "[[body]]\nname = \"ball\"\nshape = \"sphere\"\nradius = 0.1\nmass = 1\n" + keys;
}

TEST(RunFinite, NamesThatWouldBreakACsvRowAreRefused) {
  for (const char* name : {"a,b", "say \\\"hi\\\"", "two\\nlines", "tab\\there"}) {
    expectErrorNaming(
        [&] {
          Scene::parse("[[body]]\nname = \"" + std::string(name) +
                           "\"\nshape = \"sphere\"\n"
                           "radius = 1\n",
                       "s.toml");
        },
        "s.toml:2: body[0].name: must not hold a comma, a double quote or a control character");
  }
  EXPECT_EQ(Scene::parse("[[body]]\nname = \"ball #1 (red)\"\nshape = \"sphere\"\nradius = 1\n")
                .bodies[0]
                .name,
            "ball #1 (red)");
}

TEST(RunFinite, AnInitialKineticEnergyThatOverflowsIsRefused) {
  // ½ · 1 kg · (1e300 m/s)² overflows; so does ½ I ω² with I = 0.004 kg·m² and ω = 1e160 rad/s.
  expectErrorNaming([] { Scene::parse(ball("velocity = [1e300, 0, 0]\n"), "s.toml"); },
                    "s.toml:6: body[0].velocity: the kinetic energy at t = 0 is not finite");
  expectErrorNaming([] { Scene::parse(ball("angular_velocity = [0, 0, 1e160]\n"), "s.toml"); },
                    "s.toml:6: body[0].angular_velocity: the kinetic energy");
  EXPECT_NO_THROW(Scene::parse(ball("velocity = [1e150, 0, 0]\n")));
}

TEST(RunFinite, AnEnergyThatOverflowsStopsTheRunNamingTimeAndBody) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "carom-run-finite";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // One step of h = 0.01 s under g = 1e300 m/s² gives v = 1e298 m/s: finite, but ½ m v² is not.
  std::ofstream(dir / "falling.toml") << "[world]\ngravity = [0, 0, -1e300]\nduration = 0.05\n"
                                      << ball("");
  RunOptions options;
  options.scene = (dir / "falling.toml").string();
  options.out = (dir / "out").string();
  options.solver = SolverKind::bullet;
  options.quiet = true;
  std::ostringstream log;
  try {
    runScene(options, log);
    ADD_FAILURE() << "the run did not stop";
  } catch (const StepFailure& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "t = 0.01 s: body ball: energy.csv: kinetic is not finite (inf)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(RunFinite, AnEventThatIsNotANumberStopsTheRunNamingBothBodies) {
  const Scene scene = Scene::parse(ball("position = [0, 0, 1]\n") +
                                   "[[body]]\nname = \"floor\"\nshape = \"plane\"\n"
                                   "normal = [0, 0, 1]\n");
  SceneWorld world(scene, scene.config);
  const std::string out = ::testing::TempDir() + "carom-run-finite-event";
  StagedOutput output(out);
  RunRecord record(output);
  ImpactEvent event;
  event.time = 0.25;
  event.bodyA = world.dynamicBodies()[0].body;
  event.bodyB = world.dynamicBodies()[0].body;
  event.energyChange = std::numeric_limits<double>::quiet_NaN();
  expectErrorNaming([&] { record.addEvents({event}, world); },
                    "t = 0.25 s: body ball / ball: events.csv: dE is not finite (nan)");
}

}  // namespace
}  // namespace carom::cli
