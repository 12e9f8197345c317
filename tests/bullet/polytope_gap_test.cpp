#include "polytope_gap.h"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <cmath>
#include <memory>
#include <vector>

#include "bullet/bt_eigen.h"
#include "support/random.h"

namespace carom::detail {
namespace {

using test::toBt;

// A shape's farthest extent along `direction` (world, unit) as GJK sees it: its core's, plus its
// margin (a box's corners rounded by it).
double extentAlong(const btConvexShape& shape, const btTransform& frame,
                   const btVector3& direction) {
  const btVector3 core =
      frame(shape.localGetSupportVertexWithoutMarginNonVirtual(direction * frame.getBasis()));
  return direction.dot(core) + shape.getMarginNonVirtual();
}

// A gap of separated shapes: Bullet's convention, and each witness point on the supporting plane of
// its shape normal to the gap (a closest pair's witnesses are its shapes' extreme points along it).
void expectClosestPair(const Gap& g, const btConvexShape& a, const btTransform& ta,
                       const btConvexShape& b, const btTransform& tb) {
  EXPECT_NEAR(g.normal.length(), 1.0, 1e-14);
  EXPECT_LE((g.pointOnA - (g.pointOnB + g.normal * g.distance)).length(), 1e-13);
  EXPECT_NEAR(g.normal.dot(g.pointOnB), extentAlong(b, tb, g.normal), 1e-10);
  EXPECT_NEAR(-g.normal.dot(g.pointOnA), extentAlong(a, ta, -g.normal), 1e-10);
}

// A convex hull of 12 random points about 0.2 m across, as the bench's pile of hulls has.
std::unique_ptr<btConvexHullShape> randomHull(test::Random& random) {
  auto hull = std::make_unique<btConvexHullShape>();
  for (int i = 0; i < 12; ++i)
    hull->addPoint(toBt(random.vector(0.1)), false);
  hull->recalcLocalAabb();
  return hull;
}

// Pairs of hulls, a hull and a box, and a hull and a point, turned at random and apart by 1 µm to
// 20 cm: a closest pair, never farther apart than Bullet's GJK says (both are points of the
// Minkowski difference, at least as far as the true gap) and within a tenth of the contact
// tolerance of it (Bullet's stopped 1.5e-8 m farther in one case of clang's draw).
TEST(PolytopeGap, MatchesBulletsGjkOnHullsBoxesAndPointsApart) {
  test::Random random(30);
  const btBoxShape box(btVector3(0.15, 0.1, 0.05));
  const btSphereShape point(0);
  for (int i = 0; i < 600; ++i) {
    const std::unique_ptr<btConvexHullShape> hull = randomHull(random);
    const std::unique_ptr<btConvexHullShape> other = randomHull(random);
    const btConvexShape* partners[] = {other.get(), &box, &point};
    const btConvexShape& b = *partners[i % 3];
    // Each draw its own statement: a call's arguments are evaluated in the compiler's order.
    const core::Mat3 turnA = random.rotation();
    const btTransform ta = toBt(turnA, random.vector(0.5));
    // B along a random direction from A, moved until its gap is the one wanted.
    const btVector3 direction = toBt(random.unitVector());
    const double wanted = std::pow(10.0, random.uniform(-6, std::log10(0.2)));
    btTransform tb = toBt(random.rotation(), test::toEigen(ta.getOrigin()));
    for (int move = 0; move < 60; ++move) {
      const double now = bulletGjkGap(*hull, ta, b, tb).distance;
      if (std::abs(now - wanted) < 1e-3 * wanted) break;
      tb.setOrigin(tb.getOrigin() + direction * (wanted - now + (now < 0 ? 0.05 : 0.0)));
    }
    const std::optional<Gap> g = polytopeGap(*hull, ta, b, tb);
    ASSERT_TRUE(g.has_value()) << "case " << i;
    const double bullet = bulletGjkGap(*hull, ta, b, tb).distance;
    EXPECT_LE(g->distance, bullet + 1e-12) << "case " << i;
    EXPECT_GE(g->distance, bullet - 1e-7) << "case " << i;
    expectClosestPair(*g, *hull, ta, b, tb);
  }
}

// Two boxes face to face, the upper turned about the vertical: their gap exactly (the faces'
// distance), where Bullet rounds each box's edges by its margin and GJK runs on the cores.
TEST(PolytopeGap, BoxesFaceToFaceAreExact) {
  const btBoxShape lower(btVector3(0.5, 0.5, 0.5)), upper(btVector3(0.2, 0.1, 0.3));
  const btTransform tLower(btMatrix3x3::getIdentity(), btVector3(0, 0, 0));
  for (const double d : {0.3, 1e-3, 1e-6, 1e-8}) {
    for (const double turn : {0.0, 0.4, 1.3}) {
      const btTransform tUpper(btQuaternion(btVector3(0, 1, 0), turn),
                               btVector3(0.1, 0.5 + 0.1 + d, -0.05));
      const std::optional<Gap> g = polytopeGap(upper, tUpper, lower, tLower);
      ASSERT_TRUE(g.has_value()) << d;
      EXPECT_NEAR(g->distance, d, 1e-13) << "gap " << d << ", turn " << turn;
      EXPECT_LE((g->normal - btVector3(0, 1, 0)).length(), 1e-12);
      expectClosestPair(*g, upper, tUpper, lower, tLower);
    }
  }
}

// Cores that overlap or touch have no answer here: carom::gap takes Bullet's GJK and EPA, with
// the penetration depth.
TEST(PolytopeGap, LeavesOverlappingCoresToBullet) {
  const btBoxShape a(btVector3(0.5, 0.5, 0.5)), b(btVector3(0.2, 0.2, 0.2));
  const btTransform ta(btMatrix3x3::getIdentity(), btVector3(0, 0, 0));
  // The shapes overlap by more than their margins (4 cm each): so do their cores.
  for (const double overlap : {0.1, 0.2}) {
    const btTransform tb(btQuaternion(btVector3(1, 1, 0).normalized(), 0.3),
                         btVector3(0, 0.5 + 0.2 - overlap, 0));
    EXPECT_FALSE(polytopeGap(a, ta, b, tb).has_value()) << overlap;
    EXPECT_LT(gap(a, ta, b, tb).distance, 0) << overlap;
  }
  EXPECT_TRUE(hasPolytopeCore(a));
  EXPECT_TRUE(hasPolytopeCore(btSphereShape(0.1)));
  EXPECT_FALSE(
      hasPolytopeCore(btTriangleShape(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 0, 1))));
}

}  // namespace
}  // namespace carom::detail
