// The persistent-contact solver's crawl stop (PersistentContactSettings::crawlAbove): a solve whose
// change per sweep falls too slowly to reach its tolerance within its cap stops early and says so;
// one that will reach it is left to converge.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "carom/core/contact/persistent_contact.h"
#include "carom/error.h"
#include "contact_scenes.h"

namespace carom::core::contact {
namespace {

using namespace test_scenes;

// Plain Gauss–Seidel (no momentum, no subspace solves): on HeavyOnLight its change per sweep
// contracts by M/(M + m) per sweep, so the sweeps it needs are known in closed form.
PersistentContactSettings gaussSeidel(int cap, double crawlAbove) {
  PersistentContactSettings settings;
  settings.maxIterations = cap;
  settings.stallSweeps = cap;  // never before the cap: only the crawl stop may end it early
  settings.momentum = false;
  settings.crawlAbove = crawlAbove;
  return settings;
}

// The sweeps Gauss–Seidel needs from the first sweep's change (g h, the blocks' fall) to 1e-12 m/s
// at a contraction of M/(M + m) per sweep.
double sweepsToTolerance(double heavyMass) {
  return std::log(1e-12 / (kG * kH)) / std::log(heavyMass / (heavyMass + 1.0));
}

TEST(CrawlStop, ASolveThatCannotReachItsToleranceWithinTheCapStopsAtTheFirstJudgement) {
  constexpr double kHeavy = 1e5;  // contraction 0.99999 per sweep: millions of sweeps to go
  ASSERT_GT(sweepsToTolerance(kHeavy), 1e6);
  HeavyOnLight stack(kHeavy);
  const PersistentContactReport report =
      solvePersistentContacts(stack.bodies, stack.contacts, gaussSeidel(5000, 1e-15));
  EXPECT_EQ(report.status, PersistentContactStatus::kStalled);
  EXPECT_EQ(report.iterations, 256);
  EXPECT_NE(report.message.find("crawling after 256 sweeps"), std::string::npos) << report.message;
  EXPECT_LE(report.energyChange, 0.0);
}

TEST(CrawlStop, ASolveThatWillConvergeWithinTheCapIsLeftToConverge) {
  constexpr double kHeavy = 20.0;  // contraction 20/21 per sweep: about 520 sweeps
  const double needed = sweepsToTolerance(kHeavy);
  ASSERT_GT(needed, 400.0);
  ASSERT_LT(needed, 700.0);
  HeavyOnLight converging(kHeavy);
  const PersistentContactReport report =
      solvePersistentContacts(converging.bodies, converging.contacts, gaussSeidel(2000, 1e-15));
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GT(report.iterations, 288);  // judged from the 256th sweep on and left going
  // The same solve with a cap below what it needs is judged hopeless at once.
  HeavyOnLight capped(kHeavy);
  const PersistentContactReport stopped =
      solvePersistentContacts(capped.bodies, capped.contacts, gaussSeidel(400, 1e-15));
  EXPECT_EQ(stopped.status, PersistentContactStatus::kStalled);
  EXPECT_EQ(stopped.iterations, 256);
}

TEST(CrawlStop, ChangesBelowItsLevelAreLeftToTheStallWindowAndTheCap) {
  HeavyOnLight stack(1e5);
  // The first sweep's change is g h ≈ 0.16 m/s and falls below 1 m/s at once: never judged.
  const PersistentContactReport report =
      solvePersistentContacts(stack.bodies, stack.contacts, gaussSeidel(500, 1.0));
  EXPECT_EQ(report.status, PersistentContactStatus::kIterationLimit);
  EXPECT_EQ(report.iterations, 500);
  HeavyOnLight byDefault(1e5);  // the default level, +∞, never stops a solve
  PersistentContactSettings settings = gaussSeidel(500, 1.0);
  settings.crawlAbove = PersistentContactSettings{}.crawlAbove;
  EXPECT_EQ(solvePersistentContacts(byDefault.bodies, byDefault.contacts, settings).iterations,
            500);
}

TEST(CrawlStop, RefusesALevelThatIsNotPositive) {
  for (const double level : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    HeavyOnLight stack(1.0);
    const std::vector<ContactBody> before = stack.bodies;
    EXPECT_THROW(solvePersistentContacts(stack.bodies, stack.contacts, gaussSeidel(10, level)),
                 Error);
    EXPECT_EQ(stack.bodies[1].linearVelocity, before[1].linearVelocity);
  }
}

}  // namespace
}  // namespace carom::core::contact
