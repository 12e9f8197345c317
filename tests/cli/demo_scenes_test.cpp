// The bundled demo scenes (demos/scenes) checked against what their physics says: the superball's
// first bounce against the closed-form rough map, energy in the elastic scenes, the rough ball
// kept between rough plates, the domino chain toppling, the box tower standing, and Tran & Leok
// case III's first impact against the core's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "run_output.h"

#include <LinearMath/btQuaternion.h>
#include <LinearMath/btVector3.h>

namespace carom::cli {
namespace {

using test::CsvRow;
using test::number;
using test::readCsv;

const std::string kScenes = std::string(CAROM_SCENES_DIR) + "/";

btVector3 vectorOf(const CsvRow& row, const char* x, const char* y, const char* z) {
  return {number(row, x), number(row, y), number(row, z)};
}

// The tilt (rad) of a body's z axis from the world's z axis, from a bodies.csv row's quaternion.
double tilt(const CsvRow& row) {
  const double qx = number(row, "qx"), qy = number(row, "qy");
  return std::acos(std::clamp(1 - 2 * (qx * qx + qy * qy), -1.0, 1.0));
}

// The rows of the first and the last frame of bodies.csv, by body.
std::vector<CsvRow> frameRows(const std::vector<CsvRow>& rows, const std::string& t) {
  std::vector<CsvRow> frame;
  for (const CsvRow& row : rows)
    if (row.at("t") == t) frame.push_back(row);
  return frame;
}

// Cox, Feres & Ward §3.1 (digest): a uniform solid ball (I = κ m R², κ = 2/5) on a fixed,
// completely rough floor with normal n; the slip u = v + ω × (−R n) at the contact reverses:
//   v⁺ = v⁻ − (2κ/(1+κ)) u_t,   ω⁺ = ω⁻ + (2/((1+κ)R)) n × u_t
TEST(DemoScenes, SuperballsFirstBounceFollowsTheRoughMap) {
  const double kappa = 0.4, radius = 0.1;
  const btVector3 n(0, 0, 1), v(1, 0, 0), omega(0, -20, 0);  // superball.toml; flight keeps them
  btVector3 u = v + omega.cross(-radius * n);
  u -= u.dot(n) * n;
  const btVector3 vAfter = v - (2 * kappa / (1 + kappa)) * u;
  const btVector3 omegaAfter = omega + (2 / ((1 + kappa) * radius)) * n.cross(u);
  ASSERT_NEAR(vAfter.x(), -5.0 / 7.0, 1e-15);  // the 1-D form's (3v − 4Rω)/7

  // lcp: Bullet moves the ball and the impact is resolved at the end of the step in which it
  // penetrates, so gravity and the penetration enter the map's input: a few per cent.
  const std::pair<SolverKind, double> modes[] = {{SolverKind::variational, 1e-9},
                                                 {SolverKind::lcp, 0.03}};
  for (const auto& [mode, tolerance] : modes) {
    const std::string out = test::runScene(kScenes + "superball.toml", mode, 0.6,
                                           std::string("superball-") + toString(mode));
    const std::vector<CsvRow> events = readCsv(out + "/events.csv");
    ASSERT_FALSE(events.empty()) << toString(mode);
    const double bounce = number(events.front(), "t");
    for (const CsvRow& frame : readCsv(out + "/bodies.csv")) {
      if (number(frame, "t") <= bounce + 0.01) continue;  // the first frame well after the bounce
      const btVector3 vOut = vectorOf(frame, "vx", "vy", "vz");
      const btVector3 omegaOut = vectorOf(frame, "wx", "wy", "wz");
      EXPECT_NEAR(vOut.x(), vAfter.x(), tolerance * std::abs(vAfter.x())) << toString(mode);
      EXPECT_NEAR(vOut.y(), 0, tolerance) << toString(mode);
      EXPECT_NEAR(omegaOut.y(), omegaAfter.y(), tolerance * std::abs(omegaAfter.y()))
          << toString(mode);
      EXPECT_GT(omegaOut.y(), 0) << "the spin reverses, " << toString(mode);
      break;
    }
  }
}

// Elastic impacts and a variational flow between them: the total energy stays at its start.
TEST(DemoScenes, ElasticScenesKeepTheirEnergyInVariationalMode) {
  const std::pair<const char*, double> scenes[] = {{"superball", 2.0},
                                                   {"rough_plates", 10.0},
                                                   {"tumbling_cube", 3.0},
                                                   {"newtons_cradle_gapped", 0.5},
                                                   {"tran_leok_3_ellipsoid_union", 20.0}};
  for (const auto& [scene, duration] : scenes) {
    const std::string out = test::runScene(kScenes + scene + ".toml", SolverKind::variational,
                                           duration, std::string("energy-") + scene);
    const double drift = test::relativeEnergyDrift(out + "/energy.csv");
    std::cout << scene << ": relative energy drift " << drift << " over " << duration << " s\n";
    EXPECT_LT(drift, 1e-9) << scene;
  }
}

// Both plates fully rough: the horizontal velocity turns by 2β = 129.25° per round trip, so the
// ball wanders a bounded distance (it would cross 6.7 m in the 10 s with smooth plates).
TEST(DemoScenes, RoughBallStaysNearItsStartBetweenRoughPlates) {
  const double radius = 0.1, ceiling = 1.0, start = 0.0;
  for (SolverKind mode : {SolverKind::variational, SolverKind::lcp}) {
    const std::string out = test::runScene(kScenes + "rough_plates.toml", mode, 10.0,
                                           "plates-" + std::string(toString(mode)));
    double farthest = 0;
    for (const CsvRow& frame : readCsv(out + "/bodies.csv")) {
      const btVector3 x = vectorOf(frame, "x", "y", "z");
      EXPECT_GT(x.z(), radius - 1e-3) << toString(mode) << " t = " << frame.at("t");
      EXPECT_LT(x.z(), ceiling - radius + 1e-3) << toString(mode) << " t = " << frame.at("t");
      farthest = std::max(farthest, std::hypot(x.x() - start, x.y() - start));
    }
    std::cout << toString(mode) << ": farthest horizontal distance " << farthest << " m\n";
    EXPECT_LT(farthest, 0.5) << toString(mode);
  }
}

// The last frame of a domino run at 1.6 s: every domino has fallen past 60° (the last lies flat,
// the others lean on their neighbour at about 80°) and none is sunk into the floor (a centre
// below the half thickness, 5 mm, by more than 1 mm).
void expectAllToppled(SolverKind mode) {
  const std::string out = test::runScene(kScenes + "domino_chain.toml", mode, 1.6,
                                         "dominoes-" + std::string(toString(mode)));
  const std::vector<CsvRow> rows = readCsv(out + "/bodies.csv");
  const std::vector<CsvRow> last = frameRows(rows, rows.back().at("t"));
  ASSERT_EQ(last.size(), 12u);
  for (const CsvRow& domino : last) {
    EXPECT_GT(tilt(domino), 60 * M_PI / 180) << domino.at("body") << ", " << toString(mode);
    EXPECT_GT(number(domino, "z"), 0.004) << domino.at("body") << ", " << toString(mode);
  }
}

TEST(DemoScenes, DominoChainTopplesInLcpMode) {
  expectAllToppled(SolverKind::lcp);
}

// The slowest test of the suite: the variational world takes about 10 s of a Release build for
// these 1.6 s, most of it once several dominoes lean on each other (docs/modes.md, the limits
// table: slow in busy scenes).
TEST(DemoScenes, DominoChainTopplesInVariationalMode) {
  expectAllToppled(SolverKind::variational);
}

TEST(DemoScenes, BoxTowerStands) {
  // Stock Bullet's tower slides by about 4 mm in 3 s; carom's modes hold it.
  for (SolverKind mode : {SolverKind::variational, SolverKind::lcp}) {
    const std::string out = test::runScene(kScenes + "box_tower.toml", mode, 3.0,
                                           "tower-" + std::string(toString(mode)));
    const std::vector<CsvRow> rows = readCsv(out + "/bodies.csv");
    const std::vector<CsvRow> first = frameRows(rows, rows.front().at("t"));
    const std::vector<CsvRow> last = frameRows(rows, rows.back().at("t"));
    ASSERT_EQ(first.size(), 6u);
    ASSERT_EQ(last.size(), 6u);
    for (std::size_t i = 0; i < first.size(); ++i) {
      const double drift =
          (vectorOf(last[i], "x", "y", "z") - vectorOf(first[i], "x", "y", "z")).length();
      EXPECT_LT(drift, 1e-3) << first[i].at("body") << ", " << toString(mode);
    }
  }
}

// The passive walker on its stepping stones (passive_walker.toml), from the outer legs' rows of
// bodies.csv: its hip (0.25 m up the legs from their centre) above the slope (m) and along it.
struct Hip {
  double height, along;
};
Hip hipOf(const CsvRow& legs) {
  const btQuaternion q(number(legs, "qx"), number(legs, "qy"), number(legs, "qz"),
                       number(legs, "qw"));
  const btVector3 hip = vectorOf(legs, "x", "y", "z") + quatRotate(q, btVector3(0, 0, 0.25));
  const double slope = 3 * M_PI / 180;
  return {hip.dot(btVector3(std::sin(slope), 0, std::cos(slope))),
          hip.dot(btVector3(std::cos(slope), 0, -std::sin(slope)))};
}

// In variational and lcp mode the walker walks its stones for the scene's 5 s: its hip stays at
// least 0.95 m above the slope (0.963 m at its lowest; a foot missing its stone takes it to the
// floor 0.1 m below) and goes 6 steps or more (3.2 m) down it (measured: 3.59 m variational,
// 3.47 m lcp). In variational mode the stance feet, two on each pair of legs, are pinned in the
// legs' constrained flow, so the walker loses energy at its strikes only: the strikes' events
// take the whole loss to 1e-4 (measured 2.9e-5, the flow's O(h²) error; 2.7e-2 with the stance
// held at the velocity level). An impact on both feet of a pair lists each foot's contact with the
// impact's energy change: counted once per instant.
TEST(DemoScenes, PassiveWalkerWalksItsStones) {
  for (SolverKind mode : {SolverKind::variational, SolverKind::lcp}) {
    const std::string out = test::runScene(kScenes + "passive_walker.toml", mode, 5.0,
                                           "walker-" + std::string(toString(mode)));
    double lowest = INFINITY, start = NAN, end = NAN;
    for (const CsvRow& row : readCsv(out + "/bodies.csv")) {
      if (row.at("body") != "outer_legs") continue;
      const Hip hip = hipOf(row);
      lowest = std::min(lowest, hip.height);
      if (std::isnan(start)) start = hip.along;
      end = hip.along;
    }
    EXPECT_GT(lowest, 0.95) << toString(mode);
    EXPECT_GT(end - start, 6 * 0.5356) << toString(mode);
    if (mode != SolverKind::variational) continue;
    std::map<std::string, double> strikes;  // the energy change of the impact at each instant
    for (const CsvRow& event : readCsv(out + "/events.csv"))
      strikes[event.at("t")] = number(event, "dE");
    double struck = 0;
    for (const auto& [t, change] : strikes)
      struck += change;
    const std::vector<CsvRow> energy = readCsv(out + "/energy.csv");
    const double lost = number(energy.back(), "total") - number(energy.front(), "total");
    EXPECT_GE(strikes.size(), 6u);
    EXPECT_LT(std::abs(struck - lost), 1e-4 * std::abs(lost)) << struck << " J vs " << lost << " J";
  }
}

// The compound scene reproduces the core's case III: the same first impact instant (digest lgvci
// §6.4, the core's regression value at h = 0.01).
TEST(DemoScenes, TranLeokCaseIIIFirstImpactIsTheCores) {
  const std::string out = test::runScene(kScenes + "tran_leok_3_ellipsoid_union.toml",
                                         SolverKind::variational, 2.1, "tran-leok-3");
  const std::vector<CsvRow> events = readCsv(out + "/events.csv");
  ASSERT_FALSE(events.empty());
  EXPECT_NEAR(number(events.front(), "t"), 2.009288622469, 1e-9);
}

}  // namespace
}  // namespace carom::cli
