// smallestHalfWidth (plugin/bullet/shape_width.h): the closed forms of spheres and boxes against
// the 13-direction search that every other convex shape takes.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <cmath>

#include "shape_width.h"

namespace carom {
namespace {

TEST(SmallestHalfWidth, SphereIsItsRadius) {
  btSphereShape sphere(0.3);
  EXPECT_DOUBLE_EQ(smallestHalfWidth(sphere), 0.3);
}

TEST(SmallestHalfWidth, BoxIsItsSmallestHalfExtentAsAHullOfItsCornersIs) {
  btBoxShape box(btVector3(0.2, 0.5, 0.1));  // half extents with the margin
  EXPECT_DOUBLE_EQ(smallestHalfWidth(box), 0.1);
  // The same box as a hull of its corners, through the direction search: its margin (0.04 by
  // default) added all round.
  btConvexHullShape hull;
  for (int corner = 0; corner < 8; ++corner)
    hull.addPoint(
        btVector3(corner & 1 ? 0.2 : -0.2, corner & 2 ? 0.5 : -0.5, corner & 4 ? 0.1 : -0.1));
  EXPECT_NEAR(smallestHalfWidth(hull), 0.1 + hull.getMargin(), 1e-12);
}

TEST(SmallestHalfWidth, CompoundIsItsThinnestChildAndAPlaneCannotBePassed) {
  btSphereShape sphere(0.3);
  btBoxShape box(btVector3(0.2, 0.5, 0.05));
  btCompoundShape compound;
  compound.addChildShape(btTransform::getIdentity(), &sphere);
  compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(1, 0, 0)), &box);
  EXPECT_DOUBLE_EQ(smallestHalfWidth(compound), 0.05);
  btStaticPlaneShape plane(btVector3(0, 1, 0), 0);
  EXPECT_TRUE(std::isinf(smallestHalfWidth(plane)));
}

}  // namespace
}  // namespace carom
