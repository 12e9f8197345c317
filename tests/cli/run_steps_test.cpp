// The length of a run: duration and timestep finite, positive and not subnormal, and at most
// kMaxRunSteps steps, from the scene file and from --duration / --timestep alike; never a
// conversion of a huge or NaN count to an integer.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>

#include "carom/bullet/scene.h"
#include "run_command.h"
#include "support/errors.h"

namespace carom::cli {
namespace {

using carom::test::expectErrorNaming;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string world(const std::string& keys) {
  return "[world]\n" + keys + "[[body]]\nname = \"ball\"\nshape = \"sphere\"\nradius = 1\n";
}

TEST(RunSteps, StepCountsUpToTheLimitAreCounted) {
  EXPECT_EQ(runSteps(1.0, 0.01), 100);  // 1 / 0.01 rounds to 100.000...02: still 100
  EXPECT_EQ(runSteps(0.015, 0.01), 2);  // the last step ends past the duration
  EXPECT_EQ(runSteps(1e-9, 0.01), 1);   // never zero steps
  EXPECT_EQ(runSteps(1e5, 0.01), 10000000);
  EXPECT_EQ(runStepsProblem(1e5, 0.01), "");
}

TEST(RunSteps, HugeNaNAndSubnormalValuesAreRefused) {
  for (const auto& [duration, timestep] : {std::pair{1e19, 1.0},
                                           {1e300, 0.01},
                                           {10.0, 1e-320},
                                           {kNaN, 0.01},
                                           {1.0, kNaN},
                                           {HUGE_VAL, 0.01},
                                           {1.0, -0.01},
                                           {1e5 + 1, 0.01}}) {
    EXPECT_NE(runStepsProblem(duration, timestep), "") << duration << " / " << timestep;
    EXPECT_THROW(runSteps(duration, timestep), Error) << duration << " / " << timestep;
  }
}

TEST(RunSteps, TheSceneFileNamesTheKey) {
  expectErrorNaming(
      [] { Scene::parse(world("duration = 1e12\n"), "s.toml"); },
      "s.toml:2: world.duration: duration / timestep = 1e+12 / 0.01 s is 1e+14 steps");
  expectErrorNaming([] { Scene::parse(world("timestep = 1\nduration = 1e19\n"), "s.toml"); },
                    "s.toml:3: world.duration");
  expectErrorNaming([] { Scene::parse(world("timestep = 1e-9\n"), "s.toml"); },
                    "s.toml:2: world.timestep: duration / timestep");
  expectErrorNaming([] { Scene::parse(world("timestep = 1e-320\n"), "s.toml"); },
                    "s.toml:2: world.timestep: must be finite and positive, got 1e-320");
  expectErrorNaming([] { Scene::parse(world("duration = nan\n"), "s.toml"); },
                    "s.toml:2: world.duration: must be finite and positive, got nan");
  expectErrorNaming([] { Scene::parse(world("duration = inf\n"), "s.toml"); },
                    "world.duration: must be finite and positive, got inf");
}

// --duration and --timestep reach runScene after the scene: refused there, naming the option,
// before a step is taken or a file written.
TEST(RunSteps, OptionsAreRefusedNamingTheOption) {
  const std::string out = ::testing::TempDir() + "carom-run-steps";
  std::filesystem::remove_all(out);
  RunOptions options;
  options.scene = std::string(CAROM_SCENES_DIR) + "/rocking_block.toml";
  options.out = out;
  options.quiet = true;
  std::ostringstream log;
  options.duration = kNaN;
  expectErrorNaming([&] { runScene(options, log); }, "--duration: duration must be finite");
  options.duration.reset();
  options.timestep = kNaN;
  expectErrorNaming([&] { runScene(options, log); }, "--timestep: timestep must be finite");
  options.timestep = 1.0;
  options.duration = 1e19;
  expectErrorNaming([&] { runScene(options, log); }, "--duration, --timestep: duration / timestep");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace carom::cli
