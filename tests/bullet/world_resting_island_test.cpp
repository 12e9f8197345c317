// Islands at rest in variational mode: where nothing can strike within the step, the island's
// contacts are held once at its start, as speculative contacts where they are apart, and it flows
// to the end with no impact located (StepDiagnostics::restingIslands). Checked against what the
// located landings give: touching at the end of the step, never deeper than the contact
// tolerance, never gaining energy.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

#include <functional>
#include <string>

#include "bullet/body_on_support.h"

namespace carom {
namespace {

constexpr double kTolerance = test::kContactTolerance;
constexpr double kH = 1.0 / 60.0;

using test::BodyOnSupport;

// A body at `at`, upright, on the ground.
BodyOnSupport onGround(btCollisionShape* shape, const btVector3& at, const btVector3& velocity) {
  return BodyOnSupport(shape, btTransform(btQuaternion::getIdentity(), at), velocity);
}

TEST(RestingIsland, ABoxAtRestIsHeldOnceAndStaysPut) {
  BodyOnSupport box =
      onGround(new btBoxShape(btVector3(0.2, 0.1, 0.15)), btVector3(0, 0.1, 0), btVector3(0, 0, 0));
  const btVector3 start = box.body->getCenterOfMassPosition();
  for (int i = 0; i < 120; ++i) {
    const StepDiagnostics& step = box.step();
    ASSERT_EQ(step.restingIslands, 1) << "step " << i;
    ASSERT_EQ(step.impacts, 0) << "step " << i;
  }
  EXPECT_LT((box.body->getCenterOfMassPosition() - start).length(), 1e-9);
}

// A convex hull's points are its core's: its surface stands Bullet's margin (4 cm by default)
// beyond them. Taken as its surface, those points were 4 cm short of touching, so a hull was held
// at its witness point alone, tipped about it and sank (the scene reference's tetrahedron 5 mm in
// 3 s, 11 landings a step, measured). Each hull starts a contact tolerance above its support and
// lies still on its face.
TEST(RestingIsland, ConvexHullsLieStillOnTheirFaces) {
  const auto hull = [](std::vector<btVector3> points) {
    return [points] {
      auto* shape = new btConvexHullShape();
      for (const btVector3& point : points)
        shape->addPoint(point);
      return static_cast<btCollisionShape*>(shape);
    };
  };
  const auto cube = hull({{-0.2, -0.1, -0.15},
                          {0.2, -0.1, -0.15},
                          {-0.2, 0.1, -0.15},
                          {0.2, 0.1, -0.15},
                          {-0.2, -0.1, 0.15},
                          {0.2, -0.1, 0.15},
                          {-0.2, 0.1, 0.15},
                          {0.2, 0.1, 0.15}});
  // A regular tetrahedron resting on its face y = −0.1.
  const auto tetrahedron =
      hull({{0, 0.2, 0}, {0.2, -0.1, 0}, {-0.1, -0.1, 0.17}, {-0.1, -0.1, -0.17}});
  const auto staticBox = [](test::BodyOnSupport::World& scene) {
    return scene.add(new btBoxShape(btVector3(0.5, 0.1, 0.5)), 0, btVector3(0, 0.1, 0));
  };
  const auto staticHull = [cube](test::BodyOnSupport::World& scene) {
    return scene.add(cube(), 0, btVector3(0, 0.2, 0));
  };
  const struct {
    std::string name;
    std::function<btCollisionShape*()> shape;
    std::function<btRigidBody*(test::BodyOnSupport::World&)> support;
  } cases[] = {
      {"hull box on the ground", cube, &test::BodyOnSupport::World::addGround},
      {"tetrahedron on the ground", tetrahedron, &test::BodyOnSupport::World::addGround},
      {"hull box on a box", cube, staticBox},
      {"hull box on a hull box", cube, staticHull},
  };
  for (const auto& lying : cases) {
    SCOPED_TRACE(lying.name);
    BodyOnSupport body(lying.shape(), btTransform(btQuaternion::getIdentity(), btVector3(0, 1, 0)),
                       btVector3(0, 0, 0), lying.support);
    // Lowered to a contact tolerance above touching.
    const btVector3 at(0, 1 - body.gap() + kTolerance, 0);
    body.body->setWorldTransform(btTransform(btQuaternion::getIdentity(), at));
    ASSERT_NO_FATAL_FAILURE(body.liesStill(600));
    body.expectAtRestAt(at);
  }
}

TEST(RestingIsland, AFastBodyIsNotAtRest) {
  BodyOnSupport ball =
      onGround(new btSphereShape(0.1), btVector3(0, 0.1 + 1e-3, 0), btVector3(0, -1, 0));
  const StepDiagnostics& step = ball.step();
  EXPECT_EQ(step.restingIslands, 0);
  EXPECT_EQ(step.impacts, 1);
  EXPECT_GE(ball.gap(), -kTolerance);
}

// Two balls side by side over the ground, one island: the one coming down at 1 m/s strikes, the one
// coming down at 0.1 m/s (under the resting speed of 0.21 m/s at 60 Hz) lands. The island is not at
// rest, so both events are located, and the step counts two impacts of which one is a landing.
TEST(RestingIsland, ASlowBallBesideAFastOneIsALanding) {
  test::Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  scene.addGround();
  scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 0.1 + 1e-3, 0), btVector3(0, -1, 0));
  scene.add(new btSphereShape(0.1), 1.0, btVector3(0.21, 0.1 + 1e-3, 0), btVector3(0, -0.1, 0));
  scene.world().stepSimulation(kH, 1, kH);
  const StepDiagnostics& step = scene.world().getLastStepDiagnostics();
  EXPECT_EQ(step.restingIslands, 0);
  EXPECT_EQ(step.impacts, 2);
  EXPECT_EQ(step.landings, 1);
}

// A box 1 mm above the ground coming down at 0.1 m/s (under the resting speed of 0.21 m/s at
// 60 Hz) lands within the step, plastically: the island's speculative hold brings it to touching
// at the end of the step, as the located landing did, with no event and no energy gained.
TEST(RestingIsland, ASlowBoxLandsOnItsSpeculativeContactsAndStops) {
  BodyOnSupport box = onGround(new btBoxShape(btVector3(0.2, 0.1, 0.15)),
                               btVector3(0, 0.1 + 1e-3, 0), btVector3(0, -0.1, 0));
  const double e0 = test::totalEnergy(box.scene.world());
  const StepDiagnostics& step = box.step();
  EXPECT_EQ(step.restingIslands, 1);
  EXPECT_EQ(step.impacts, 0);
  // It stops where its vertices' gaps are zero: touching, one contact tolerance above the ground
  // (vertexGap). Asserted as |gap| ≤ kTolerance, it passed or failed by round-off (1e-6 ± 1e-15 m,
  // with and without the persistent contacts' momentum, measured).
  EXPECT_NEAR(box.gap(), kTolerance, 1e-9);
  EXPECT_NEAR(box.body->getLinearVelocity().y(), 0.0, 1e-9);
  EXPECT_LT(test::totalEnergy(box.scene.world()), e0);
}

// A ball 16 µm above the ground, leaving it at 1 mm/s, falls back within the step (after 1.9 ms).
// Held only where it approached, as at an island's start of step with landings located, it went
// 1.5 mm into the ground at rest (measured in a bin of 300 bodies).
TEST(RestingIsland, ABallLeavingTheGroundSlowlyComesBackWithoutSinking) {
  BodyOnSupport ball =
      onGround(new btSphereShape(0.1), btVector3(0, 0.1 + 1.6e-5, 0), btVector3(0, 1e-3, 0));
  const double e0 = test::totalEnergy(ball.scene.world());
  for (int i = 0; i < 10; ++i) {
    const StepDiagnostics& step = ball.step();
    ASSERT_EQ(step.restingIslands, 1) << "step " << i;
    ASSERT_GE(ball.gap(), -kTolerance) << "step " << i;
  }
  EXPECT_NEAR(ball.gap(), 0.0, kTolerance);
  EXPECT_LT(test::totalEnergy(ball.scene.world()), e0);
}

}  // namespace
}  // namespace carom
