// separationBound and flowMotion (plugin/bullet/separation_bound.h): the bound never exceeds the
// pair's gap along the LGVI flows it describes, from a flow's start, from inside it and backward
// from its end, over random shapes, poses and motions turning up to the half radian it allows; and
// it is exact for a ball over a plane.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <memory>
#include <random>
#include <vector>

#include "bt_eigen.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/gap.h"
#include "carom/core/lie.h"
#include "separation_bound.h"

namespace carom {
namespace {

using detail::toBt;
using detail::toEigen;

constexpr double kSpan = 1.0 / 60;  // s: one step at 60 Hz

std::unique_ptr<btCollisionShape> shapeNumber(int kind, std::mt19937& random) {
  switch (kind) {
    case 0:
      return std::make_unique<btBoxShape>(btVector3(0.2, 0.1, 0.15));
    case 1:
      return std::make_unique<btSphereShape>(0.1);
    case 2:
      return std::make_unique<EllipsoidShape>(btVector3(0.18, 0.1, 0.13));
    case 3:
      return std::make_unique<btCylinderShape>(btVector3(0.1, 0.2, 0.1));
    case 4:
      return std::make_unique<btCapsuleShape>(0.05, 0.2);
    default: {
      std::uniform_real_distribution<double> coordinate(-0.1, 0.1);
      auto hull = std::make_unique<btConvexHullShape>();
      for (int i = 0; i < 12; ++i)
        hull->addPoint(btVector3(coordinate(random), coordinate(random), coordinate(random)));
      return hull;
    }
  }
}

struct Body {
  std::unique_ptr<btCollisionShape> shape;
  core::MassProperties mass = core::uniformBox(1.0, core::Vec3(0.2, 0.1, 0.15));
  core::BodyState state;
  core::ExternalLoad load;

  btTransform frameOf(const core::BodyState& s) const { return btTransform(toBt(s.R), toBt(s.x)); }
  core::BodyState flowed(double tau) const {
    return core::flowInSubsteps(mass, state, tau, load).state;
  }
};

double gapOf(const Body& a, const core::BodyState& sa, const Body& b, const core::BodyState& sb) {
  return gap(*a.shape, a.frameOf(sa), *b.shape, b.frameOf(sb)).distance;
}

// A placed along the unit `away` from the origin (where B is) so that their gap is `target` (m):
// three steps along `away` from 0.6 m out.
void placeApart(Body& a, const Body& b, const core::Vec3& away, double target) {
  a.state.x = 0.6 * away;
  for (int i = 0; i < 3; ++i)
    a.state.x -= (gapOf(a, a.state, b, b.state) - target) * away;
}

// The bound of `side`'s shape against the other's plane, from states sa, sb after `elapsed` of the
// flows, checked against the gap along them: forward to the end, or backward to their start.
void expectBelowTheGap(const Body& a, const Body& b, const core::BodyState& sa,
                       const core::BodyState& sb, double elapsed, bool backward) {
  const btVector3 normal = gap(*a.shape, a.frameOf(sa), *b.shape, b.frameOf(sb)).normal;
  for (int side = 0; side < 2; ++side) {
    const Body& self = side == 0 ? a : b;
    const Body& other = side == 0 ? b : a;
    const core::BodyState& selfState = side == 0 ? sa : sb;
    const core::BodyState& otherState = side == 0 ? sb : sa;
    const auto selfMotion =
        flowMotion(self.mass, selfState, self.load, true, elapsed, kSpan, backward);
    const auto otherMotion =
        flowMotion(other.mass, otherState, other.load, true, elapsed, kSpan, backward);
    ASSERT_TRUE(selfMotion && otherMotion);
    const std::optional<SeparationBound> bound = separationBound(
        *self.shape, self.frameOf(selfState), *selfMotion, *other.shape, other.frameOf(otherState),
        *otherMotion, side == 0 ? normal : -normal, kSpan);
    ASSERT_TRUE(bound);
    const double reach = backward ? elapsed : kSpan - elapsed;
    for (int i = 0; i <= 40; ++i) {
      const double t = reach * i / 40;  // s from the anchor
      const double tau = backward ? elapsed - t : elapsed + t;
      const double lower = bound->value + bound->slope * t - 0.5 * bound->curvature * t * t;
      EXPECT_LE(lower, gapOf(a, a.flowed(tau), b, b.flowed(tau)) + 1e-9)
          << "side " << side << " at " << t << " s from " << elapsed << (backward ? " back" : "");
    }
  }
}

TEST(SeparationBound, NeverExceedsTheGapAlongTheFlows) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  // Returned as a Vec3: an Eigen expression would refer to the lambda's own v after it returns.
  const auto vector = [&](double length) -> core::Vec3 {
    core::Vec3 v(unit(random), unit(random), unit(random));
    return v.normalized() * length * std::abs(unit(random));
  };
  for (int trial = 0; trial < 120; ++trial) {
    Body a, b;
    a.shape = shapeNumber(trial % 6, random);
    b.shape = shapeNumber((trial / 6) % 6, random);
    a.mass = core::uniformEllipsoid(1.0, core::Vec3(0.18, 0.1, 0.13));
    b.mass = core::uniformBox(2.0, core::Vec3(0.2, 0.1, 0.15));
    for (Body* body : {&a, &b}) {
      body->state.R = core::expSO3(vector(3.0));
      body->state.gamma = body->mass.mass() * vector(2.0);  // up to 2 m/s
      // Turning up to 0.45 rad over the span, under the half radian the bound allows.
      const double smallest = body->mass.inertia().diagonal().minCoeff();
      body->state.Pi = core::Vec3(unit(random), unit(random), unit(random)).normalized() *
                       smallest * 0.45 / kSpan * std::abs(unit(random));
      body->load.gravity = core::Vec3(0, -9.81, 0);
    }
    // A apart from B by 0–5 mm along a random direction.
    const core::Vec3 away = vector(1.0).normalized();
    placeApart(a, b, away, 5e-3 * std::abs(unit(random)));
    const double mid = kSpan / 3;
    expectBelowTheGap(a, b, a.state, b.state, 0, false);
    expectBelowTheGap(a, b, a.flowed(mid), b.flowed(mid), mid, false);
    expectBelowTheGap(a, b, a.flowed(kSpan), b.flowed(kSpan), kSpan, true);
  }
}

TEST(SeparationBound, IsExactForABallOverAPlane) {
  btSphereShape ball(0.1);
  btStaticPlaneShape ground(btVector3(0, 1, 0), 0);
  const btTransform groundFrame = btTransform::getIdentity();
  BodyMotion motion;  // 3 mm above the ground, rising at 0.5 m/s and falling under gravity
  motion.centre = core::Vec3(0.3, 0.103, 0);
  motion.velocity = core::Vec3(1, 0.5, 0);
  motion.acceleration = core::Vec3(0, -9.81, 0);
  motion.spin = core::Vec3(0, 0, 20);  // a ball's turning moves none of its surface nearer
  motion.spinBound = 20;
  motion.turning = 800;
  BodyMotion still;
  const std::optional<SeparationBound> bound =
      separationBound(ball, btTransform(btQuaternion::getIdentity(), toBt(motion.centre)), motion,
                      ground, groundFrame, still, btVector3(0, 1, 0), kSpan);
  ASSERT_TRUE(bound);
  EXPECT_NEAR(bound->value, 0.003, 1e-15);
  EXPECT_NEAR(bound->slope, 0.5, 1e-15);
  EXPECT_NEAR(bound->curvature, 9.81, 1e-15);
  // Along any other axis the plane reaches infinitely far.
  EXPECT_FALSE(separationBound(ball, btTransform::getIdentity(), motion, ground, groundFrame, still,
                               btVector3(0, 1, 1e-9).normalized(), kSpan));
}

// Of two still bodies, the bound along the gap's normal is the gap itself: each shape taken as the
// gap measures it. A box's own support with its margin is its sharp corner, which along an oblique
// normal reaches up to (√3 − 1) margins beyond the rounded box that GJK and the gap see.
TEST(SeparationBound, IsTheGapOfStillBodiesAlongItsNormal) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  const BodyMotion still;
  for (int trial = 0; trial < 60; ++trial) {
    Body a, b;
    a.shape = shapeNumber(0, random);  // a box, against each kind of shape in turn
    b.shape = shapeNumber(trial % 6, random);
    for (Body* body : {&a, &b}) {
      const double x = unit(random), y = unit(random), z = unit(random);
      body->state.R = core::expSO3(3.0 * core::Vec3(x, y, z));
    }
    const double x = unit(random), y = unit(random), z = unit(random);
    placeApart(a, b, core::Vec3(x, y, z).normalized(), 2e-3);
    const Gap g = gap(*a.shape, a.frameOf(a.state), *b.shape, b.frameOf(b.state));
    for (int side = 0; side < 2; ++side) {
      const Body& self = side == 0 ? a : b;
      const Body& other = side == 0 ? b : a;
      BodyMotion selfMotion = still, otherMotion = still;
      selfMotion.centre = self.state.x;
      otherMotion.centre = other.state.x;
      const std::optional<SeparationBound> bound = separationBound(
          *self.shape, self.frameOf(self.state), selfMotion, *other.shape,
          other.frameOf(other.state), otherMotion, side == 0 ? g.normal : -g.normal, kSpan);
      ASSERT_TRUE(bound);
      // A cylinder's gap is Bullet's GJK's, its normal off by its tolerance: the bound along it
      // lies below the gap, not at it.
      if (trial % 6 == 3) {
        EXPECT_LE(bound->value, g.distance + 1e-12) << "trial " << trial << " side " << side;
        continue;
      }
      EXPECT_NEAR(bound->value, g.distance, 1e-9) << "trial " << trial << " side " << side;
    }
  }
}

// Against a plane a box's gap is its sharp corner's (gap.h): a box turned corner-down 3 mm over the
// ground is bounded by that corner, not by its rounded core's corner 0.73 margins higher.
TEST(SeparationBound, TakesABoxOverAPlaneAtItsSharpCorner) {
  btBoxShape box(btVector3(0.2, 0.1, 0.15));
  btStaticPlaneShape ground(btVector3(0, 1, 0), 0);
  const btTransform groundFrame = btTransform::getIdentity();
  btTransform frame(btQuaternion(btVector3(1, 0, 1).normalized(), 0.6) *
                    btQuaternion(btVector3(0, 0, 1), 0.5));
  frame.setOrigin(btVector3(0, 0.5, 0));
  const Gap before = gap(box, frame, ground, groundFrame);
  frame.getOrigin() += btVector3(0, 3e-3 - before.distance, 0);
  const double distance = gap(box, frame, ground, groundFrame).distance;
  ASSERT_NEAR(distance, 3e-3, 1e-12);
  BodyMotion motion;
  motion.centre = toEigen(frame.getOrigin());
  const std::optional<SeparationBound> bound = separationBound(
      box, frame, motion, ground, groundFrame, BodyMotion{}, btVector3(0, 1, 0), kSpan);
  ASSERT_TRUE(bound);
  EXPECT_NEAR(bound->value, distance, 1e-12);
}

TEST(SeparationBound, FlowMotionRefusesATurnBeyondHalfARadian) {
  const core::MassProperties mass = core::uniformBox(1.0, core::Vec3(0.2, 0.1, 0.15));
  core::BodyState state;
  const double smallest = mass.inertia().diagonal().minCoeff();
  state.Pi = core::Vec3(0, 0, smallest * 0.49 / kSpan);
  EXPECT_TRUE(flowMotion(mass, state, {}, true, 0, kSpan, false));
  state.Pi = core::Vec3(0, 0, smallest * 0.51 / kSpan);
  EXPECT_FALSE(flowMotion(mass, state, {}, true, 0, kSpan, false));
  EXPECT_TRUE(flowMotion(mass, state, {}, false, 0, kSpan, false));  // turned by no impulse
}

}  // namespace
}  // namespace carom
