#include "carom/bullet/ellipsoid_shape.h"

#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <BulletCollision/CollisionShapes/btCollisionMargin.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include "bullet/bt_eigen.h"
#include "carom/bullet/gap.h"
#include "carom/core/body.h"
#include "carom/core/sdf.h"
#include "carom/error.h"
#include "support/random.h"

namespace carom {
namespace {

using test::toBt;
using test::toEigen;

const btVector3 kSemiAxes(0.3, 0.5, 0.8);

// diag(a)² d / ‖diag(a) d‖: the ellipsoid's point whose outward normal is d.
core::Vec3 analyticSupport(const core::Vec3& a, const core::Vec3& d) {
  return a.cwiseProduct(a).cwiseProduct(d) / a.cwiseProduct(d).norm();
}

TEST(EllipsoidShape, IsACustomConvexShapeWithItsSemiAxes) {
  const EllipsoidShape shape(kSemiAxes);
  EXPECT_EQ(shape.getShapeType(), CUSTOM_CONVEX_SHAPE_TYPE);
  EXPECT_TRUE(shape.isConvex());
  EXPECT_STREQ(shape.getName(), "Ellipsoid");
  EXPECT_EQ(shape.getSemiAxes(), kSemiAxes);
}

TEST(EllipsoidShape, SupportPointIsTheAnalyticOneAndTheMarginOnlyMovesItsCore) {
  EllipsoidShape shape(kSemiAxes);
  test::Random random(11);
  for (const double margin : {0.0, 0.04, shape.getMaximumExactMargin()}) {
    shape.setMargin(margin);
    for (int i = 0; i < 200; ++i) {
      const core::Vec3 d = random.unitVector() * random.uniform(0.1, 10.0);
      const core::Vec3 expected = analyticSupport(toEigen(kSemiAxes), d);
      EXPECT_LE((toEigen(shape.localGetSupportingVertex(toBt(d))) - expected).norm(), 1e-15);
      const core::Vec3 core = expected - margin * d.normalized();
      EXPECT_LE((toEigen(shape.localGetSupportingVertexWithoutMargin(toBt(d))) - core).norm(),
                1e-15);
    }
  }
}

TEST(EllipsoidShape, BatchedSupportMatchesOneAtATime) {
  const EllipsoidShape shape(kSemiAxes);
  test::Random random(12);
  btVector3 directions[8], batched[8];
  for (auto& d : directions)
    d = toBt(random.unitVector());
  shape.batchedUnitVectorGetSupportingVertexWithoutMargin(directions, batched, 8);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(batched[i], shape.localGetSupportingVertexWithoutMargin(directions[i]));
  }
}

TEST(EllipsoidShape, InertiaIsTheCoreUniformSolidEllipsoid) {
  const EllipsoidShape shape(kSemiAxes);
  btVector3 inertia;
  shape.calculateLocalInertia(2.5, inertia);
  const core::Mat3 expected = core::uniformEllipsoid(2.5, toEigen(kSemiAxes)).inertia();
  EXPECT_LE((toEigen(inertia) - core::Vec3(expected.diagonal())).norm(), 1e-15);
}

// The AABB is tight: each face touches the ellipsoid at its support point along that axis.
TEST(EllipsoidShape, AabbIsTheTightBoxAtAnyPose) {
  const EllipsoidShape shape(kSemiAxes);
  test::Random random(13);
  for (int i = 0; i < 100; ++i) {
    const core::Mat3 R = random.rotation();
    const core::Vec3 x = random.vector(2.0);
    btVector3 lo, hi;
    shape.getAabb(toBt(R, x), lo, hi);
    for (int k = 0; k < 3; ++k) {
      const core::Vec3 e = core::Vec3::Unit(k);
      const core::Vec3 top = x + R * analyticSupport(toEigen(kSemiAxes), R.transpose() * e);
      const core::Vec3 bottom = x + R * analyticSupport(toEigen(kSemiAxes), -R.transpose() * e);
      EXPECT_NEAR(hi[k], top(k), 1e-14);
      EXPECT_NEAR(lo[k], bottom(k), 1e-14);
    }
  }
}

TEST(EllipsoidShape, GapToAPlaneIsTheCoreAnalyticGapAtRandomPoses) {
  const EllipsoidShape shape(kSemiAxes);
  const core::Ellipsoid analytic(toEigen(kSemiAxes));
  test::Random random(14);
  for (int i = 0; i < 500; ++i) {
    const core::Vec3 n = random.unitVector();
    const double offset = random.uniform(-1.0, 1.0);
    const core::Plane plane(n, offset);
    const btStaticPlaneShape ground(toBt(n), offset);
    const core::Mat3 R = random.rotation();
    // Centres from well clear of the plane to deep inside, across the contact.
    const core::Vec3 x = random.vector(1.0) + n * (offset + random.uniform(-0.5, 1.5));
    const core::GapSample expected = analytic.gap(plane, x, R);
    const Gap g = gap(shape, toBt(R, x), ground, btTransform::getIdentity());
    EXPECT_NEAR(g.distance, expected.phi, 1e-14);
    EXPECT_LE((toEigen(g.normal) - n).norm(), 1e-15);
    EXPECT_LE((toEigen(g.pointOnA) - (x + R * expected.contactPoint)).norm(), 1e-14);
  }
}

// A real Bullet shape: Bullet's own narrowphase (convex–plane algorithm) finds the contact of an
// ellipsoid resting slightly inside a plane at the analytic depth.
TEST(EllipsoidShape, CollidesInABulletCollisionWorld) {
  // Shapes and objects outlive the world, which touches them when it is destroyed.
  EllipsoidShape shape(kSemiAxes);
  btStaticPlaneShape groundShape(btVector3(0, 0, 1), 0.0);
  btCollisionObject ellipsoid, ground;
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &configuration);
  const core::Ellipsoid analytic(toEigen(kSemiAxes));
  test::Random random(15);
  const core::Mat3 R = random.rotation();
  core::Vec3 x(0.1, -0.2, 0.0);
  x.z() = -1e-3 - analytic.gap(core::Plane(core::Vec3::UnitZ()), x, R).phi;
  ellipsoid.setCollisionShape(&shape);
  ellipsoid.setWorldTransform(toBt(R, x));
  ground.setCollisionShape(&groundShape);
  world.addCollisionObject(&ellipsoid);
  world.addCollisionObject(&ground);
  world.performDiscreteCollisionDetection();

  ASSERT_EQ(dispatcher.getNumManifolds(), 1);
  const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(0);
  ASSERT_GE(manifold.getNumContacts(), 1);
  btScalar deepest = BT_LARGE_FLOAT;
  for (int i = 0; i < manifold.getNumContacts(); ++i) {
    deepest = btMin(deepest, manifold.getContactPoint(i).getDistance());
  }
  EXPECT_NEAR(deepest, -1e-3, 1e-12);
}

TEST(EllipsoidShape, RefusesSemiAxesThatAreNotFiniteAndPositive) {
  EXPECT_THROW(EllipsoidShape(btVector3(0.3, 0.0, 0.8)), Error);
  EXPECT_THROW(EllipsoidShape(btVector3(-0.3, 0.5, 0.8)), Error);
  EXPECT_THROW(EllipsoidShape(btVector3(0.3, NAN, 0.8)), Error);
  EXPECT_THROW(EllipsoidShape(btVector3(0.3, INFINITY, 0.8)), Error);
}

TEST(EllipsoidShape, DefaultMarginIsBulletsUnlessTheCurvatureBoundIsSmaller) {
  EXPECT_EQ(EllipsoidShape(kSemiAxes).getMargin(), CONVEX_DISTANCE_MARGIN);
  const EllipsoidShape thin(btVector3(0.1, 0.2, 1.0));
  EXPECT_DOUBLE_EQ(thin.getMaximumExactMargin(), 0.01);
  EXPECT_EQ(thin.getMargin(), thin.getMaximumExactMargin());
}

TEST(EllipsoidShape, RefusesAMarginThatWouldRoundTheShapeAndKeepsTheOldOne) {
  EllipsoidShape shape(kSemiAxes);
  const btScalar bound = shape.getMaximumExactMargin();  // 0.3² / 0.8
  EXPECT_DOUBLE_EQ(bound, 0.1125);
  EXPECT_NO_THROW(shape.setMargin(bound));
  for (const btScalar bad : {bound * 1.001, -0.01, double(NAN)}) {
    EXPECT_THROW(shape.setMargin(bad), Error);
    EXPECT_EQ(shape.getMargin(), bound);
  }
}

TEST(EllipsoidShape, LocalScalingScalesTheSemiAxesAndIsCheckedAgainstTheMargin) {
  EllipsoidShape shape(kSemiAxes);
  shape.setLocalScaling(btVector3(2.0, -1.0, 0.5));
  EXPECT_EQ(shape.getSemiAxes(), btVector3(0.6, 0.5, 0.4));
  btVector3 inertia;
  shape.calculateLocalInertia(1.0, inertia);
  EXPECT_NEAR(inertia.x(), (0.25 + 0.16) / 5, 1e-15);

  shape.setMargin(0.1);  // bound 0.4² / 0.6 ≈ 0.267
  EXPECT_THROW(shape.setLocalScaling(btVector3(1.0, 1.0, 0.2)), Error);  // bound 0.16²/0.6
  EXPECT_THROW(shape.setLocalScaling(btVector3(1.0, 0.0, 1.0)), Error);
  EXPECT_EQ(shape.getSemiAxes(), btVector3(0.6, 0.5, 0.4));
}

}  // namespace
}  // namespace carom
