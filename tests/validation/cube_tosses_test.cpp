// carom-validate's pieces (validation/src) on real and synthetic tosses: the metrics recomputed
// here from the CSV text and the simulated poses by other formulas, the reader's errors, the
// plumbing of modes and laws, and a cube dropped flat, whose answer is known.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cube_sim.h"
#include "evaluate.h"
#include "first_impact.h"
#include "metrics.h"
#include "nelder_mead.h"
#include "parameters_file.h"
#include "split.h"
#include "toss.h"

namespace carom::validation {
namespace {

const std::string kData = CAROM_VALIDATION_DATA_DIR;

// The CSV's numbers row by row, read without the program's reader.
std::vector<std::vector<double>> rawRows(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::vector<double> row;
    for (std::string cell; std::getline(cells, cell, ',');)
      row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// The angle between two rotations from their matrices: acos((tr(AᵀB) − 1) / 2), in degrees.
double angleByMatrices(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  const double c = ((a.toRotationMatrix().transpose() * b.toRotationMatrix()).trace() - 1) / 2;
  return std::acos(std::clamp(c, -1.0, 1.0)) * 180 / M_PI;
}

// The body axis (0…5: −x, +x, −y, +y, −z, +z) whose world image has the lowest z.
int lowestFace(const Eigen::Quaterniond& q) {
  const Eigen::Matrix3d r = q.toRotationMatrix();
  int face = 0;
  double lowest = INFINITY;
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      const double z = sign * r(2, axis);  // world z of the body axis sign·e_axis
      if (z < lowest) lowest = z, face = 2 * axis + (sign > 0 ? 1 : 0);
    }
  }
  return face;
}

CubeModel fixedModel(SolverKind kind, ImpactLawKind law) {
  CubeModel model;
  model.kind = kind;
  model.law = law;
  model.restitution = 0.3;
  model.friction = 0.2;
  model.heightOffset = 0.001;
  return model;
}

// A handful of real tosses in each mode: the program's metrics equal the ones recomputed here.
TEST(CubeTosses, MetricsMatchAnIndependentComputationOnRealTosses) {
  const std::vector<std::pair<SolverKind, ImpactLawKind>> cases{
      {SolverKind::bullet, ImpactLawKind::kNewton},
      {SolverKind::lcp, ImpactLawKind::kNewton},
      {SolverKind::variational, ImpactLawKind::kStronge}};
  for (const char* name : {"toss_000.csv", "toss_101.csv", "toss_250.csv"}) {
    const std::string path = kData + "/" + name;
    const Toss toss = readToss(path);
    const auto rows = rawRows(path);
    ASSERT_EQ(rows.size(), toss.frames.size()) << name;
    for (const auto& [kind, law] : cases) {
      const CubeModel model = fixedModel(kind, law);
      const SimulatedToss run = simulate(toss, model);
      ASSERT_TRUE(run.finite) << name << " " << caseName(model);
      ASSERT_EQ(run.poses.size(), rows.size());
      double position = 0, rotation = 0;
      for (std::size_t k = 1; k < rows.size(); ++k) {
        const Eigen::Vector3d measured(rows[k][1], rows[k][2], rows[k][3]);
        const Eigen::Quaterniond q(rows[k][4], rows[k][5], rows[k][6], rows[k][7]);
        position += (run.poses[k].position - measured).norm() / 0.1048 / (rows.size() - 1);
        rotation += angleByMatrices(q.normalized(), run.poses[k].rotation) / (rows.size() - 1);
      }
      const auto& last = rows.back();
      const Eigen::Quaterniond qLast(last[4], last[5], last[6], last[7]);
      const TossMetrics m = compare(toss, run);
      const std::string what = std::string(name) + " " + caseName(model);
      EXPECT_NEAR(m.meanPosition, position, 1e-9) << what;
      EXPECT_NEAR(m.meanRotation, rotation, 1e-6) << what;
      EXPECT_NEAR(
          m.endPosition,
          (run.poses.back().position - Eigen::Vector3d(last[1], last[2], last[3])).norm() / 0.1048,
          1e-9)
          << what;
      EXPECT_NEAR(m.endRotation, angleByMatrices(qLast.normalized(), run.poses.back().rotation),
                  1e-6)
          << what;
      EXPECT_EQ(m.restFaceRight,
                lowestFace(qLast.normalized()) == lowestFace(run.poses.back().rotation))
          << what;
      // Sanity of the simulation itself: a fitted-looking run stays within a side of the data on
      // average and never sinks more than a centimetre.
      EXPECT_LT(m.meanPosition, 1.0) << what;
      EXPECT_LT(m.penetration, 0.01) << what;
    }
  }
}

// The simulation's gravity is the data's: a parabola fitted here to each flight before the cube
// comes within 1 cm of the board falls at kGravity (the data's 9.61 m/s², not 9.81), to 0.1.
TEST(CubeTosses, DataFallsAtTheModelsGravity) {
  for (const char* name : {"toss_000.csv", "toss_101.csv", "toss_250.csv"}) {
    const auto rows = rawRows(kData + "/" + name);
    Eigen::Matrix3d normal = Eigen::Matrix3d::Zero();  // least squares z = a + b t + c t²
    Eigen::Vector3d rhs = Eigen::Vector3d::Zero();
    for (const auto& row : rows) {
      const Eigen::Quaterniond q(row[4], row[5], row[6], row[7]);
      const Eigen::Matrix3d r = q.normalized().toRotationMatrix();
      const double lowest = row[3] - kNominalHalfSide * r.row(2).cwiseAbs().sum();
      if (lowest < 0.01) break;
      const Eigen::Vector3d basis(1, row[0], row[0] * row[0]);
      normal += basis * basis.transpose();
      rhs += basis * row[3];
    }
    const Eigen::Vector3d fit = normal.ldlt().solve(rhs);
    EXPECT_NEAR(-2 * fit[2], kGravity, 0.1) << name;
  }
}

// A cube sliding flat stops after v²/(2 μ g) with μ the sustained contacts' μ in carom's modes,
// whatever the impacts' μ, and with Bullet's one μ in stock Bullet.
TEST(CubeTosses, AFlatSlideStopsAtTheSlidingFriction) {
  InitialState start;  // flat on its −z face: the centre of mass kCentreOfMass above the centre
  start.position = Eigen::Vector3d(0, 0, kHalfSide) + kCentreOfMass;
  start.rotation = Eigen::Quaterniond::Identity();
  start.velocity = Eigen::Vector3d(0.5, 0, 0);
  start.omegaWorld = Eigen::Vector3d::Zero();
  for (const char* name : {"bullet@4", "lcp/stronge", "variational/stronge"}) {
    CubeModel model = parseCaseName(name);
    model.restitution = 0.3;
    model.friction = 0.05;
    model.slidingFriction = 0.3;
    const double mu = model.kind == SolverKind::bullet ? 0.05 : 0.3;
    const SimulatedToss run = simulateFrom(start, 296, model);  // 2 s: every slide stops
    ASSERT_TRUE(run.finite) << name;
    // lcp mode stops 4 % short (measured); the two μ differ sixfold.
    const double distance = 0.25 / (2 * mu * 9.61);
    EXPECT_NEAR(run.poses.back().position.x(), distance, 0.05 * distance) << name;
  }
}

// A cube dropped flat from 0.2 m with no spin in every mode and law: it must rest on the face it
// fell on, level, with its centre a half side above the board; the laws that ran are the asked
// ones.
TEST(CubeTosses, CubeDroppedFlatRestsOnTheFaceItFellOn) {
  InitialState start;
  start.position = Eigen::Vector3d(0, 0, 0.2);
  start.rotation = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ());  // a turn about the vertical
  start.velocity = Eigen::Vector3d(0.1, 0, 0);
  start.omegaWorld = Eigen::Vector3d::Zero();
  const int frames = 300;  // 2 s
  for (const char* name : {"bullet", "lcp/newton", "lcp/stronge", "variational/newton",
                           "variational/poisson", "variational/stronge", "variational/strict-k0"}) {
    CubeModel model = parseCaseName(name);
    model.restitution = 0.3;
    model.friction = 0.3;
    const SimulatedToss run = simulateFrom(start, frames, model);
    ASSERT_TRUE(run.finite) << name;
    const Pose& end = run.poses.back();
    EXPECT_EQ(downFace(end.rotation), 4) << name;  // body −z still down
    EXPECT_EQ(lowestFace(end.rotation), 4) << name;
    // Level: the body z axis stays vertical.
    EXPECT_GT((end.rotation * Eigen::Vector3d::UnitZ()).z(), std::cos(M_PI / 180)) << name;
    // The heading, to 5°: Bullet finds the rounded cube's face contact points by perturbed support
    // queries, a little asymmetric, and landing and sliding on them turn the cube by up to 4.3°
    // (measured: variational 1.1–4.3°, stock Bullet 4.3°, lcp 0.01°).
    EXPECT_LT(angleByMatrices(end.rotation, start.rotation), 5.0) << name;
    EXPECT_NEAR(end.position.z(), 0.0524, 2e-3) << name;
    // The slide stops: μ g decelerates 0.1 m/s within the run.
    EXPECT_NEAR(end.position.x(), run.poses[frames - 10].position.x(), 1e-4) << name;
    if (model.kind == SolverKind::bullet) {
      EXPECT_TRUE(run.laws.empty()) << name;
    } else {
      ASSERT_FALSE(run.laws.empty()) << name;
      // A flat landing strikes with four corners at once: a simultaneous model or the law itself.
      const std::string law = core::impact::toString(model.law);
      bool seen = false;
      for (const std::string& l : run.laws)
        seen = seen || l.find(law) != std::string::npos || l == "routh";
      EXPECT_TRUE(seen) << name << ": laws " << run.laws.front();
    }
  }
}

// A cube balanced on an edge, its centre of mass off the geometric centre towards one body face
// (kCentreOfMass or its opposite): it falls towards the centre of mass, in every mode, and the
// pose reported is the geometric centre's, resting a half side above the board. Turned 45° about
// x, the faces on the board's side of the edge are −y (normal towards world −y) and −z (towards
// +y); the centre of mass R c lies towards −y for c along +z, towards +y for c along −z.
TEST(CubeTosses, ACubeOnAnEdgeFallsTowardsItsCentreOfMass) {
  const Eigen::Quaterniond onEdge(Eigen::AngleAxisd(M_PI / 4, Eigen::Vector3d::UnitX()));
  for (const char* name : {"bullet@4", "lcp/stronge", "variational/stronge"}) {
    for (const double sign : {1.0, -1.0}) {
      CubeModel model = parseCaseName(name);
      model.restitution = 0.2;
      model.friction = 0.2;
      model.centreOfMass = sign * kCentreOfMass;
      InitialState start;  // the edge 1 mm above the board, at rest
      start.rotation = onEdge;
      start.position =
          Eigen::Vector3d(0, 0, std::sqrt(2.0) * kHalfSide + 1e-3) + onEdge * model.centreOfMass;
      start.velocity = start.omegaWorld = Eigen::Vector3d::Zero();
      const SimulatedToss run = simulateFrom(start, 150, model);  // 1 s
      ASSERT_TRUE(run.finite) << name;
      const Pose& end = run.poses.back();
      EXPECT_EQ(downFace(end.rotation), sign > 0 ? 2 : 4) << name << " " << sign;
      EXPECT_NEAR(end.position.z(), kHalfSide, 2e-3) << name << " " << sign;
    }
  }
}

// A simulated trajectory compared with itself, written as a toss: every error is zero.
TEST(CubeTosses, ATrajectoryComparedWithItselfHasNoError) {
  InitialState start;
  start.position = Eigen::Vector3d(0.1, -0.2, 0.25);
  start.rotation =
      Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  start.velocity = Eigen::Vector3d(0.5, 0.2, 0.0);
  start.omegaWorld = Eigen::Vector3d(3, -2, 5);
  CubeModel model;  // variational, Stronge
  const SimulatedToss run = simulateFrom(start, 200, model);
  Toss toss;
  toss.number = 7;
  for (std::size_t k = 0; k < run.poses.size(); ++k) {
    Frame frame;
    frame.t = k / 148.0;
    frame.position = run.poses[k].position;
    frame.rotation = run.poses[k].rotation;
    frame.velocity = frame.omegaBody = Eigen::Vector3d::Zero();
    toss.frames.push_back(frame);
  }
  const TossMetrics m = compare(toss, run);
  EXPECT_EQ(m.meanPosition, 0.0);
  EXPECT_EQ(m.endPosition, 0.0);
  EXPECT_NEAR(m.meanRotation, 0.0, 1e-5);  // acos near 1 magnifies round-off: 2√(2ε) rad
  EXPECT_NEAR(m.endRotation, 0.0, 1e-5);
  EXPECT_TRUE(m.restFaceRight);
  // The tumbling cube did land and settle: the run is a real trajectory, not a frozen one.
  EXPECT_GT((run.poses.back().position - start.position).norm(), 0.1);
}

// The compliant Stronge cases: their names round-trip, their η² survives the parameters file (an
// older file without the column reads as 0), and it reaches the world: a cube tumbling onto a
// corner leaves it differently with a tangentially compliant contact.
TEST(CubeTosses, CompliantCasesFitAndRunTheirCompliance) {
  const CubeModel parsed = parseCaseName("lcp/stronge-tc@4");
  EXPECT_TRUE(parsed.compliant);
  EXPECT_EQ(parsed.law, ImpactLawKind::kStronge);
  EXPECT_EQ(caseName(parsed), "lcp/stronge-tc@4");
  EXPECT_FALSE(parseCaseName("variational/stronge").compliant);
  EXPECT_THROW(parseCaseName("variational/newton-tc"), std::invalid_argument);

  const std::string path = ::testing::TempDir() + "/carom_fitted_tc.csv";
  FittedCase compliant{parseCaseName("variational/stronge-tc"), 0.1, 50};
  compliant.model.restitution = 0.25, compliant.model.friction = 0.17;
  compliant.model.tangentialCompliance = 1.2345;
  writeParameters(path, {compliant, FittedCase{parseCaseName("bullet"), 0.2, 60}});
  const std::vector<FittedCase> read = readParameters(path);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(caseName(read[0].model), "variational/stronge-tc");
  EXPECT_EQ(read[0].model.tangentialCompliance, 1.2345);
  EXPECT_EQ(read[1].model.tangentialCompliance, 0.0);
  std::ofstream(path) << "case,restitution,friction,height_offset,train_mean_position,evaluations\n"
                         "variational/stronge,0.2545,0.1697,-0.00057,0.11074,50\n";
  EXPECT_EQ(readParameters(path).at(0).model.tangentialCompliance, 0.0);
  std::ofstream(path) << "case,restitution,friction,height_offset,tangential_compliance,"
                         "train_mean_position,evaluations\n"
                         "variational/stronge,0.2545,0.1697,-0.00057,1.0,0.11074,50\n";
  EXPECT_THROW(readParameters(path), std::runtime_error);

  InitialState start;  // a corner first, rolling forward
  start.position = Eigen::Vector3d(0, 0, 0.15);
  start.rotation =
      Eigen::Quaterniond(Eigen::AngleAxisd(0.6, Eigen::Vector3d(1, 1, 0).normalized()));
  start.velocity = Eigen::Vector3d(1.0, 0, -0.5);
  start.omegaWorld = Eigen::Vector3d(0, 4.0, 0);
  CubeModel rigid = parseCaseName("variational/stronge");
  rigid.restitution = 0.25, rigid.friction = 0.17;
  CubeModel soft = rigid;
  soft.compliant = true;
  soft.tangentialCompliance = 1.5;
  const SimulatedToss a = simulateFrom(start, 60, rigid), b = simulateFrom(start, 60, soft);
  ASSERT_TRUE(a.finite && b.finite);
  EXPECT_GT((a.poses.back().position - b.poses.back().position).norm(), 1e-3);
  soft.tangentialCompliance = 0.0;  // η² = 0: the rigid law exactly
  EXPECT_EQ(simulateFrom(start, 60, soft).poses.back().position, a.poses.back().position);
}

TEST(CubeTosses, MalformedFilesNameTheFileAndLine) {
  const std::string dir = ::testing::TempDir() + "/carom_bad_tosses";
  std::filesystem::create_directories(dir);
  auto expectError = [&](const std::string& text, const std::string& expected) {
    const std::string path = dir + "/toss_001.csv";
    std::ofstream(path) << text;
    try {
      readToss(path);
      ADD_FAILURE() << "no error for: " << text;
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find(path + ":" + expected), std::string::npos)
          << error.what();
    }
  };
  const std::string header = "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
  const std::string row = "0,0,0,0.2,1,0,0,0,0,0,0,0,0,0\n";
  expectError("t,x,y\n", "1: expected the header");
  expectError(header + row + "0.01,0,0,0.2,1,0,0,0,0,0,0,0,0\n", "3: expected 14 columns");
  expectError(header + row + "0.01,0,0,abc,1,0,0,0,0,0,0,0,0,0\n", "3: column 4: not a finite");
  expectError(header + row + "0.01,0,0,0.2,2,0,0,0,0,0,0,0,0,0\n", "3: the quaternion");
  expectError(header + row + row, "3: time does not increase");
  expectError(header + row + "0.01,0,0,0.2,1,0,0,0,0,0,0,0,0,0,5\n", "3: more than 14 columns");
}

// The split keeps twins (the source's turned copies) together and does not depend on file order.
TEST(CubeTosses, SplitKeepsTwinsTogether) {
  std::vector<Toss> tosses;
  for (int number : {40, 41, 369})
    tosses.push_back(readToss(kData + "/toss_" + std::string(number < 100 ? "0" : "") +
                              std::to_string(number) + ".csv"));
  ASSERT_TRUE(areTwins(tosses[0], tosses[2]));  // 369 is 40 turned (data README)
  const Split split = splitTosses(tosses);
  ASSERT_EQ(split.train.size(), 2u);
  EXPECT_EQ(split.train[0]->number, 40);
  EXPECT_EQ(split.train[1]->number, 369);  // odd, but its twin's number is even
  ASSERT_EQ(split.test.size(), 1u);
  EXPECT_EQ(split.test[0]->number, 41);
}

// Metrics are the same for any number of threads.
TEST(CubeTosses, EvaluationDoesNotDependOnTheThreadCount) {
  std::vector<Toss> tosses;
  for (const char* name : {"toss_002.csv", "toss_004.csv", "toss_005.csv"})
    tosses.push_back(readToss(kData + "/" + name));
  std::vector<const Toss*> pointers;
  for (const Toss& t : tosses)
    pointers.push_back(&t);
  const CubeModel model = fixedModel(SolverKind::variational, ImpactLawKind::kNewton);
  const auto one = evaluate(pointers, model, 1), two = evaluate(pointers, model, 2);
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].meanPosition, two[i].meanPosition);
    EXPECT_EQ(one[i].meanRotation, two[i].meanRotation);
  }
}

// A level cube falls onto the board and leaves it at −e times its speed, the impact half-way
// between two frames: a four-corner first impact whose answer is the symmetric one, which the
// simultaneous resolution gives exactly and the Halm–Posa set contains.
TEST(CubeTosses, FlatFirstImpactIsFoundAndTheSetHoldsTheMeasurement) {
  const double dt = 1 / 148.0, g = kGravity, e = 0.3, vImpact = -2.0;
  const double tImpact = 20.5 * dt;  // between frames 20 and 21
  Toss toss;
  toss.number = 2;
  for (int k = 0; k < 40; ++k) {
    const double t = k * dt, s = t - tImpact;
    Frame frame;
    frame.t = t;
    const double v0 = s < 0 ? vImpact : -e * vImpact;
    frame.position = Eigen::Vector3d(0, 0, kHalfSide + v0 * s - g * s * s / 2);
    frame.rotation = Eigen::Quaterniond::Identity();
    frame.velocity = frame.omegaBody = Eigen::Vector3d::Zero();
    toss.frames.push_back(frame);
  }
  FirstImpactOptions options;
  options.heightOffset = 0;
  options.restitution = e;
  options.friction = 0.2;
  const auto result = analyseFirstImpact(toss, options);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->frame, 20);
  EXPECT_EQ(result->corners, 4);
  ASSERT_EQ(result->models.size(), 3u);
  EXPECT_LT(result->modelDistance[0], 1e-6);  // simultaneous: v⁺ = −e v⁻, no spin
  EXPECT_LT(result->setDistance, 0.05);
  // One corner after another tips a level cube: a sequential resolution is off.
  EXPECT_GT(result->modelDistance[1], 0.05);
}

// Nelder–Mead finds a bounded quadratic's minimum, inside and on the box.
TEST(CubeTosses, NelderMeadFindsTheMinimumOfABoundedQuadratic) {
  auto f = [](const std::vector<double>& x) {
    return std::pow(x[0] - 0.3, 2) + 4 * std::pow(x[1] + 0.5, 2);
  };
  NelderMeadOptions options;
  options.maxEvaluations = 200;
  options.fTolerance = 1e-12;
  options.xTolerance = 1e-7;
  const NelderMeadResult inside = nelderMead(f, {0.9, 0.9}, {0, -1}, {1, 1}, options);
  EXPECT_NEAR(inside.x[0], 0.3, 1e-4);
  EXPECT_NEAR(inside.x[1], -0.5, 1e-4);
  EXPECT_LE(inside.evaluations, 200);
  const NelderMeadResult bounded = nelderMead(f, {0.9, 0.9}, {0.5, 0}, {1, 1}, options);
  EXPECT_NEAR(bounded.x[0], 0.5, 1e-4);
  EXPECT_NEAR(bounded.x[1], 0.0, 1e-4);
}

}  // namespace
}  // namespace carom::validation
