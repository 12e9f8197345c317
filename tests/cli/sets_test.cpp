// `carom sets` in-process: the contacts of a scene, and outcomes.csv of the rocking block against
// the sequential lifts of Halm & Posa (digest §6.1).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "carom/error.h"
#include "scene_contacts.h"
#include "sets_command.h"

namespace carom::cli {
namespace {

const std::string kScenes = CAROM_SCENES_DIR;

// Digest §6.1: A then B leaves the block pivoting about one edge at ω = 0.21 v0 = 0.093018 rad/s.
constexpr double kSequentialLift = 0.093018;

struct Row {
  int sample;
  std::string body;
  double v[6];  // vx, vy, vz, wx, wy, wz
  double kinetic;
};

std::vector<Row> readOutcomes(const std::string& path, std::string& header) {
  std::ifstream file(path);
  std::getline(file, header);
  std::vector<Row> rows;
  std::string line;
  while (std::getline(file, line)) {
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream fields(line);
    Row row;
    fields >> row.sample >> row.body;
    for (double& x : row.v)
      fields >> x;
    fields >> row.kinetic;
    EXPECT_TRUE(fields) << line;
    rows.push_back(row);
  }
  return rows;
}

TEST(Contacts, RockingBlockTouchesAtItsFourBottomCorners) {
  const Scene scene = Scene::fromFile(kScenes + "/rocking_block.toml");
  const auto contacts = findContacts(scene, makeShapes(scene));
  ASSERT_EQ(contacts.size(), 4u);
  for (const SceneContact& contact : contacts) {
    EXPECT_NEAR(std::abs(contact.point.x()), 0.5, 1e-9);
    EXPECT_NEAR(std::abs(contact.point.y()), 0.25, 1e-9);
    EXPECT_NEAR(contact.point.z(), 0.0, 1e-9);
    // From the block (B) towards the floor (A).
    EXPECT_NEAR(contact.normal.z(), -1.0, 1e-12);
  }
}

TEST(Contacts, SeparatedBodiesDoNotTouch) {
  const Scene scene = Scene::parse(R"([[body]]
name = "floor"
shape = "plane"
normal = [0.0, 0.0, 1.0]
[[body]]
name = "ball"
shape = "sphere"
radius = 1.0
mass = 1.0
position = [0.0, 0.0, 1.001]
)");
  EXPECT_TRUE(findContacts(scene, makeShapes(scene)).empty());
}

TEST(Sets, RockingBlockReachesBothSequentialLifts) {
  const std::string out = testing::TempDir() + "carom_sets_rocking";
  std::filesystem::remove_all(out);
  std::ostringstream log;
  runSets({kScenes + "/rocking_block.toml", 1 << 14, out}, log);
  std::string header;
  const std::vector<Row> rows = readOutcomes(out + "/outcomes.csv", header);
  EXPECT_EQ(header, "sample,body,vx,vy,vz,wx,wy,wz,kinetic");
  ASSERT_GT(rows.size(), 10000u);
  // Pivoting about the edge x = ∓0.5 after A then B (or B then A), in the scene's x–z plane:
  // (vx, vy, vz, ωx, ωy, ωz) = (±c, 0, c/2, 0, ±c, 0) with c = 0.093018.
  const double c = kSequentialLift;
  const Eigen::Matrix<double, 6, 1> lifts[2] = {
      (Eigen::Matrix<double, 6, 1>() << c, 0, c / 2, 0, c, 0).finished(),
      (Eigen::Matrix<double, 6, 1>() << -c, 0, c / 2, 0, -c, 0).finished()};
  double nearest[2] = {INFINITY, INFINITY};
  const double kineticBefore = 0.5 * 0.442944691807002 * 0.442944691807002;
  for (const Row& row : rows) {
    EXPECT_EQ(row.body, "block");
    EXPECT_LE(row.kinetic, kineticBefore * (1 + 1e-9));  // an impact never adds energy
    const Eigen::Map<const Eigen::Matrix<double, 6, 1>> v(row.v);
    for (int i = 0; i < 2; ++i)
      nearest[i] = std::min(nearest[i], (v - lifts[i]).norm());
  }
  // A lift is reached only as one edge's caps go to 0 (digest §6.1), so samples approach it
  // without landing on it: 2^14 of them come within 10% of |lift| = 0.14 m/s; rest is 100% away.
  const double tolerance = 0.1 * lifts[0].norm();
  EXPECT_LT(nearest[0], tolerance);
  EXPECT_LT(nearest[1], tolerance);
}

// Runs `carom sets` on a bundled scene; the rows of outcomes.csv grouped by sample, by body name.
std::map<int, std::map<std::string, Row>> sampleScene(const std::string& name) {
  const std::string out = testing::TempDir() + "carom_sets_" + name;
  std::filesystem::remove_all(out);
  std::ostringstream log;
  runSets({kScenes + "/" + name + ".toml", 1 << 14, out}, log);
  std::string header;
  std::map<int, std::map<std::string, Row>> samples;
  for (const Row& row : readOutcomes(out + "/outcomes.csv", header)) {
    samples[row.sample][row.body] = row;
  }
  return samples;
}

TEST(Sets, BoxAndWallReachesTheSequentialOutcome) {
  // Digest §6.3, mapped to the x–z plane: (vx, vz, ωy) = (0.063790, −0.169432, −0.417754).
  const Eigen::Matrix<double, 6, 1> sequential =
      (Eigen::Matrix<double, 6, 1>() << 0.063790, 0, -0.169432, 0, -0.417754, 0).finished();
  double nearest = INFINITY;
  for (const auto& [sample, bodies] : sampleScene("box_and_wall")) {
    const Row& box = bodies.at("box");
    EXPECT_LE(box.kinetic, 0.5 * (1 + 1e-9));
    nearest = std::min(nearest,
                       (Eigen::Map<const Eigen::Matrix<double, 6, 1>>(box.v) - sequential).norm());
  }
  // 5% of |v⁺| = 0.46 m/s; the simultaneous outcome (rest) is 100% away.
  EXPECT_LT(nearest, 0.05 * sequential.norm());
}

TEST(Sets, DiskStackMatchesTheDigestsRanges) {
  // Digest §6.5 with correct tangents: vnA ≤ 0.070, vnC ∈ [0, 0.209], vnD ∈ [0, 0.213].
  const double s3 = std::sqrt(3.0);
  const auto normalVelocity = [&](const Row& top, const Row& lower, double side) {
    // n from the lower disk's centre to the top's: (−side/2, 0, √3/2), side −1 left, +1 right.
    return -side / 2 * (top.v[0] - lower.v[0]) + s3 / 2 * (top.v[2] - lower.v[2]);
  };
  double largestC = 0, largestLift = 0;
  for (const auto& [sample, bodies] : sampleScene("disk_stack")) {
    const Row &top = bodies.at("top"), &left = bodies.at("left"), &right = bodies.at("right");
    const double vnC = normalVelocity(top, left, -1), vnD = normalVelocity(top, right, 1);
    // Terminated samples: no contact approaches (sim.h's tolerance, 1e-8 m/s).
    EXPECT_GE(vnC, -1e-8) << "sample " << sample;
    EXPECT_GE(vnD, -1e-8) << "sample " << sample;
    EXPECT_GE(left.v[2], -1e-8) << "sample " << sample;  // nobody sinks into the ground
    largestC = std::max(largestC, vnC);
    largestLift = std::max({largestLift, left.v[2], right.v[2]});
  }
  EXPECT_GT(largestC, 0.9 * 0.209);
  EXPECT_LT(largestC, 0.213);
  EXPECT_GT(largestLift, 0.0);  // [P]: a lower disk may lift off the ground slightly
  EXPECT_LE(largestLift, 0.070);
}

TEST(Sets, NewtonsCradleConservesMomentumAndNeverGainsEnergy) {
  // Five 0.1 kg balls, the first at 1 m/s, no static body in touch: every outcome keeps the
  // momentum 0.1 kg·m/s and at most the kinetic energy 0.05 J.
  for (const auto& [sample, bodies] : sampleScene("newtons_cradle_touching")) {
    double momentum = 0, kinetic = 0;
    for (const auto& [name, row] : bodies) {
      momentum += 0.1 * row.v[0];
      kinetic += row.kinetic;
    }
    EXPECT_NEAR(momentum, 0.1, 1e-9) << "sample " << sample;
    EXPECT_LE(kinetic, 0.05 * (1 + 1e-9)) << "sample " << sample;
  }
}

TEST(Sets, AFailedSceneLeavesNoOutput) {
  const std::string dir = testing::TempDir() + "carom_sets_failed";
  std::filesystem::remove_all(dir);
  const std::string scene = dir + "-scene.toml";
  std::ofstream(scene) << "[[body]]\nname = \"ball\"\nshape = \"sphere\"\nradius = 1.0\n"
                          "mass = 1.0\n";
  std::ostringstream log;
  EXPECT_THROW(runSets({scene, 100, dir}, log), Error);
  EXPECT_FALSE(std::filesystem::exists(dir + "/outcomes.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/outcomes.svg"));
}

}  // namespace
}  // namespace carom::cli
