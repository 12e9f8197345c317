// carom::gap against triangle meshes and heightfields: the union of their triangles, against
// analytic distances, across the contact.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <cmath>
#include <vector>

#include "carom/bullet/gap.h"
#include "carom/error.h"

namespace carom {
namespace {

// A square floor at y = 0, side 2 m, centred on the origin, of 4 × 4 cells of two triangles.
void addFloor(btTriangleMesh& triangles) {
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 4; ++k) {
      const double x = -1 + 0.5 * i, z = -1 + 0.5 * k;
      const btVector3 a(x, 0, z), b(x + 0.5, 0, z), c(x + 0.5, 0, z + 0.5), d(x, 0, z + 0.5);
      triangles.addTriangle(a, b, c);
      triangles.addTriangle(a, c, d);
    }
  }
}

// A box lying flat on the floor, across triangle edges: its height less its half height, in both
// orders, with the floor's normal; from clear through touching to 5 cm deep.
TEST(GapMesh, ABoxOverAMeshIsItsHeightAboveTheFloor) {
  btTriangleMesh triangles;
  addFloor(triangles);
  const btBvhTriangleMeshShape floor(&triangles, true);
  const btBoxShape box(btVector3(0.3, 0.1, 0.2));
  const btTransform origin = btTransform::getIdentity();
  for (const double expected : {0.3, 1e-6, 0.0, -1e-6, -0.05}) {
    const btTransform pose(btQuaternion(btVector3(0, 1, 0), 0.3),
                           btVector3(0.1, 0.1 + expected, 0.2));
    const Gap g = gap(box, pose, floor, origin);
    EXPECT_NEAR(g.distance, expected, 1e-9) << expected;
    EXPECT_LE((g.normal - btVector3(0, 1, 0)).length(), 1e-9);
    EXPECT_LE((g.pointOnA - (g.pointOnB + g.normal * g.distance)).length(), 1e-12);
    EXPECT_GE(g.childB, 0);
    EXPECT_LT(g.childB, 32);
    const Gap r = gap(floor, origin, box, pose);
    EXPECT_NEAR(r.distance, g.distance, 1e-12);
    EXPECT_LE((r.normal + g.normal).length(), 1e-12);
    EXPECT_EQ(r.childA, g.childB);
  }
}

// A box standing on a corner meets a mesh as it meets a plane: with its corners sharp (within the
// 1e-5 m that keeps GJK robust), the lowest corner's height.
TEST(GapMesh, ABoxOnACornerMeetsAMeshAsAPlane) {
  btTriangleMesh triangles;
  addFloor(triangles);
  const btBvhTriangleMeshShape floor(&triangles, true);
  const btStaticPlaneShape plane(btVector3(0, 1, 0), 0);
  const btBoxShape box(btVector3(0.3, 0.1, 0.2));
  const btTransform origin = btTransform::getIdentity();
  const btQuaternion tilt(btVector3(1, 0.4, -0.7).normalized(), 0.9);
  for (const double height : {0.5, 0.3, 0.2}) {
    const btTransform pose(tilt, btVector3(0.15, height, -0.2));
    const Gap onPlane = gap(box, pose, plane, origin);
    const Gap onMesh = gap(box, pose, floor, origin);
    EXPECT_NEAR(onMesh.distance, onPlane.distance, 1e-5) << height;
    EXPECT_LE((onMesh.normal - onPlane.normal).length(), 1e-6);
  }
}

// Far from a small mesh, the search widens until it holds the nearest triangle: a sphere 4 m over
// a triangle's side, its distance to the closest point of that side.
TEST(GapMesh, FarFromAMeshTheNearestTriangleDecides) {
  btTriangleMesh triangles;
  triangles.addTriangle(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 0, 1));
  const btBvhTriangleMeshShape mesh(&triangles, true);
  const btSphereShape ball(0.1);
  const btVector3 centre(3, 4, 3);
  const Gap g =
      gap(ball, btTransform(btQuaternion::getIdentity(), centre), mesh, btTransform::getIdentity());
  const btVector3 closest(0.5, 0, 0.5);  // on the side from (1, 0, 0) to (0, 0, 1)
  EXPECT_NEAR(g.distance, (centre - closest).length() - 0.1, 1e-9);
  EXPECT_LE((g.pointOnB - closest).length(), 1e-9);
  EXPECT_EQ(g.childB, 0);
}

// A heightfield sloping as y = x / 2: a sphere's distance is its centre's to that plane, less the
// radius.
TEST(GapMesh, ASphereOverASlopingHeightfieldIsItsDistanceToTheSlope) {
  std::vector<double> heights;
  for (int k = 0; k < 9; ++k) {
    for (int i = 0; i < 9; ++i)
      heights.push_back(0.5 * (i - 4));
  }
  const btHeightfieldTerrainShape field(9, 9, heights.data(), -2.0, 2.0, 1, false);
  const btSphereShape ball(0.2);
  const btVector3 slope = btVector3(-0.5, 1, 0).normalized();
  for (const double expected : {1.0, 1e-6, 0.0, -1e-6, -0.05}) {
    const btVector3 centre = btVector3(0.7, 0.35, -1.3) + (0.2 + expected) * slope;
    const Gap g = gap(ball, btTransform(btQuaternion::getIdentity(), centre), field,
                      btTransform::getIdentity());
    EXPECT_NEAR(g.distance, expected, 1e-9) << expected;
    EXPECT_LE((g.normal - slope).length(), 1e-6);
  }
}

TEST(GapMesh, RefusesPairsWithoutAGap) {
  btTriangleMesh triangles;
  addFloor(triangles);
  const btBvhTriangleMeshShape floor(&triangles, true);
  const btStaticPlaneShape plane(btVector3(0, 1, 0), 0);
  const btTransform origin = btTransform::getIdentity();
  EXPECT_THROW(gap(floor, origin, floor, origin), Error);
  EXPECT_THROW(gap(plane, origin, floor, origin), Error);
  EXPECT_THROW(gap(floor, origin, plane, origin), Error);
}

}  // namespace
}  // namespace carom
