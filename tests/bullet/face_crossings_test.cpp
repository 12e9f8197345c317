// Where two boxes' faces overlap (plugin/bullet/face_crossings.h): equal faces in line, as the
// bricks of a wall stand end to end, turned against each other by round-off, give the same
// crossings whatever the turn, all at the faces' corners; faces crossing at a real angle keep the
// crossings of their edges.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>

#include <cmath>
#include <vector>

#include "carom/bullet/gap.h"
#include "face_crossings.h"
#include "vertex_contacts.h"

namespace carom {
namespace {

// Box B's end face against box A's (both 0.4 × 0.2 × 0.2 m, along x, touching at x = 0.2), B
// turned by `angle` (rad) about x: the crossings of their outlines.
std::vector<FaceCrossing> endToEnd(double angle) {
  static const btBoxShape brick(btVector3(0.2, 0.1, 0.1));
  PairGeometry geometry{{&brick, &brick}, {}};
  geometry.frame[0] = btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0));
  geometry.frame[1] = btTransform(btQuaternion(btVector3(1, 0, 0), angle), btVector3(0.4, 0, 0));
  const Gap gap = gapOf(geometry);
  return faceCrossings(geometry, gap.normal, gap.pointOnA, gap.pointOnB, 1e-3);
}

// Whether `point` lies within kSamePoint of one of the end face's corners (x = 0.2, y, z = ±0.1).
bool atACorner(const btVector3& point) {
  for (const double y : {-0.1, 0.1}) {
    for (const double z : {-0.1, 0.1}) {
      if (point.distance(btVector3(0.2, y, z)) <= 2 * kSamePoint) return true;
    }
  }
  return false;
}

// Turned by 1e-12 … 1e-7 rad, the faces' edges lie in line to within 1e-8 m: Sutherland–Hodgman
// on the bare signs put crossings anywhere along them (a different set every step in a wall of
// bricks, whose holds then never settled); within kSamePoint they count as in line.
TEST(FaceCrossings, EqualFacesInLineCrossOnlyAtTheirCorners) {
  const std::size_t count = endToEnd(0).size();
  for (const double angle : {1e-12, -3e-11, 7e-10, -2e-9, 5e-8, -1e-7}) {
    const std::vector<FaceCrossing> crossings = endToEnd(angle);
    EXPECT_EQ(crossings.size(), count) << angle;
    for (const FaceCrossing& crossing : crossings)
      EXPECT_TRUE(atACorner(crossing.point))
          << angle << ": " << crossing.point.y() << ", " << crossing.point.z();
  }
}

// Turned by 45°, the square end faces overlap in an octagon: its eight corners are crossings of
// the two outlines, none of them a corner of either face.
TEST(FaceCrossings, FacesTurnedApartCrossAtTheirEdges) {
  const std::vector<FaceCrossing> crossings = endToEnd(M_PI / 4);
  ASSERT_EQ(crossings.size(), 8u);
  for (const FaceCrossing& crossing : crossings) {
    EXPECT_FALSE(crossing.atVertex);
    EXPECT_NEAR(std::hypot(crossing.point.y(), crossing.point.z()), 0.1 / std::cos(M_PI / 8), 1e-9);
  }
}

}  // namespace
}  // namespace carom
