// The lower bound of a vertex's gap along a fixed axis (plugin/bullet/vertex_contacts.h,
// vertexGapAtLeast): the impact search reads only the sign of an open vertex's gap at the trial
// poses, and skips the vertex's point query where this bound is not negative. It must never exceed
// the gap, along the pair's normal or any other axis, and along the normal it must be sharp where
// the vertex is the one touching.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>

#include <memory>
#include <vector>

#include "bt_eigen.h"
#include "support/random.h"
#include "vertex_contacts.h"

namespace carom {
namespace {

// A hull of 12 points within 0.1 m of its centre, as the benchmark's poured hulls.
std::unique_ptr<btConvexHullShape> randomHull(test::Random& random) {
  auto hull = std::make_unique<btConvexHullShape>();
  for (int i = 0; i < 12; ++i)
    hull->addPoint(detail::toBt(random.vector(0.1)), false);
  hull->recalcLocalAabb();
  return hull;
}

btTransform randomPose(test::Random& random, double spread) {
  const core::Mat3 R = random.rotation();
  btTransform pose;
  pose.setBasis(detail::toBt(R));
  pose.setOrigin(detail::toBt(random.vector(spread)));
  return pose;
}

TEST(VertexGapBound, NeverExceedsTheVertexGap) {
  test::Random random(17);
  const btCylinderShape cylinder(btVector3(0.08, 0.1, 0.08));
  int bounded = 0, sharp = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::unique_ptr<btConvexHullShape> hullA = randomHull(random), hullB = randomHull(random);
    const btCollisionShape* others[2] = {hullB.get(), &cylinder};
    PairGeometry geometry{{hullA.get(), others[trial % 2]}, {}};
    geometry.frame[0] = randomPose(random, 0.05);
    geometry.frame[1] = randomPose(random, 0.3);
    const Gap pairGap = gapOf(geometry);
    for (int side = 0; side < 2; ++side) {
      const btPolyhedralConvexShape* polyhedron = polyhedronOf(geometry.shape[side]);
      if (polyhedron == nullptr) continue;
      // Along the pair's normal (from B towards A: towards A's vertices, away from B's), and
      // along a random axis.
      const btVector3 axes[2] = {side == 0 ? pairGap.normal : -pairGap.normal,
                                 detail::toBt(random.unitVector())};
      for (const btVector3& axis : axes) {
        const std::optional<double> extent = otherExtentAlong(geometry, side, axis);
        ASSERT_TRUE(extent.has_value());
        for (int i = 0; i < polyhedron->getNumVertices(); ++i) {
          const double atLeast = vertexGapAtLeast(geometry, side, i, axis, *extent);
          const double gap = vertexGap(geometry, side, i);
          EXPECT_LE(atLeast, gap + 1e-9)
              << "trial " << trial << ", side " << side << ", vertex " << i;
          bounded += atLeast >= 0 ? 1 : 0;
          sharp += &axis == &axes[0] && std::abs(atLeast - gap) <= 1e-6 ? 1 : 0;
        }
      }
    }
  }
  std::printf("[ measured ] %d vertices bounded open without a point query, %d bounds sharp\n",
              bounded, sharp);
  EXPECT_GT(bounded, 0);
  EXPECT_GT(sharp, 0);
}

// A triangle taken solid behind has its gap measured behind it, not as a convex shape's: no bound.
TEST(VertexGapBound, NoneAgainstATriangleSolidBehind) {
  const btConvexHullShape hull;
  const btCylinderShape cylinder(btVector3(0.1, 0.1, 0.1));
  PairGeometry geometry{{&hull, &cylinder}, {}};
  geometry.solidBehind[1] = true;
  EXPECT_FALSE(otherExtentAlong(geometry, 0, btVector3(0, 0, 1)).has_value());
}

}  // namespace
}  // namespace carom
