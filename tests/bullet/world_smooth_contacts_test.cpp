// Shapes that touch with more than one point where their gap has one witness point, in variational
// mode: smooth shapes with flat or straight features (a cylinder on its cap or its side, a capsule
// on its side, a cone on its base), whose contacts are the corners of the patch they touch with
// (support_contacts.h), and compound shapes, whose children are paired on their own. They lie
// still and roll without tipping about one point, and their impacts are found again after they
// were struck.
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "bullet/body_on_support.h"
#include "carom/bullet/ellipsoid_shape.h"

namespace carom {
namespace {

constexpr double kTolerance = test::kContactTolerance;

using OnSupport = test::BodyOnSupport;
using Scene = OnSupport::World;

// Lying along x (the shapes' axis is their y).
const btQuaternion kOnItsSide(btVector3(0, 0, 1), SIMD_HALF_PI);

struct Lying {
  std::string name;
  std::function<btCollisionShape*()> shape;
  btQuaternion orientation;
  double height;  // of the centre when touching (m)
};

// Each starts a contact tolerance above touching and must stay there, still, with no event: held
// at its witness point alone, a capsule on its side tipped about it and struck the ground with its
// other end, 5 events a step, sinking 0.5 mm per 100 steps, and a cylinder on its side 0.9 mm
// (measured).
TEST(SmoothContacts, CylindersCapsulesAndConesLieStill) {
  const Lying cases[] = {
      {"cylinder on its cap", [] { return new btCylinderShape(btVector3(0.2, 0.3, 0.2)); },
       btQuaternion::getIdentity(), 0.3},
      {"cylinder on its side", [] { return new btCylinderShape(btVector3(0.2, 0.3, 0.2)); },
       kOnItsSide, 0.2},
      {"capsule on its side", [] { return new btCapsuleShape(0.1, 0.4); }, kOnItsSide, 0.1},
      // Bullet's cone is rounded by its margin outside its nominal size.
      {"cone on its base", [] { return new btConeShape(0.2, 0.4); }, btQuaternion::getIdentity(),
       0.2 + 0.04},
  };
  for (const Lying& lying : cases) {
    SCOPED_TRACE(lying.name);
    const btVector3 at(0, lying.height + kTolerance, 0);
    OnSupport body(lying.shape(), btTransform(lying.orientation, at));
    ASSERT_NO_FATAL_FAILURE(body.liesStill(300));
    const btQuaternion settled = body.body->getWorldTransform().getRotation();
    ASSERT_NO_FATAL_FAILURE(body.liesStill(300));
    body.expectAtRestAt(at);
    // Landing from a contact tolerance up, it tilts by no more than that over its size, and then
    // not at all.
    const btQuaternion turned = body.body->getWorldTransform().getRotation();
    EXPECT_LT(turned.angle(lying.orientation), 1e-5);
    EXPECT_LT(turned.angle(settled), 1e-7);
  }
}

// A capsule lying across a static box touches it along a segment too: it lands and rests a contact
// tolerance above the box's face. Its corners' gaps are their distances to the box itself: with
// the allowance a polyhedron's vertex has for the box's rounded corners, they held it 1 mm above
// the face, at the height it started from (measured).
TEST(SmoothContacts, ACapsuleRestsAcrossABox) {
  OnSupport capsule(
      new btCapsuleShape(0.1, 0.4), btTransform(kOnItsSide, btVector3(0, 0.3 + 1e-3, 0)),
      btVector3(0, 0, 0), [](Scene& scene) {
        return scene.add(new btBoxShape(btVector3(0.3, 0.1, 0.3)), 0, btVector3(0, 0.1, 0));
      });
  for (int i = 0; i < 300; ++i) {
    const StepDiagnostics& step = capsule.step();
    ASSERT_GE(capsule.gap(), -kTolerance) << "step " << i;
    if (i >= 60) {  // landed, it lies still
      ASSERT_EQ(step.impacts, 0) << "step " << i;
    }
  }
  // Where it started, a contact tolerance above (to the round-off of that start's height).
  EXPECT_NEAR(capsule.gap(), kTolerance, 1e-12);
  EXPECT_LT(capsule.body->getLinearVelocity().length(), 1e-9);
  EXPECT_LT(capsule.body->getAngularVelocity().length(), 1e-9);
}

// A plank lying across a log (a static cylinder on its side) touches it along a segment whose ends
// are where the plank's edges cross the log, corners of neither shape's support: held at its
// witness point alone, it rocked there, 19 events a step, and sank 1.2 cm into the log in 600
// steps (measured). A plank this thin on a log this round is stable (its centre 3 cm above the
// contact, under the log's 20 cm radius): it lies still.
TEST(SmoothContacts, APlankRestsAcrossALog) {
  OnSupport plank(new btBoxShape(btVector3(0.6, 0.03, 0.2)),
                  btTransform(btQuaternion::getIdentity(), btVector3(0, 0.53 + kTolerance, 0)),
                  btVector3(0, 0, 0), [](Scene& scene) {
                    btRigidBody* log = scene.add(new btCylinderShape(btVector3(0.2, 0.5, 0.2)), 0,
                                                 btVector3(0, 0.3, 0));
                    log->setWorldTransform(btTransform(
                        btQuaternion(btVector3(1, 0, 0), SIMD_HALF_PI), btVector3(0, 0.3, 0)));
                    return log;
                  });
  ASSERT_NO_FATAL_FAILURE(plank.liesStill(600));
  EXPECT_NEAR(plank.body->getCenterOfMassPosition().y(), 0.53, 1e-5);
  EXPECT_LT(plank.body->getWorldTransform().getRotation().angle(btQuaternion::getIdentity()), 1e-3);
}

// Rolling without slipping, v = ω r along the ground: the contacts at the ends of the touching
// segment stay under the axis as the body turns (they are no material points), so the roll goes
// on at constant speed and energy, at the height it started.
TEST(SmoothContacts, CylindersAndCapsulesRollOnTheirSides) {
  struct Rolling {
    std::string name;
    btCollisionShape* shape;
    double radius;
  };
  const Rolling cases[] = {{"cylinder", new btCylinderShape(btVector3(0.2, 0.3, 0.2)), 0.2},
                           {"capsule", new btCapsuleShape(0.1, 0.4), 0.1}};
  for (const Rolling& rolling : cases) {
    SCOPED_TRACE(rolling.name);
    OnSupport body(rolling.shape, btTransform(kOnItsSide, btVector3(0, rolling.radius, 0)));
    const double spin = 5;  // rad/s about x, the axis
    body.body->setAngularVelocity(btVector3(spin, 0, 0));
    body.body->setLinearVelocity(btVector3(0, 0, spin * rolling.radius));
    const double e0 = test::totalEnergy(body.scene.world());
    for (int i = 0; i < 600; ++i) {
      body.step();
      ASSERT_GE(body.gap(), -kTolerance) << "step " << i;
    }
    EXPECT_NEAR(body.body->getLinearVelocity().z(), spin * rolling.radius, 1e-9);
    EXPECT_NEAR(body.body->getAngularVelocity().x(), spin, 1e-9);
    EXPECT_NEAR(body.body->getCenterOfMassPosition().y(), rolling.radius, kTolerance);
    EXPECT_NEAR(test::totalEnergy(body.scene.world()), e0, 1e-9 * e0);
  }
}

// A cylinder tumbling at 35 rad/s strikes the ground on its rim; its spin turns the rim back down
// within the step. Found again at the impact's instant by round-off (its gap 1e-17 m there), the
// pair went quiet as a graze and sank for the rest of the step: 3.5 mm here, 6.6 cm in a random
// scene of 12 bodies (measured). With the contact tolerance as slack, its next impact is located.
// What remains is the slow sinking of a contact rolling on the rim (1e-5 m a step or less here;
// see the README's limits).
TEST(SmoothContacts, ATumblingCylinderStruckOnItsRimIsStruckAgainWithinTheStep) {
  OnSupport cylinder(new btCylinderShape(btVector3(0.2, 0.3, 0.2)),
                     btTransform(btQuaternion(btVector3(0, 0, 1), 1.3), btVector3(0, 0.5, 0)));
  cylinder.body->setAngularVelocity(btVector3(35, 0, 0));
  cylinder.body->setLinearVelocity(btVector3(0, -3, 0));
  const double e0 = test::totalEnergy(cylinder.scene.world());
  int impacts = 0;
  for (int i = 0; i < 30; ++i) {
    impacts += cylinder.step().impacts;
    ASSERT_GE(cylinder.gap(), -1e-4) << "step " << i;
  }
  EXPECT_GT(impacts, 1);
  EXPECT_LT(test::totalEnergy(cylinder.scene.world()), e0);
}

// A ball touching the middle of a face of a heavy box that turns at `spin` (rad/s) about an axis
// in the face's plane, without gravity: the face swings on into the ball at second order, by
// κ = (a + r)ω² (a the face's distance from the axis, r the ball's radius).
std::unique_ptr<OnSupport> ballOnATurningFace(double spin) {
  const auto addPaddle = [spin](Scene& scene) {
    btRigidBody* paddle = scene.add(new btBoxShape(btVector3(0.15, 0.1, 0.12)), 100.0,
                                    btVector3(0, 1, 0), btVector3(0, 0, 0));
    paddle->setAngularVelocity(btVector3(0, spin, 0));
    return paddle;
  };
  auto ball = std::make_unique<OnSupport>(
      new btSphereShape(0.1), btTransform(btQuaternion::getIdentity(), btVector3(0.25, 1, 0)),
      btVector3(0, 0, 0), addPaddle);
  for (btRigidBody* body : {ball->body, ball->support})
    body->setGravity(btVector3(0, 0, 0));
  return ball;
}

// At 5 rad/s, κ = 6.25 m/s². A hold is a velocity constraint at one instant; one that leaves κ out
// lets the pair close again at once and land again every few hundredths of a step, a micrometre
// deeper each time (turningClosure).
TEST(SmoothContacts, ABallOnATurningFaceIsPushedAlongNotLandedOnAgainAndAgain) {
  const std::unique_ptr<OnSupport> ball = ballOnATurningFace(5);
  const double e0 = test::totalEnergy(ball->scene.world());
  int mostImpacts = 0;
  double deepest = 0;
  for (int i = 0; i < 20; ++i) {
    mostImpacts = std::max(mostImpacts, ball->step().impacts);
    deepest = std::min(deepest, ball->gap());
  }
  // Measured without κ in the holds: 26–28 landings a step, the ball 79 µm deep in the face.
  EXPECT_LE(mostImpacts, 3);
  EXPECT_GE(deepest, -4 * test::kContactTolerance);
  EXPECT_GT(ball->body->getLinearVelocity().length(), 0.5);  // flung off the face's end
  EXPECT_LE(test::totalEnergy(ball->scene.world()), e0 * (1 + 1e-9));
}

// An ellipsoid (semi-axes 12, 5 and 8 cm) tilted by 0.3 rad and let go on the ground rocks on
// it. Each start of the step's hold sets it turning, and its gap then closes at second order: the
// pair landed again within the step, a micrometre deeper each time: 91 events in the first 60
// steps, 17 µm deep (measured). Its closing is now found after the hold and held from the start
// (holdTurningPairs): 41 events, 8.6 µm at the deepest (measured).
TEST(SmoothContacts, ARockingEllipsoidIsHeldWithItsClosingFromTheStartOfTheStep) {
  auto* shape = new EllipsoidShape(btVector3(0.12, 0.05, 0.08));
  const btMatrix3x3 tilt(btQuaternion(btVector3(0, 0, 1), 0.3));
  const double lowest =
      (tilt * shape->localGetSupportingVertex(tilt.transpose() * btVector3(0, -1, 0))).y();
  OnSupport ellipsoid(shape, btTransform(tilt, btVector3(0, -lowest + 1e-7, 0)));
  double energy = test::totalEnergy(ellipsoid.scene.world());
  int events = 0;
  double deepest = 0;
  for (int i = 0; i < 60; ++i) {
    events += ellipsoid.step().impacts;
    deepest = std::min(deepest, ellipsoid.gap());
    const double now = test::totalEnergy(ellipsoid.scene.world());
    EXPECT_LE(now, energy * (1 + 1e-9)) << "step " << i;
    energy = now;
  }
  EXPECT_LT(events, 60);  // fewer than one a step
  EXPECT_GE(deepest, -12 * kTolerance);
  EXPECT_GT(ellipsoid.body->getAngularVelocity().length(), 0.01);  // still rocking
}

// At 30 rad/s the face turns by half a radian a step, too far for one second-order closing over
// the step: each hold takes κ in over a shorter span (noteLanding), after which the pair lands
// again. Held without κ instead, the ball landed again and again up to the Zeno guard (64 events in
// the first step), sank 1.7 mm into the face and left it 10 % slower than at steps 64 times
// shorter, where the face turns by 0.008 rad a step. Measured with the spans: 47 events in the
// first step, never below touching, 4.9 % slower.
TEST(SmoothContacts, ABallOnAFaceTurningHalfARadianAStepIsHeldOverSpansOfItsTurn) {
  const double spin = 30;
  struct Run {
    int mostImpacts = 0;
    double deepest = 0;
    double speed = 0;  // the ball's, after a third of a second (m/s)
    bool gained = false;
  };
  const auto run = [spin](int substeps) {
    const std::unique_ptr<OnSupport> ball = ballOnATurningFace(spin);
    const double e0 = test::totalEnergy(ball->scene.world());
    const double h = OnSupport::kStep / substeps;
    Run result;
    for (int i = 0; i < 20 * substeps; ++i) {
      ball->scene.world().stepSimulation(h, 1, h);
      result.mostImpacts =
          std::max(result.mostImpacts, ball->scene.world().getLastStepDiagnostics().impacts);
      result.deepest = std::min(result.deepest, ball->gap());
      result.gained |= test::totalEnergy(ball->scene.world()) > e0 * (1 + 1e-9);
    }
    result.speed = ball->body->getLinearVelocity().length();
    return result;
  };
  const Run fine = run(64);
  const Run coarse = run(1);
  EXPECT_LT(coarse.mostImpacts, test::configWith(SolverKind::variational).solver.maxEventsPerStep);
  EXPECT_GE(coarse.deepest, -4 * test::kContactTolerance);
  EXPECT_NEAR(coarse.speed, fine.speed, 0.075 * fine.speed);
  EXPECT_FALSE(coarse.gained);
  EXPECT_FALSE(fine.gained);
}

// Two children side by side: boxes (a face each on the ground) and spheres (a dumbbell).
btCompoundShape* pairOf(btCollisionShape* left, btCollisionShape* right) {
  auto* compound = new btCompoundShape();
  compound->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-0.25, 0, 0)), left);
  compound->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0.25, 0, 0)), right);
  return compound;
}

// Paired as one shape, its gap its closest child's, a compound was held at one child's witness
// point alone: two boxes side by side rocked into the ground, 43 events a step and 2.6 cm deep
// after 600 steps, and a dumbbell 4 mm (measured). Paired child by child, each lies still. (The
// children are owned by the test: btCompoundShape does not delete them.)
TEST(CompoundContacts, ACompoundLyingOnTwoChildrenLiesStill) {
  btBoxShape box(btVector3(0.2, 0.1, 0.2));
  btSphereShape sphere(0.1);
  const std::pair<std::string, btCompoundShape*> cases[] = {{"two boxes", pairOf(&box, &box)},
                                                            {"dumbbell", pairOf(&sphere, &sphere)}};
  for (const auto& [name, compound] : cases) {
    SCOPED_TRACE(name);
    const btVector3 at(0, 0.1 + kTolerance, 0);
    OnSupport body(compound, btTransform(btQuaternion::getIdentity(), at));
    ASSERT_NO_FATAL_FAILURE(body.liesStill(600));
    body.expectAtRestAt(at);
  }
}

// The dumbbell rolls on both spheres along the ground at constant speed and energy.
TEST(CompoundContacts, ADumbbellRollsOnBothSpheres) {
  btSphereShape sphere(0.1);
  OnSupport dumbbell(pairOf(&sphere, &sphere),
                     btTransform(btQuaternion::getIdentity(), btVector3(0, 0.1, 0)));
  const double spin = 5;  // rad/s about x, the axis through both centres
  dumbbell.body->setAngularVelocity(btVector3(spin, 0, 0));
  dumbbell.body->setLinearVelocity(btVector3(0, 0, spin * 0.1));
  const double e0 = test::totalEnergy(dumbbell.scene.world());
  for (int i = 0; i < 600; ++i) {
    dumbbell.step();
    ASSERT_GE(dumbbell.gap(), -kTolerance) << "step " << i;
  }
  EXPECT_NEAR(dumbbell.body->getLinearVelocity().z(), spin * 0.1, 1e-9);
  EXPECT_NEAR(dumbbell.body->getAngularVelocity().x(), spin, 1e-9);
  EXPECT_NEAR(dumbbell.body->getCenterOfMassPosition().y(), 0.1, kTolerance);
  EXPECT_NEAR(test::totalEnergy(dumbbell.scene.world()), e0, 1e-9 * e0);
}

}  // namespace
}  // namespace carom
