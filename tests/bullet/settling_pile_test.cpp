// A pile that has landed comes to rest in variational mode. The start of the step's hold of a
// settled pile of boxes stops short of converging (Gauss–Seidel crawls on its redundant corners and
// side contacts) and leaves some pairs sinking by a few micrometres over the step; the next step's
// hold takes that back. Landed inside the step instead, each such pair held the whole pile again
// and left others sinking: a pyramid dropped from 4 cm gaps went on landing two to four times a
// step and never came to rest (VariationalStep::isCreeping).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "bullet/box_pyramid.h"

namespace carom {
namespace {

constexpr int kLevels = 7;
constexpr double kGap = 0.04;  // m, under every level

TEST(SettlingPile, ADroppedPyramidComesToRestWithoutLandingAgain) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.0, 0.6));
  const test::BoxPyramid pyramid = test::addBoxPyramid(scene, kLevels, kGap);
  const double start = test::totalEnergy(scene.world());
  double previous = start, largestGain = 0;
  int landings = 0, restingSteps = 0;
  constexpr int kLanded = 40, kSteps = 70;  // the top level lands by step 20
  for (int step = 0; step < kSteps; ++step) {
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    const double energy = test::totalEnergy(scene.world());
    largestGain = std::max(largestGain, energy - previous);
    previous = energy;
    if (step < kLanded) continue;
    const StepDiagnostics& diagnostics = scene.world().getLastStepDiagnostics();
    landings += diagnostics.impacts;
    restingSteps += diagnostics.restingIslands + diagnostics.stillIslands > 0 ? 1 : 0;
  }
  const double farthest = pyramid.farthestFromRest();
  double fastest = 0;
  for (const btRigidBody* box : pyramid.boxes)
    fastest = std::max(fastest, static_cast<double>(box->getLinearVelocity().length()));
  std::printf(
      "[ measured ] steps %d-%d: %d landings, %d of %d steps at rest; farthest box %.3e m from "
      "its place, fastest %.3e m/s; largest step gain %.3e J\n",
      kLanded, kSteps - 1, landings, restingSteps, kSteps - kLanded, farthest, fastest,
      largestGain);
  EXPECT_EQ(landings, 0);
  EXPECT_EQ(restingSteps, kSteps - kLanded);
  EXPECT_LT(largestGain, 1e-9);  // of the pyramid's 1.4 kJ of potential energy
  EXPECT_LT(farthest, 1e-2);     // standing: a box knocked off moves by metres
  EXPECT_LT(fastest, 1e-3);
}

// Landed, a pile comes to a standstill: its islands are taken as still (their bodies exactly at
// rest), whatever the heights it fell from. Held closing onto the exact surface from the gaps of
// 1e-14 to 1e-8 m its redundant contacts keep, a pile's loops of contacts cannot close them all,
// and it creeps on.
TEST(SettlingPile, ADroppedPyramidComesToAStandstill) {
  for (const double gap : {0.036, 0.038, 0.039, 0.042, 0.044}) {
    SCOPED_TRACE("gap " + std::to_string(gap));
    test::Scene<DynamicsWorld> scene(
        test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.0, 0.6));
    test::addBoxPyramid(scene, kLevels, gap);
    // The top level lands by step 20; still from step 60 on at the latest.
    constexpr int kSteps = 120, kStill = 60;
    int stillSince = kSteps;
    for (int step = 0; step < kSteps; ++step) {
      scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
      const bool still = scene.world().getLastStepDiagnostics().stillIslands > 0;
      if (!still)
        stillSince = kSteps;
      else if (stillSince == kSteps)
        stillSince = step;
    }
    std::printf("[ measured ] dropped from %.3f m gaps: still from step %d\n", gap, stillSince);
    EXPECT_LE(stillSince, kSteps - kStill);
  }
}

}  // namespace
}  // namespace carom
