// pathDrift (plugin/bullet/variational_step.h): when a body's momentum changes inside a step, its
// path over the rest of the step moves by at most pathDrift of its old and new trial ends, at every
// instant and every point within its reach. The old path is the flow from an anchor earlier in the
// step, the new one the flow from the changed state now (the variational step's paths), so the
// bound must take in the flow's failure to compose as well as the change itself: checked over
// random bodies, spins up to the half radian over the step below which it is finite, and changes
// from none to a tenth of a metre per second.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "carom/core/lgvi.h"
#include "carom/core/lie.h"
#include "variational_step.h"

namespace carom {
namespace {

constexpr double kSpan = 1.0 / 60;  // s: one step at 60 Hz

// How far the points within `reach` of a body's centre are apart in two poses, at most (m).
double largestMove(const core::BodyState& a, const core::BodyState& b, double reach) {
  const Eigen::JacobiSVD<core::Mat3> svd(b.R - a.R);
  return (b.x - a.x).norm() + svd.singularValues()(0) * reach;
}

// The bodies the tests draw: a box and an ellipsoid of the same extents in turn, turned, placed
// and moving at random.
class RandomBodies {
 public:
  explicit RandomBodies(unsigned seed) : random_(seed) {}
  double unit() { return unit_(random_); }
  core::Vec3 direction() { return core::Vec3(unit(), unit(), unit()).normalized(); }
  static core::Vec3 halfExtents() { return {0.2, 0.1, 0.05}; }
  static core::MassProperties massOf(int trial) {
    return trial % 2 == 0 ? core::uniformBox(1.0, 2 * halfExtents())
                          : core::uniformEllipsoid(3.0, halfExtents());
  }

 private:
  std::mt19937 random_;
  std::uniform_real_distribution<double> unit_{-1, 1};
};

TEST(PathDrift, BoundsTheMoveOfAChangedPathOverTheRestOfTheStep) {
  RandomBodies draw(11);
  const core::Vec3 halfExtents = RandomBodies::halfExtents();
  int bounded = 0;  // trials turning little enough for a finite bound
  for (int trial = 0; trial < 400; ++trial) {
    const core::MassProperties mass = RandomBodies::massOf(trial);
    const double reach = halfExtents.norm();
    core::ExternalLoad load;
    load.gravity = core::Vec3(0, -9.81, 0);
    core::BodyState anchor;
    anchor.R = core::expSO3(3.0 * draw.direction());
    anchor.x = draw.direction();
    anchor.gamma = mass.mass() * 2.0 * std::abs(draw.unit()) * draw.direction();
    // Turning by up to 0.75 rad over the step: the faster ones turn too far for the bound.
    const double smallest = smallestPrincipalMoment(mass);
    anchor.Pi = draw.direction() * smallest * 0.75 / kSpan * std::abs(draw.unit());
    const double now = 0.9 * kSpan * std::abs(draw.unit());
    const auto flowed = [&](const core::BodyState& from, double tau) {
      const core::FlowResult result = core::flowInSubsteps(mass, from, tau, load);
      EXPECT_TRUE(result.ok());
      return result.state;
    };
    core::BodyState changed = flowed(anchor, now);
    // A push at a point of the body: none, 1 µm/s, 1 mm/s or 0.1 m/s at its centre.
    const double pushes[] = {0, 1e-6, 1e-3, 0.1};
    const core::Vec3 push = mass.mass() * pushes[trial % 4] * draw.direction();
    const core::Vec3 lever = reach * draw.direction();
    changed.gamma += push;
    changed.Pi += changed.R.transpose() * lever.cross(push);
    const double bound =
        pathDrift(flowed(anchor, kSpan), flowed(changed, kSpan - now), reach, smallest, kSpan);
    if (std::isinf(bound)) continue;  // turning too far to say
    ++bounded;
    for (int i = 0; i <= 40; ++i) {
      const double t = now + (kSpan - now) * i / 40;  // s into the step
      EXPECT_LE(largestMove(flowed(anchor, t), flowed(changed, t - now), reach), bound + 1e-12)
          << "trial " << trial << " at " << t << " s, changed at " << now << " s";
    }
  }
  EXPECT_GT(bounded, 200);
}

// anchoredTravelBound: between two instants of one flow from an anchor (a body left behind by the
// step's events, flowed from its anchor in as many sub-steps as its trial took), no point within
// its reach moves further than the bound, with no flow to say so. Random boxes and ellipsoids
// spinning up to 60 rad/s, under gravity and a torque: those turning by more than half a radian
// over the step have no bound (at 120 rad/s, in sub-steps, a move reached 1.45 times its margin's).
TEST(PathDrift, AnchoredTravelBoundsTheMoveBetweenTwoInstantsOfOneFlow) {
  RandomBodies draw(30);
  const core::Vec3 halfExtents = RandomBodies::halfExtents();
  double tightest = 0;  // the largest move over its bound
  int bounded = 0;      // trials turning little enough for a finite bound
  for (int trial = 0; trial < 400; ++trial) {
    const core::MassProperties mass = RandomBodies::massOf(trial);
    StepBody body{nullptr, mass, {}, {}, halfExtents.norm(), false};
    body.load.gravity = core::Vec3(0, -9.81, 0);
    body.load.torque = (trial % 3 == 0 ? 0.1 * std::abs(draw.unit()) : 0.0) * draw.direction();
    body.anchor.R = core::expSO3(3.0 * draw.direction());
    body.anchor.x = draw.direction();
    body.anchor.gamma = mass.mass() * 2.0 * std::abs(draw.unit()) * draw.direction();
    const double spin = 60.0 * std::abs(draw.unit());  // rad/s about a random axis
    body.anchor.Pi = mass.inertia() * (spin * draw.direction());
    const core::FlowResult trialFlow = core::flowInSubsteps(mass, body.anchor, kSpan, body.load);
    ASSERT_TRUE(trialFlow.ok());
    const auto at = [&](double tau) {
      const core::FlowResult result = core::flowInSubsteps(
          mass, body.anchor, tau, body.load, core::kMaxFlowSubsteps, {}, trialFlow.substeps);
      EXPECT_TRUE(result.ok());
      return result.state;
    };
    for (int i = 0; i < 10; ++i) {
      const double tau0 = i == 0 ? 0.0 : kSpan * std::abs(draw.unit());
      const double tau1 = tau0 + (kSpan - tau0) * std::abs(draw.unit());
      const double move = largestMove(at(tau0), at(tau1), body.reach);
      const double bound = anchoredTravelBound(body, tau0, tau1);
      if (std::isinf(bound)) continue;
      ++bounded;
      EXPECT_LE(move, bound) << "trial " << trial << " from " << tau0 << " to " << tau1 << " s";
      if (bound > 0) tightest = std::max(tightest, move / bound);
    }
  }
  EXPECT_GT(bounded, 1000);
  std::printf("[ measured ] the largest move between two instants over its bound: %.3f\n",
              tightest);
}

}  // namespace
}  // namespace carom
