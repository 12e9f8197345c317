// A pile settling in a bin in variational mode. A landing inside the step holds its whole island
// again, so what the step spends on a pile is mostly its landings. A pair that its bodies' free
// flight closes at most at its resting speed is held at a landing as at the start of the step
// (world_persistent.cpp): left free, it lands on its own later in the step and holds the island
// once more.
#include <gtest/gtest.h>

#include <algorithm>

#include "scenes.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;

// The scene benchmark's bin of 20 spheres, boxes and ellipsoids, poured for a second and then
// watched for 100 steps while it settles: 289 events in the release build and 341 in the
// sanitizers' build, whose rounding takes the chaotic pour down another path (measured); 385 in
// the release build where a landing held only the pairs that touch. Its energy only falls.
TEST(PileLandings, ALandingHoldsTheSlowlyClosingPairsOfItsIsland) {
  bench::World scene(test::configWith(SolverKind::variational));
  bench::pourIntoBin(scene, 20);
  for (int step = 0; step < 60; ++step)
    ASSERT_NO_THROW(scene.world().stepSimulation(kH, 1, kH));
  const double e0 = test::totalEnergy(scene.world());
  int events = 0;
  double highest = e0;
  for (int step = 0; step < 100; ++step) {
    ASSERT_NO_THROW(scene.world().stepSimulation(kH, 1, kH));
    events += scene.world().getLastStepDiagnostics().impacts;
    highest = std::max(highest, test::totalEnergy(scene.world()));
  }
  EXPECT_LE(events, 360);
  EXPECT_LE(highest, e0 * (1 + 1e-12));
}

}  // namespace
}  // namespace carom
