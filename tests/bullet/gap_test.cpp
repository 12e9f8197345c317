#include "carom/bullet/gap.h"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include <Eigen/Geometry>
#include <cmath>

#include "bullet/bt_eigen.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "carom/core/sdf.h"
#include "carom/error.h"
#include "exact_core_gap.h"
#include "support/random.h"

namespace carom {
namespace {

using core::Mat3;
using core::Vec3;
using test::toBt;
using test::toEigen;

// Gaps across the contact: clear, just clear, touching, just overlapping, overlapping (m).
constexpr double kGaps[] = {0.3, 1e-6, 0.0, -1e-6, -0.05};

// Every gap: a unit normal and witness points that satisfy Bullet's convention.
void expectConsistent(const Gap& g) {
  EXPECT_NEAR(g.normal.length(), 1.0, 1e-14);
  EXPECT_LE((g.pointOnA - (g.pointOnB + g.normal * g.distance)).length(), 1e-13);
}

// Two spheres: the centres' distance less the radii, in closed form.
TEST(Gap, SphereSphereIsCentreDistanceMinusRadii) {
  const btSphereShape a(0.3), b(0.5);
  test::Random random(21);
  for (const double expected : kGaps) {
    for (int i = 0; i < 20; ++i) {
      const Vec3 xB = random.vector(2.0);
      const Vec3 u = random.unitVector();
      const Vec3 xA = xB + (0.8 + expected) * u;
      const Gap g = gap(a, toBt(random.rotation(), xA), b, toBt(random.rotation(), xB));
      expectConsistent(g);
      EXPECT_NEAR(g.distance, expected, 1e-12);
      EXPECT_LE((toEigen(g.normal) - u).norm(), 1e-13);
      EXPECT_LE((toEigen(g.pointOnB) - (xB + 0.5 * u)).norm(), 1e-13);
      EXPECT_LE((toEigen(g.pointOnA) - (xA - 0.3 * u)).norm(), 1e-13);
    }
  }
}

// A box above a tilted, shifted plane: its lowest corner decides, h = n·x − Σ|n·Reᵢ| hᵢ − c.
TEST(Gap, BoxPlaneIsTheLowestCornerInBothOrders) {
  const Vec3 half(0.2, 0.3, 0.4);
  const btBoxShape box(toBt(half));
  test::Random random(22);
  for (const double expected : kGaps) {
    for (int i = 0; i < 20; ++i) {
      const Vec3 n = random.unitVector();
      const double c = random.uniform(-1.0, 1.0);
      const btStaticPlaneShape plane(toBt(n), c);
      const Mat3 R = random.rotation();
      double depth = 0;
      for (int k = 0; k < 3; ++k)
        depth += std::abs(n.dot(R.col(k))) * half(k);
      const Vec3 x = random.vector(1.0);
      const Vec3 xOnPlane = x + (c + depth + expected - n.dot(x)) * n;
      // The plane's own transform moves it too: put it somewhere else and compensate.
      const Mat3 Rp = random.rotation();
      const Vec3 xp = random.vector(1.0);
      const btTransform tp = toBt(Rp, xp);
      const btStaticPlaneShape moved(toBt(Vec3(Rp.transpose() * n)), c - n.dot(xp));

      for (const auto& [shape, transform] :
           {std::pair{&plane, btTransform::getIdentity()}, std::pair{&moved, tp}}) {
        const Gap g = gap(box, toBt(R, xOnPlane), *shape, transform);
        expectConsistent(g);
        EXPECT_NEAR(g.distance, expected, 1e-13);
        EXPECT_LE((toEigen(g.normal) - n).norm(), 1e-14);
        const Gap r = gap(*shape, transform, box, toBt(R, xOnPlane));
        expectConsistent(r);
        EXPECT_NEAR(r.distance, expected, 1e-13);
        EXPECT_LE((toEigen(r.normal) + n).norm(), 1e-14);
        EXPECT_LE((r.pointOnB - g.pointOnA).length(), 1e-14);
      }
    }
  }
}

// A capsule (axis along local y): h = n·x − |n·R e_y| half-height − radius.
TEST(Gap, CapsulePlaneIsTheLowerCapMinusTheRadius) {
  const double radius = 0.15, halfHeight = 0.4;
  const btCapsuleShape capsule(radius, 2 * halfHeight);
  const btStaticPlaneShape plane(btVector3(0, 0, 1), 0.0);
  test::Random random(23);
  for (const double expected : kGaps) {
    for (int i = 0; i < 20; ++i) {
      const Mat3 R = random.rotation();
      const Vec3 axis = R.col(1);
      Vec3 x = random.vector(1.0);
      x.z() = std::abs(axis.z()) * halfHeight + radius + expected;
      const Gap g = gap(capsule, toBt(R, x), plane, btTransform::getIdentity());
      expectConsistent(g);
      EXPECT_NEAR(g.distance, expected, 1e-14);
      const Vec3 lowCap = x - (axis.z() > 0 ? 1.0 : -1.0) * halfHeight * axis;
      EXPECT_LE((toEigen(g.pointOnA) - (lowCap - radius * Vec3::UnitZ())).norm(), 1e-13);
    }
  }
}

// A sphere over a box face, separated, inside the margins and deeper than their sum (where GJK
// would hand over to EPA): closed form, the sphere's centre against Bullet's rounded box.
TEST(Gap, SphereOverABoxFaceAtEveryDepth) {
  const btBoxShape box(btVector3(1.0, 1.0, 0.5));
  const btSphereShape ball(0.1);
  test::Random random(24);
  for (const double expected : {0.3, 1e-6, 0.0, -1e-6, -0.05, -0.12, -0.3}) {
    for (int i = 0; i < 20; ++i) {
      const Vec3 x(random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), 0.6 + expected);
      const Gap g = gap(ball, toBt(random.rotation(), x), box, btTransform::getIdentity());
      expectConsistent(g);
      EXPECT_NEAR(g.distance, expected, 1e-12) << "gap " << expected;
      EXPECT_LE((toEigen(g.normal) - Vec3::UnitZ()).norm(), 1e-12) << "gap " << expected;
    }
  }
}

// A sphere against a turned box from every side (faces, edges, corners, inside) and in both
// orders: the closed form against GJK/EPA on the same rounded box given as a convex hull of its
// core corners with the box's margin (a pair carom::gap leaves to GJK), to their tolerance
// (measured: 5e-13 at worst, inside).
TEST(Gap, SphereAgainstABoxMatchesBulletsGjkAroundIt) {
  const btBoxShape box(btVector3(0.4, 0.3, 0.2));
  const btVector3 core = box.getHalfExtentsWithoutMargin();
  btConvexHullShape hull;
  for (int corner = 0; corner < 8; ++corner) {
    hull.addPoint(btVector3(corner & 1 ? core.x() : -core.x(), corner & 2 ? core.y() : -core.y(),
                            corner & 4 ? core.z() : -core.z()));
  }
  hull.setMargin(box.getMargin());
  test::Random random(26);
  for (const double radius : {0.0, 0.1}) {
    const btSphereShape ball(radius);
    for (int i = 0; i < 400; ++i) {
      const btTransform tBox = toBt(random.rotation(), random.vector(1.0));
      const btTransform tBall(btMatrix3x3::getIdentity(), tBox * toBt(random.vector(0.7)));
      const Gap g = gap(ball, tBall, box, tBox);
      expectConsistent(g);
      EXPECT_NEAR(g.distance, gap(ball, tBall, hull, tBox).distance, 1e-11) << "case " << i;
      const Gap swapped = gap(box, tBox, ball, tBall);
      EXPECT_EQ(swapped.distance, g.distance);
      EXPECT_EQ(swapped.normal, -g.normal);
    }
  }
}

// carom::EllipsoidShape against a box top face, checked against the core's analytic
// ellipsoid–plane gap at random attitudes: within the margins exact (exact_core_gap.h), deeper
// GJK/EPA's, 6e-13 in distance and up to 3e-5 m in the witness point (measured).
TEST(Gap, EllipsoidOnABoxFaceMatchesTheAnalyticGap) {
  const Vec3 semiAxes(0.3, 0.5, 0.8);
  const EllipsoidShape ellipsoid(toBt(semiAxes));
  const core::Ellipsoid analytic(semiAxes);
  const btBoxShape slab(btVector3(5.0, 5.0, 0.5));  // top face z = 0 after the shift below
  const btTransform slabPose(btMatrix3x3::getIdentity(), btVector3(0, 0, -0.5));
  const core::Plane top(Vec3::UnitZ(), 0.0);
  test::Random random(25);
  for (const double expected : {0.3, 1e-6, 0.0, -1e-6, -0.05, -0.12, -0.3}) {
    for (int i = 0; i < 20; ++i) {
      const Mat3 R = random.rotation();
      Vec3 x(random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), 0.0);
      x.z() = expected - analytic.gap(top, x, R).phi;
      const Gap g = gap(ellipsoid, toBt(R, x), slab, slabPose);
      expectConsistent(g);
      EXPECT_NEAR(g.distance, expected, 2e-10) << "gap " << expected;
      EXPECT_LE((toEigen(g.normal) - Vec3::UnitZ()).norm(), 1e-10) << "gap " << expected;
      const Vec3 contact = x + R * analytic.gap(top, x, R).contactPoint;
      EXPECT_LE((toEigen(g.pointOnA) - contact).norm(), 3e-5) << "gap " << expected;
    }
  }
}

// An ellipsoid over a box's face with their cores apart (the box's margin rounds its edges, 4 cm):
// the face's plane and the ellipsoid's lowest point, in closed form, in either order of the pair.
// The witness point is the analytic contact to round-off, where the projections stopped within
// 3e-5 m of it (above).
TEST(Gap, EllipsoidOverABoxFaceHasTheExactWitness) {
  const Vec3 semiAxes(0.3, 0.5, 0.8);
  const EllipsoidShape ellipsoid(toBt(semiAxes));
  const core::Ellipsoid analytic(semiAxes);
  const btBoxShape slab(btVector3(5.0, 5.0, 0.5));
  const btTransform slabPose(btMatrix3x3::getIdentity(), btVector3(0, 0, -0.5));
  const core::Plane top(Vec3::UnitZ(), 0.0);
  test::Random random(30);
  for (const double expected : {0.3, 1e-6, 0.0, -0.01}) {
    for (int i = 0; i < 20; ++i) {
      const Mat3 R = random.rotation();
      Vec3 x(random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), 0.0);
      x.z() = expected - analytic.gap(top, x, R).phi;
      const Vec3 contact = x + R * analytic.gap(top, x, R).contactPoint;
      const Gap g = gap(ellipsoid, toBt(R, x), slab, slabPose);
      EXPECT_NEAR(g.distance, expected, 1e-12) << "gap " << expected;
      EXPECT_LE((toEigen(g.pointOnA) - contact).norm(), 1e-12) << "gap " << expected;
      const Gap swapped = gap(slab, slabPose, ellipsoid, toBt(R, x));
      expectConsistent(swapped);
      EXPECT_NEAR(swapped.distance, expected, 1e-12) << "gap " << expected;
      EXPECT_LE((toEigen(swapped.pointOnB) - contact).norm(), 1e-12) << "gap " << expected;
      EXPECT_LE((toEigen(swapped.normal) + Vec3::UnitZ()).norm(), 1e-12) << "gap " << expected;
    }
  }
}

// A class derived from EllipsoidShape that gives another support (here a ball of radius 0.2 inside
// the ellipsoid) is that support's shape: its gap is GJK's, not the exact ellipsoid's.
TEST(Gap, AShapeDerivedFromTheEllipsoidIsItsOwnSupport) {
  ATTRIBUTE_ALIGNED16(class) BallInside : public EllipsoidShape {
   public:
    BallInside() : EllipsoidShape(btVector3(0.3, 0.5, 0.8)) {}
    btVector3 localGetSupportingVertexWithoutMargin(const btVector3& v) const override {
      return v.length2() > 0 ? v.normalized() * (kRadius - getMargin()) : btVector3(0, 0, 0);
    }
    void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* v, btVector3* out,
                                                           int n) const override {
      for (int i = 0; i < n; ++i)
        out[i] = localGetSupportingVertexWithoutMargin(v[i]);
    }
    const double kRadius = 0.2;
  };
  const BallInside ball;
  const btBoxShape slab(btVector3(5.0, 5.0, 0.5));  // top face z = 0
  const btTransform slabPose(btMatrix3x3::getIdentity(), btVector3(0, 0, -0.5));
  const Gap g =
      gap(ball, btTransform(btMatrix3x3::getIdentity(), btVector3(0, 0, 1.0)), slab, slabPose);
  EXPECT_NEAR(g.distance, 1.0 - ball.kRadius, 1e-9);  // the ellipsoid's would be 1.0 − 0.8
}

// A sphere, or a point (a polyhedron's corner, as the variational step's vertex gaps ask), against
// a turned ellipsoid, in closed form: placed along the surface normal at a surface point x, its gap
// is how far along it is, its witness on the ellipsoid x, in either order and whatever the
// ellipsoid's margin (it never changes the shape). Inside, the depth stays below the smallest
// radius of curvature (0.1² / 0.18 m), where x is still the nearest surface point.
TEST(Gap, SphereAgainstAnEllipsoidIsTheDistanceAlongItsNormal) {
  const Vec3 semiAxes(0.18, 0.1, 0.13);
  EllipsoidShape ellipsoid(toBt(semiAxes));
  test::Random random(41);
  for (const double margin : {0.0, 0.01, ellipsoid.getMaximumExactMargin()}) {
    ellipsoid.setMargin(margin);
    for (const double radius : {0.15, 0.0}) {
      const btSphereShape sphere(radius);
      for (const double expected : kGaps) {
        for (int i = 0; i < 20; ++i) {
          const Mat3 R = random.rotation();
          const Vec3 centre = random.vector(1.0);
          const Vec3 x = semiAxes.cwiseProduct(random.unitVector());
          const Vec3 n = x.cwiseQuotient(semiAxes.cwiseProduct(semiAxes)).normalized();
          const btTransform pose = toBt(R, centre);
          const btTransform at = toBt(Mat3::Identity(), centre + R * (x + (expected + radius) * n));
          const Gap g = gap(sphere, at, ellipsoid, pose);
          expectConsistent(g);
          EXPECT_NEAR(g.distance, expected, 1e-14) << "gap " << expected << " radius " << radius;
          EXPECT_LE((toEigen(g.normal) - R * n).norm(), 1e-12) << "gap " << expected;
          EXPECT_LE((toEigen(g.pointOnB) - (centre + R * x)).norm(), 1e-12) << "gap " << expected;
          const Gap back = gap(ellipsoid, pose, sphere, at);
          EXPECT_EQ(back.distance, g.distance);
          EXPECT_EQ(back.normal, -g.normal);
          EXPECT_EQ(back.pointOnA, g.pointOnB);
        }
      }
    }
  }
}

// A surface point of an ellipsoid (its frame) and its outward unit normal there.
struct SurfacePoint {
  Vec3 point, normal;
};
SurfacePoint onEllipsoid(const Vec3& semiAxes, const Vec3& direction) {
  const Vec3 x = semiAxes.cwiseProduct(direction);
  return {x, x.cwiseQuotient(semiAxes.cwiseProduct(semiAxes)).normalized()};
}

// The pose that puts an ellipsoid's surface point `on` at `at` (world) with its outward normal
// along `normal`, turned about it by a random angle.
btTransform touching(const SurfacePoint& on, const Vec3& at, const Vec3& normal,
                     test::Random& random) {
  const Mat3 R = Eigen::AngleAxisd(random.uniform(0.0, 6.2), normal).toRotationMatrix() *
                 Eigen::Quaterniond::FromTwoVectors(on.normal, normal).toRotationMatrix();
  return toBt(R, at - R * on.point);
}

// The pair's closest points and normal (Bullet's convention) are those the test placed: A's
// surface point pA with outward normal n, B's at pA + expected n with outward normal −n. Two
// convex shapes so placed have that gap; overlapping by less than their margins, their cores are
// apart by the margins less the overlap along the same normals, and the gap is the same. The
// normal is the cores' witness points' direction, 0.03 m apart at the deepest overlap here: their
// 1e-10 m convergence (exact_core_gap.cpp) leaves it 7e-9 off.
void expectPlaced(const Gap& g, double expected, const Vec3& pA, const Vec3& n) {
  expectConsistent(g);
  EXPECT_NEAR(g.distance, expected, 1e-12) << "gap " << expected;
  EXPECT_LE((toEigen(g.normal) + n).norm(), 1e-8) << "gap " << expected;
  EXPECT_LE((toEigen(g.pointOnA) - pA).norm(), 1e-9) << "gap " << expected;
}

// Two ellipsoids touching at chosen surface points with opposite normals, at random attitudes and
// gaps across the contact, in both orders.
TEST(Gap, EllipsoidsAreExactWhereTheyTouch) {
  const Vec3 axesA(0.18, 0.1, 0.13), axesB(0.12, 0.08, 0.15);
  const EllipsoidShape a(toBt(axesA)), b(toBt(axesB));
  ASSERT_GT(a.getMargin() + b.getMargin(), 0.05);  // kGaps' deepest overlap stays within them
  test::Random random(7);
  for (const double expected : kGaps) {
    for (int i = 0; i < 40; ++i) {
      const btTransform poseA = toBt(random.rotation(), random.vector(1.0));
      const SurfacePoint onA = onEllipsoid(axesA, random.unitVector());
      const Vec3 pA = toEigen(poseA * toBt(onA.point));
      const Vec3 n = toEigen(poseA.getBasis() * toBt(onA.normal));
      const btTransform poseB =
          touching(onEllipsoid(axesB, random.unitVector()), pA + expected * n, -n, random);
      expectPlaced(gap(a, poseA, b, poseB), expected, pA, n);
      expectPlaced(gap(b, poseB, a, poseA), expected, pA + expected * n, -n);
    }
  }
}

// The variational step's queries of one pair, started from the pair's last witness
// (detail::exactCoreGap with a CoreWitness): the same placed gaps, whether the last query was at a
// nearby pose (B rolling round A at each gap of kGaps) or anywhere (a witness carried across
// unrelated placements is a poor start, from which the projections must still converge).
TEST(Gap, EllipsoidGapsFromTheLastWitnessAreThePlacedOnes) {
  const Vec3 axesA(0.18, 0.1, 0.13), axesB(0.12, 0.08, 0.15);
  const EllipsoidShape a(toBt(axesA)), b(toBt(axesB));
  test::Random random(9);
  detail::CoreWitness carried;
  for (const double expected : kGaps) {
    detail::CoreWitness rolling;
    const btTransform poseA = toBt(random.rotation(), random.vector(1.0));
    const Vec3 onB = random.unitVector();
    for (int i = 0; i < 40; ++i) {
      const double angle = 0.01 * i;  // rad: A's surface point moves by about a millimetre a query
      const SurfacePoint onA =
          onEllipsoid(axesA, Vec3(std::cos(angle), std::sin(angle), 0.3).normalized());
      const Vec3 pA = toEigen(poseA * toBt(onA.point));
      const Vec3 n = toEigen(poseA.getBasis() * toBt(onA.normal));
      const btTransform poseB = touching(onEllipsoid(axesB, onB), pA + expected * n, -n, random);
      expectPlaced(detail::exactCoreGap(rolling, a, poseA, b, poseB), expected, pA, n);
      expectPlaced(detail::exactCoreGap(carried, a, poseA, b, poseB), expected, pA, n);
      EXPECT_TRUE(rolling.onCoreB.has_value()) << "gap " << expected;  // within the margins
    }
  }
}

// Overlapping by more than their margins, the cores overlap and have no closest pair: the witness
// gives carom::gap's answer (GJK and EPA's) and is let go, and the next query apart is exact again.
TEST(Gap, EllipsoidWitnessIsLetGoWhereTheCoresOverlap) {
  const Vec3 axes(0.18, 0.1, 0.13);
  const EllipsoidShape a(toBt(axes)), b(toBt(axes));
  const btTransform poseA = toBt(Mat3::Identity(), Vec3::Zero());
  const double margins = a.getMargin() + b.getMargin();
  detail::CoreWitness witness;
  const auto placed = [&](double distance) {  // B beside A along x, their x semi-axes facing
    return toBt(Mat3::Identity(), Vec3(2 * axes.x() + distance, 0, 0));
  };
  expectPlaced(detail::exactCoreGap(witness, a, poseA, b, placed(1e-3)), 1e-3, Vec3(axes.x(), 0, 0),
               Vec3::UnitX());
  ASSERT_TRUE(witness.onCoreB.has_value());
  const btTransform deep = placed(-2 * margins);
  const Gap overlapping = detail::exactCoreGap(witness, a, poseA, b, deep);
  EXPECT_EQ(overlapping.distance, gap(a, poseA, b, deep).distance);
  EXPECT_LT(overlapping.distance, -margins);
  EXPECT_FALSE(witness.onCoreB.has_value());
  expectPlaced(detail::exactCoreGap(witness, a, poseA, b, placed(0.0)), 0.0, Vec3(axes.x(), 0, 0),
               Vec3::UnitX());
  EXPECT_TRUE(witness.onCoreB.has_value());
}

// An ellipsoid against a box's rounded edges and corners (Bullet's box: its core half extents
// rounded by its margin): placed along a direction from the edge's or corner's normal cone, at a
// core point of the edge or corner, the rounded surface point is the core point plus the margin
// along it.
TEST(Gap, EllipsoidAgainstBoxEdgesAndCornersIsExact) {
  const Vec3 axes(0.18, 0.1, 0.13);
  const EllipsoidShape ellipsoid(toBt(axes));
  const btBoxShape box(btVector3(0.3, 0.2, 0.25));
  const Vec3 core = toEigen(box.getHalfExtentsWithoutMargin());
  ASSERT_GT(ellipsoid.getMargin() + box.getMargin(), 0.05);
  test::Random random(8);
  for (const double expected : kGaps) {
    for (int i = 0; i < 40; ++i) {
      // A corner (three axes at the core's extent) or an edge (two), the normal from their cone.
      const int free = i % 2 == 0 ? -1 : i % 3;
      Vec3 local, n;
      for (int axis = 0; axis < 3; ++axis) {
        const double side = random.uniform(-1, 1) < 0 ? -1.0 : 1.0;
        local[axis] = axis == free ? random.uniform(-core[axis], core[axis]) : side * core[axis];
        n[axis] = axis == free ? 0.0 : side * random.uniform(0.2, 1.0);
      }
      n.normalize();
      const btTransform poseBox = toBt(random.rotation(), random.vector(1.0));
      const Vec3 pBox = toEigen(poseBox * toBt((local + box.getMargin() * n).eval()));
      const Vec3 nWorld = toEigen(poseBox.getBasis() * toBt(n));
      const btTransform pose = touching(onEllipsoid(axes, random.unitVector()),
                                        pBox + expected * nWorld, -nWorld, random);
      expectPlaced(gap(box, poseBox, ellipsoid, pose), expected, pBox, nWorld);
      expectPlaced(gap(ellipsoid, pose, box, poseBox), expected, pBox + expected * nWorld, -nWorld);
    }
  }
}

// A compound is the union of its children, each at its world pose; the nearer child decides and is
// named, whichever side of the pair the compound is on.
TEST(Gap, CompoundIsItsNearestChild) {
  btSphereShape small(0.1), large(0.2);
  btCompoundShape dumbbell;
  dumbbell.addChildShape(btTransform(btMatrix3x3::getIdentity(), btVector3(-0.5, 0, 0)), &small);
  dumbbell.addChildShape(btTransform(btMatrix3x3::getIdentity(), btVector3(0.5, 0, 0)), &large);
  const btStaticPlaneShape ground(btVector3(0, 0, 1), 0.0);
  const btSphereShape ball(0.1);
  // Tilted by 30° about y: the large end dips to z = 1 − 0.25 − 0.2, the small end stays higher.
  const btTransform pose(btQuaternion(btVector3(0, 1, 0), M_PI / 6), btVector3(0, 0, 1));

  const Gap onGround = gap(dumbbell, pose, ground, btTransform::getIdentity());
  EXPECT_NEAR(onGround.distance, 1.0 - 0.5 * std::sin(M_PI / 6) - 0.2, 1e-14);
  EXPECT_EQ(onGround.childA, 1);
  EXPECT_EQ(onGround.childB, -1);

  const btVector3 smallCentre = pose * btVector3(-0.5, 0, 0);
  const btTransform ballPose(btMatrix3x3::getIdentity(), smallCentre + btVector3(0, 0.5, 0));
  const Gap g = gap(ball, ballPose, dumbbell, pose);
  EXPECT_NEAR(g.distance, 0.5 - 0.2, 1e-12);
  EXPECT_EQ(g.childA, -1);
  EXPECT_EQ(g.childB, 0);
  EXPECT_LE((g.normal - btVector3(0, 1, 0)).length(), 1e-9);
  const Gap r = gap(dumbbell, pose, ball, ballPose);
  EXPECT_EQ(r.childA, 0);
  EXPECT_LE((r.normal + g.normal).length(), 1e-15);
}

TEST(Gap, RefusesPairsWithoutAGap) {
  const btStaticPlaneShape ground(btVector3(0, 0, 1), 0.0);
  const btSphereShape ball(0.1);
  const btCompoundShape empty;
  const btEmptyShape nothing;
  const btTransform id = btTransform::getIdentity();
  EXPECT_THROW(gap(ground, id, ground, id), Error);
  EXPECT_THROW(gap(empty, id, ball, id), Error);
  EXPECT_THROW(gap(ball, id, empty, id), Error);
  EXPECT_THROW(gap(nothing, id, ball, id), Error);
  EXPECT_THROW(gap(ball, id, nothing, id), Error);
}

}  // namespace
}  // namespace carom
