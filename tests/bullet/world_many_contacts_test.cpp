// Many contacts struck at once: a pyramid of 21 boxes with a 4 cm gap under every level. All its
// levels fall together, and each lands on the level below with every box of both at once, more
// contacts than one impact's LCPs take (solver.simultaneous_contacts, detail::simultaneousPath):
// under the routh model each such landing is one Anitescu–Potra impact solved by sweeps, under the
// sequential model its contacts are struck in turn (lcp mode here; simultaneous_sweeps_test.cpp
// strikes a slab in turn in variational mode). Either way the step finishes (a 55-box pyramid
// did not finish its landing step in minutes before), no energy is made, and the pyramid stands
// where it landed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bullet/box_pyramid.h"

namespace carom {
namespace {

constexpr int kLevels = 6;
constexpr double kGap = 0.04;  // m, under every level

struct Landing {
  bool inTurn = false;          // an event's law says it was resolved in turn
  bool bySweeps = false;        // an event's law says it was resolved by sweeps
  int diagnosedBySweeps = 0;    // StepDiagnostics::impactsBySweeps, summed (variational mode)
  int diagnosedInTurn = 0;      // StepDiagnostics::impactsInTurn, summed (variational mode)
  double largestGain = 0;       // largest one-step energy increase (J)
  double energyChange = 0;      // end less start (J)
  double farthestFromRest = 0;  // the largest distance of a box from its place in the pyramid (m)
};

Landing dropPyramid(SolverKind kind, SimultaneousModel model) {
  Config config = test::configWithMaterial(kind, ImpactLawKind::kStronge, 0.0, 0.6);
  config.solver.simultaneous = model;
  test::Scene<DynamicsWorld> scene(config);
  if (kind == SolverKind::lcp) scene.useMultipointManifolds();
  const test::BoxPyramid pyramid = test::addBoxPyramid(scene, kLevels, kGap);
  Landing landing;
  const double start = test::totalEnergy(scene.world());
  double previous = start;
  for (int step = 0; step < 40; ++step) {  // the top level lands by step 20
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    landing.diagnosedBySweeps += scene.world().getLastStepDiagnostics().impactsBySweeps;
    landing.diagnosedInTurn += scene.world().getLastStepDiagnostics().impactsInTurn;
    const double energy = test::totalEnergy(scene.world());
    landing.largestGain = std::max(landing.largestGain, energy - previous);
    previous = energy;
  }
  landing.energyChange = previous - start;
  for (const ImpactEvent& event : scene.world().getImpactEvents()) {
    landing.inTurn = landing.inTurn || event.law.find("in turn") != std::string::npos;
    landing.bySweeps = landing.bySweeps || event.law.find("by sweeps") != std::string::npos;
  }
  landing.farthestFromRest = pyramid.farthestFromRest();
  std::printf(
      "[ measured ] %s, %s: in turn %d, by sweeps %d, largest step gain %.3e J, energy change "
      "%.3e J, farthest box %.3e m from rest\n",
      toString(kind), toString(model), landing.inTurn, landing.bySweeps, landing.largestGain,
      landing.energyChange, landing.farthestFromRest);
  return landing;
}

TEST(ManyContacts, DroppedPyramidLandsBySweepsAndStandsInVariationalMode) {
  const Landing landing = dropPyramid(SolverKind::variational, SimultaneousModel::routh);
  EXPECT_TRUE(landing.bySweeps);
  EXPECT_FALSE(landing.inTurn);
  EXPECT_GT(landing.diagnosedBySweeps, 0);
  EXPECT_EQ(landing.diagnosedInTurn, 0);
  // No step makes energy beyond round-off of the pyramid's 3.2 kJ of potential energy.
  EXPECT_LT(landing.largestGain, 1e-9);
  EXPECT_LT(landing.energyChange, 0);
  // Standing: no box a hundredth of its size from its place (a box knocked off moves by metres).
  EXPECT_LT(landing.farthestFromRest, 1e-2);
}

// The routh model by sweeps, the sequential model in turn.
TEST(ManyContacts, DroppedPyramidLandsBySweepsOrInTurnAndStandsInLcpMode) {
  for (const SimultaneousModel model : {SimultaneousModel::routh, SimultaneousModel::sequential}) {
    const Landing landing = dropPyramid(SolverKind::lcp, model);
    const bool sequential = model == SimultaneousModel::sequential;
    EXPECT_EQ(landing.bySweeps, !sequential) << toString(model);
    EXPECT_EQ(landing.inTurn, sequential) << toString(model);
    EXPECT_LT(landing.energyChange, 0) << toString(model);
    EXPECT_LT(landing.farthestFromRest, 1e-2) << toString(model);
  }
}

}  // namespace
}  // namespace carom
