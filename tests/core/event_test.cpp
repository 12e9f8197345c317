#include "carom/core/event.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "carom/error.h"

namespace carom::core {
namespace {

RootSettings settingsFor(RootMethod method) {
  RootSettings s;
  s.method = method;
  return s;
}

class RootMethods : public ::testing::TestWithParam<RootMethod> {};

TEST_P(RootMethods, FindsTheRootFromTheAdmissibleSide) {
  // Smooth decreasing gaps with known roots, including a flat-then-steep one (Illinois's hard
  // case).
  struct Case {
    std::function<double(double)> f;
    double root;
  };
  const Case cases[] = {
      {[](double a) { return 0.3 - a; }, 0.3},
      {[](double a) { return std::cos(a) - a; }, 0.7390851332151607},
      {[](double a) { return 1e-3 * (0.5 - a) * (1.0 + 100.0 * a * a); }, 0.5},
      {[](double a) { return std::exp(-20.0 * a) - 1e-6; }, std::log(1e6) / 20.0},
  };
  for (const Case& c : cases) {
    const RootResult r = locateRoot(c.f, 0.0, c.f(0.0), 1.0, c.f(1.0), settingsFor(GetParam()));
    ASSERT_EQ(r.status, RootStatus::kConverged);
    EXPECT_GE(c.f(r.alpha), 0.0);  // admissible side, always
    EXPECT_LT(c.f(r.upper), 0.0);
    // The default stopping rule: the bracket within 1e-15 (or an exact zero of the gap).
    EXPECT_TRUE(r.phi == 0.0 || r.upper - r.alpha <= 1e-15) << r.alpha << " " << r.upper;
    EXPECT_NEAR(r.alpha, c.root, 1e-14);
    EXPECT_EQ(r.phi, c.f(r.alpha));
  }
}

INSTANTIATE_TEST_SUITE_P(Event, RootMethods,
                         ::testing::Values(RootMethod::kBisection, RootMethod::kIllinois));

TEST(Event, IllinoisNeedsFarFewerEvaluationsThanBisection) {
  const auto f = [](double a) { return std::cos(a) - a; };
  const RootResult bisection =
      locateRoot(f, 0.0, f(0.0), 1.0, f(1.0), settingsFor(RootMethod::kBisection));
  const RootResult illinois =
      locateRoot(f, 0.0, f(0.0), 1.0, f(1.0), settingsFor(RootMethod::kIllinois));
  EXPECT_GE(bisection.evaluations, 45);  // ~log2(1e15)
  EXPECT_LE(illinois.evaluations, 15);
}

TEST(Event, AGapToleranceStopsAtTheFirstPointWithinIt) {
  const auto f = [](double a) { return 1e-3 * (0.3 - a); };
  RootSettings loose = settingsFor(RootMethod::kBisection);
  loose.gapTolerance = 1e-6;
  const RootResult r = locateRoot(f, 0.0, f(0.0), 1.0, f(1.0), loose);
  EXPECT_EQ(r.status, RootStatus::kConverged);
  EXPECT_GE(r.phi, 0.0);
  EXPECT_LE(r.phi, 1e-6);
  EXPECT_LT(r.evaluations, 20);  // the bracket rule alone needs ~50 halvings
}

TEST(Event, ALowerEndAtContactDoesNotStopTheSearch) {
  // After an impact the bracket starts at the contact just resolved (Φ ≈ 0, moving away); the
  // next crossing lies further on, here at 0.6 after the gap rose and fell again.
  const auto f = [](double a) { return 1e-16 + a * (0.6 - a); };
  for (RootMethod method : {RootMethod::kBisection, RootMethod::kIllinois}) {
    const RootResult r = locateRoot(f, 0.0, f(0.0), 1.0, f(1.0), settingsFor(method));
    EXPECT_EQ(r.status, RootStatus::kConverged);
    EXPECT_NEAR(r.alpha, 0.6, 1e-12);
    EXPECT_GE(f(r.alpha), 0.0);
  }
}

TEST(Event, ReportsInvalidBracketNonFiniteGapAndIterationLimit) {
  const auto f = [](double a) { return 0.5 - a; };
  EXPECT_EQ(locateRoot(f, 0.0, -0.1, 1.0, -0.5).status, RootStatus::kInvalidBracket);
  EXPECT_EQ(locateRoot(f, 0.0, 0.5, 1.0, 0.1).status, RootStatus::kInvalidBracket);
  const auto nan = [](double) { return std::numeric_limits<double>::quiet_NaN(); };
  EXPECT_EQ(locateRoot(nan, 0.0, 0.5, 1.0, -0.5).status, RootStatus::kNonFiniteGap);
  RootSettings few = settingsFor(RootMethod::kBisection);
  few.maxIterations = 5;
  const auto g = [](double a) { return 0.3 - a; };  // no dyadic midpoint hits the root
  const RootResult limited = locateRoot(g, 0.0, 0.3, 1.0, -0.7, few);
  EXPECT_EQ(limited.status, RootStatus::kIterationLimit);
  EXPECT_EQ(limited.evaluations, 5);
  EXPECT_GE(g(limited.alpha), 0.0);  // even a failed search keeps the admissible end
}

TEST(Event, RefusesInconsistentSettings) {
  const auto f = [](double a) { return 0.5 - a; };
  RootSettings bad;
  bad.fractionTolerance = 0.0;
  EXPECT_THROW(locateRoot(f, 0.0, 0.5, 1.0, -0.5, bad), Error);
  bad = RootSettings{};
  bad.maxIterations = 0;
  EXPECT_THROW(locateRoot(f, 0.0, 0.5, 1.0, -0.5, bad), Error);
}

}  // namespace
}  // namespace carom::core
