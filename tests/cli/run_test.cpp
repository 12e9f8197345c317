// `carom run` in-process: energy.csv of the elastic Tran & Leok case I ellipsoid, whose total
// energy the variational mode conserves and stock Bullet's step does not, and the exact bytes of
// two runs of one scene.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include "run_command.h"
#include "run_output.h"

namespace carom::cli {
namespace {

using test::readFile;
using test::relativeEnergyDrift;

// Runs the case I ellipsoid for 4 s (400 steps; it first lands near t = 2.5 s) in `solver` into a
// fresh directory.
std::string runEllipsoid(SolverKind solver, const std::string& name) {
  return test::runScene(std::string(CAROM_SCENES_DIR) + "/tran_leok_1_ellipsoid.toml", solver, 4.0,
                        name);
}

TEST(Run, VariationalModeConservesTheElasticEllipsoidsEnergy) {
  const std::string out = runEllipsoid(SolverKind::variational, "variational");
  const double drift = relativeEnergyDrift(out + "/energy.csv");
  std::cout << "variational: relative energy drift " << drift << "\n";
  EXPECT_LT(drift, 1e-9);
}

TEST(Run, StockBulletsEnergyDriftIsReported) {
  const std::string out = runEllipsoid(SolverKind::bullet, "bullet");
  const double drift = relativeEnergyDrift(out + "/energy.csv");
  std::cout << "bullet (stock): relative energy drift " << drift << "\n";
  // Stock Bullet's symplectic Euler step with restitution bounces is not energy-conserving; the
  // test documents the number rather than a bound carom does not own.
  EXPECT_TRUE(std::isfinite(drift));
}

TEST(Run, ImpactEventsAreWrittenInsideTheirStep) {
  const std::string out = runEllipsoid(SolverKind::variational, "events");
  std::istringstream rows(readFile(out + "/events.csv"));
  std::string row;
  std::getline(rows, row);
  ASSERT_EQ(row, "t,bodyA,bodyB,law,contacts,impulse,vn_pre,vn_post,dE");
  int events = 0;
  while (std::getline(rows, row)) {
    ++events;
    const double t = std::stod(row.substr(0, row.find(',')));
    EXPECT_GT(t, 0.0) << row;
    EXPECT_LT(t, 4.0) << row;
    // An impact instant located inside its step is, in general, not a multiple of h.
    EXPECT_GT(std::abs(t * 100 - std::round(t * 100)), 1e-9) << row;
  }
  EXPECT_GE(events, 1);
}

TEST(Run, TwoRunsWriteTheSameBytes) {
  const std::string first = runEllipsoid(SolverKind::variational, "first");
  const std::string second = runEllipsoid(SolverKind::variational, "second");
  for (const char* file : {"/bodies.csv", "/energy.csv", "/events.csv", "/scene.json"})
    EXPECT_EQ(readFile(first + file), readFile(second + file)) << file;
}

TEST(Run, ABadSceneWritesNothing) {
  const std::string out = ::testing::TempDir() + "carom-run-bad";
  std::filesystem::remove_all(out);
  RunOptions options;
  options.scene = std::string(CAROM_BAD_SCENES_DIR) + "/unknown_key.toml";
  options.out = out;
  std::ostringstream log;
  EXPECT_THROW(runScene(options, log), Error);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace carom::cli
