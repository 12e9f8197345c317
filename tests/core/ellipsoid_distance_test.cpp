#include "carom/core/ellipsoid_distance.h"

#include <gtest/gtest.h>

#include <cmath>

#include "carom/error.h"
#include "support/random.h"
#include "support/sphere_grid.h"

namespace carom::core {
namespace {

// A long, a middle and a short axis, not in order, so that the shortest is not the last.
const Vec3 kSemiAxes(0.5, 0.12, 0.3);

Vec3 surfaceNormal(const Vec3& semiAxes, const Vec3& x) {
  return x.cwiseQuotient(semiAxes.cwiseProduct(semiAxes)).normalized();
}

// The nearest of a dense sample of the surface to y, as an unsigned distance: an independent
// bound the exact distance may not exceed, and reaches to within the sample's spacing.
double sampledNearest(const Vec3& semiAxes, const Vec3& y) {
  double nearest = INFINITY;
  test::forEachOnUnitSphere(600, [&](const Vec3& unit) {
    nearest = std::min(nearest, (semiAxes.cwiseProduct(unit) - y).norm());
  });
  return nearest;
}

// Outside along an axis the nearest point is the axis's end; inside along the shortest axis too
// (the ball about such a point that reaches the end lies within the ball of the shortest radius).
TEST(EllipsoidDistance, AlongTheAxesIsTheCoordinateLessTheSemiAxis) {
  for (int axis = 0; axis < 3; ++axis) {
    for (const double beyond : {2.0, 0.1, 1e-9, 0.0}) {
      for (const double side : {1.0, -1.0}) {
        Vec3 y = Vec3::Zero();
        y(axis) = side * (kSemiAxes(axis) + beyond);
        const EllipsoidDistance d = ellipsoidDistance(kSemiAxes, y);
        EXPECT_NEAR(d.distance, beyond, 1e-15) << "axis " << axis << " at " << y.transpose();
        EXPECT_LE((d.normal - side * Vec3::Unit(axis)).norm(), 1e-15);
        EXPECT_LE((d.closestPoint - side * kSemiAxes(axis) * Vec3::Unit(axis)).norm(), 1e-15);
      }
    }
  }
  for (const double depth : {1e-9, 0.05, 0.119, 0.12}) {  // 0.12: the centre
    const EllipsoidDistance d = ellipsoidDistance(kSemiAxes, Vec3(0, 0.12 - depth, 0));
    EXPECT_NEAR(d.distance, -depth, 1e-15) << "depth " << depth;
    EXPECT_LE((d.closestPoint - Vec3(0, 0.12, 0)).norm(), 1e-15) << "depth " << depth;
    EXPECT_LE((d.normal - Vec3::UnitY()).norm(), 1e-15) << "depth " << depth;
  }
}

// A point s along the outward normal from a surface point x is at distance s from the surface, x
// its nearest point, for any s > 0 (a convex set), and for −ρ ≤ s < 0 with ρ = min aᵢ² / max aᵢ
// the smallest radius of curvature: the ball of radius ρ touching at x lies inside.
TEST(EllipsoidDistance, AlongASurfaceNormalIsTheDistanceTravelled) {
  const double rho = kSemiAxes.cwiseProduct(kSemiAxes).minCoeff() / kSemiAxes.maxCoeff();
  test::Random random(7);
  double worst = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 x = kSemiAxes.cwiseProduct(random.unitVector());
    const Vec3 n = surfaceNormal(kSemiAxes, x);
    const double s = i % 2 == 0 ? random.uniform(-rho, 0.0) : std::exp(random.uniform(-25, 1));
    const EllipsoidDistance d = ellipsoidDistance(kSemiAxes, x + s * n);
    EXPECT_NEAR(d.distance, s, 1e-14) << "at " << (x + s * n).transpose();
    EXPECT_LE((d.closestPoint - x).norm(), 1e-12) << "at " << (x + s * n).transpose();
    EXPECT_LE((d.normal - n).norm(), 1e-12) << "at " << (x + s * n).transpose();
    worst = std::max(worst, std::abs(d.distance - s));
  }
  RecordProperty("worst_distance_error", std::to_string(worst));
}

// Anywhere, including the coordinate planes and Eberly's special case (inside, on the plane of the
// shortest axis, near the centre, where the nearest points leave that plane): the nearest point is
// on the surface, the point lies on its normal line on the side the sign says, and no surface point
// of a dense sample is nearer.
TEST(EllipsoidDistance, IsTheNearestSurfacePointAnywhere) {
  test::Random random(11);
  for (int i = 0; i < 60; ++i) {
    Vec3 y = random.vector(0.7);
    if (i % 3 == 0) y.y() = 0;  // the shortest axis's plane
    if (i % 3 == 1) y *= 0.15;  // deep inside
    if (i % 5 == 0) y.x() = 0;
    const EllipsoidDistance d = ellipsoidDistance(kSemiAxes, y);
    const Vec3& x = d.closestPoint;
    EXPECT_NEAR(x.cwiseQuotient(kSemiAxes).squaredNorm(), 1.0, 1e-14) << "at " << y.transpose();
    EXPECT_LE((d.normal - surfaceNormal(kSemiAxes, x)).norm(), 1e-12) << "at " << y.transpose();
    EXPECT_LE((y - (x + d.distance * d.normal)).norm(), 1e-14) << "at " << y.transpose();
    EXPECT_EQ(d.distance < 0, y.cwiseQuotient(kSemiAxes).squaredNorm() < 1) << y.transpose();
    const double sampled = sampledNearest(kSemiAxes, y);
    EXPECT_LE(std::abs(d.distance), sampled + 1e-14) << "at " << y.transpose();
    EXPECT_GE(std::abs(d.distance), sampled - 3e-3) << "at " << y.transpose();
  }
}

// Eberly's special case in closed form: inside, on the plane y₁ = 0 of the shortest axis and close
// enough to the centre, the nearest points are xᵢ = aᵢ²yᵢ / (aᵢ² − a₁²) (i = 0, 2), x₁ = ±a₁√(…).
TEST(EllipsoidDistance, NearTheCentreOnTheShortAxisPlaneLeavesThePlane) {
  const Vec3 y(0.1, 0.0, -0.04);
  const double shortest2 = kSemiAxes(1) * kSemiAxes(1);
  Vec3 x(kSemiAxes(0) * kSemiAxes(0) * y(0) / (kSemiAxes(0) * kSemiAxes(0) - shortest2), 0,
         kSemiAxes(2) * kSemiAxes(2) * y(2) / (kSemiAxes(2) * kSemiAxes(2) - shortest2));
  x(1) = kSemiAxes(1) * std::sqrt(1 - x.cwiseQuotient(kSemiAxes).squaredNorm());
  const EllipsoidDistance d = ellipsoidDistance(kSemiAxes, y);
  EXPECT_NEAR(d.distance, -(x - y).norm(), 1e-15);
  EXPECT_LE((d.closestPoint - x).norm(), 1e-15);
}

// Equal axes: a sphere's distance is the centre distance less the radius; a spheroid's along its
// equal axes, in and out.
TEST(EllipsoidDistance, SpheresAndSpheroidsHaveTheirClosedForms) {
  test::Random random(3);
  for (int i = 0; i < 200; ++i) {
    const Vec3 y = random.vector(1.0);
    EXPECT_NEAR(ellipsoidDistance(Vec3::Constant(0.4), y).distance, y.norm() - 0.4, 1e-15);
  }
  const Vec3 spheroid(0.2, 0.2, 0.5);
  for (const double r : {0.0, 0.05, 0.19, 0.21, 1.0}) {
    const Vec3 y = r * Vec3(std::cos(1.0), std::sin(1.0), 0.0);
    EXPECT_NEAR(ellipsoidDistance(spheroid, y).distance, r - 0.2, 1e-15) << "r " << r;
  }
}

// Started from any guess (an earlier query's root nearby, far off either side, below the domain's
// pole, none) the search finds the same nearest point as from its own start: a guess above the root
// is stepped below it before Newton's rising iterates, one below is taken as it is. The root it
// reports is the t of the closest point xᵢ = aᵢ²yᵢ / (aᵢ² + t).
TEST(EllipsoidDistance, FromAnyGuessFindsTheSameNearestPoint) {
  test::Random random(13);
  const double shortest2 = kSemiAxes.minCoeff() * kSemiAxes.minCoeff();
  for (int i = 0; i < 300; ++i) {
    Vec3 y = random.vector(0.7);
    if (i % 4 == 0) y *= 0.15;  // deep inside
    const Vec3 nearby = y + random.vector(1e-3);
    const EllipsoidDistance plain = ellipsoidDistance(kSemiAxes, y);
    if (std::isnan(plain.root)) continue;  // Eberly's special case: no root to guess
    const Vec3 fromRoot = kSemiAxes.cwiseProduct(kSemiAxes).cwiseProduct(
        y.cwiseQuotient((kSemiAxes.cwiseProduct(kSemiAxes).array() + plain.root).matrix()));
    EXPECT_LE((fromRoot - plain.closestPoint).norm(), 1e-14) << "at " << y.transpose();
    for (const double guess : {ellipsoidDistance(kSemiAxes, nearby).root, plain.root, 1e3, 1e-12,
                               -0.5 * shortest2, -shortest2, -1.0, double(NAN)}) {
      const EllipsoidDistance d = ellipsoidDistance(kSemiAxes, y, guess);
      EXPECT_NEAR(d.distance, plain.distance, 1e-15) << "at " << y.transpose() << " from " << guess;
      EXPECT_LE((d.closestPoint - plain.closestPoint).norm(), 1e-14)
          << "at " << y.transpose() << " from " << guess;
      EXPECT_NEAR(d.root, plain.root, 1e-15 * std::max(1.0, std::abs(plain.root)))
          << "at " << y.transpose() << " from " << guess;
    }
  }
}

TEST(EllipsoidDistance, RefusesBadInput) {
  EXPECT_THROW(ellipsoidDistance(Vec3(0.1, 0.0, 0.2), Vec3::Zero()), Error);
  EXPECT_THROW(ellipsoidDistance(Vec3(0.1, -0.1, 0.2), Vec3::Zero()), Error);
  EXPECT_THROW(ellipsoidDistance(Vec3(0.1, NAN, 0.2), Vec3::Zero()), Error);
  EXPECT_THROW(ellipsoidDistance(kSemiAxes, Vec3(0, INFINITY, 0)), Error);
  EXPECT_THROW(ellipsoidDistance(kSemiAxes, Vec3(NAN, 0, 0)), Error);
}

}  // namespace
}  // namespace carom::core
