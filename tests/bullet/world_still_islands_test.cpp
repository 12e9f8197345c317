// Still islands (plugin/bullet/still_islands.cpp): an island the last step left exactly as it
// found it is taken as that step again. Each test lets a scene come to exact rest, checks that its
// island is repeated (else the rest would test nothing), then changes one input the repeat must
// see and checks that the island runs and responds as the changed input demands.
#include <gtest/gtest.h>

#include <cmath>

#include "bullet/world_scene.h"

namespace carom {
namespace {

using test::Scene;

constexpr double kStep = 1.0 / 60.0;
constexpr double kGravity = 9.81;

void step(Scene<DynamicsWorld>& scene, int steps = 1) {
  for (int i = 0; i < steps; ++i)
    scene.world().stepSimulation(kStep, 1, kStep);
}

// Three boxes stacked on the ground, stepped until their island is repeated: at most 60 steps.
struct Tower {
  Scene<DynamicsWorld> scene{test::configWith(SolverKind::variational)};
  btRigidBody* ground = scene.addGround();
  btRigidBody* boxes[3];
  int steps = 0;  // taken so far

  Tower() {
    for (int i = 0; i < 3; ++i)
      boxes[i] =
          scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0, btVector3(0, 0.5 + i * 1.0, 0));
  }
  const StepDiagnostics& diagnostics() { return scene.world().getLastStepDiagnostics(); }
  // Steps until a step repeats the island; false if none did within 60 steps.
  bool settle() {
    for (int i = 0; i < 60; ++i) {
      step(scene);
      ++steps;
      if (diagnostics().stillIslands == 1) return true;
    }
    return false;
  }
};

TEST(StillIslands, ATowerAtRestIsRepeatedWithTheFullStepsCounts) {
  Tower tower;
  const btTransform top = tower.boxes[2]->getWorldTransform();
  step(tower.scene);  // a full step first, whatever the tower's state
  ASSERT_TRUE(tower.settle());
  const int held = tower.diagnostics().persistentContacts;
  EXPECT_GT(held, 0);
  EXPECT_EQ(tower.diagnostics().restingIslands, 1);
  step(tower.scene, 30);
  EXPECT_EQ(tower.diagnostics().stillIslands, 1);
  EXPECT_EQ(tower.diagnostics().persistentContacts, held);
  // Still: the top box where it settled, to round-off of its first steps, and at rest to the
  // holds' tolerance.
  EXPECT_NEAR(tower.boxes[2]->getWorldTransform().getOrigin().y(), top.getOrigin().y(), 1e-6);
  EXPECT_LE(tower.boxes[2]->getLinearVelocity().length(), 1e-12);
  // What a game draws: the motion state, synchronised from the interpolation transform (Bullet's
  // latency interpolation moves it back a step at the body's round-off velocity), which the step
  // set to the free-fall trial pose, 1.4 mm down, for its swept AABBs.
  btTransform drawn;
  tower.boxes[2]->getMotionState()->getWorldTransform(drawn);
  EXPECT_LE((drawn.getOrigin() - tower.boxes[2]->getWorldTransform().getOrigin()).length(), 1e-12);
}

TEST(StillIslands, AForceOnOneBodyRunsTheIsland) {
  Tower tower;
  ASSERT_TRUE(tower.settle());
  btRigidBody& top = *tower.boxes[2];
  top.applyCentralForce(btVector3(0, 20.0, 0));  // lifts the 1 kg top box: 20 N up against 9.81
  step(tower.scene);
  EXPECT_EQ(tower.diagnostics().stillIslands, 0);
  // Free of the box below, it rises at (F/m − g) h after one step.
  EXPECT_NEAR(top.getLinearVelocity().y(), (20.0 - kGravity) * kStep, 1e-9);
}

TEST(StillIslands, GravityChangedRunsTheIsland) {
  Tower tower;
  ASSERT_TRUE(tower.settle());
  tower.scene.world().setGravity(btVector3(0, kGravity, 0));  // upwards: the tower flies apart
  for (btRigidBody* box : tower.boxes)  // Bullet reads a body's gravity when it is added
    box->setGravity(btVector3(0, kGravity, 0));
  step(tower.scene);
  EXPECT_EQ(tower.diagnostics().stillIslands, 0);
  for (btRigidBody* box : tower.boxes)
    EXPECT_NEAR(box->getLinearVelocity().y(), kGravity * kStep, 1e-9);
}

TEST(StillIslands, AStaticPartnerMovedRunsTheIsland) {
  Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  btRigidBody* platform =
      scene.add(new btBoxShape(btVector3(2, 0.5, 2)), 0.0, btVector3(0, -0.5, 0));
  btRigidBody* box = scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0, btVector3(0, 0.5, 0));
  bool repeated = false;
  for (int i = 0; i < 60 && !repeated; ++i) {
    step(scene);
    repeated = scene.world().getLastStepDiagnostics().stillIslands == 1;
  }
  ASSERT_TRUE(repeated);
  // The platform drops 10 cm, as a user moves a static object: the box falls freely for a step.
  btTransform lowered = platform->getWorldTransform();
  lowered.getOrigin() -= btVector3(0, 0.1, 0);
  platform->setWorldTransform(lowered);
  scene.world().updateSingleAabb(platform);
  step(scene);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().stillIslands, 0);
  EXPECT_NEAR(box->getLinearVelocity().y(), -kGravity * kStep, 1e-9);
}

TEST(StillIslands, FrictionLoweredOnASlopeStartsTheSlide) {
  // A box on a static slope of 20° with μ = 1 sticks (tan 20° = 0.36); at μ = 0.1 it slides at
  // a = g (sin θ − μ cos θ).
  Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  const double theta = 20.0 * M_PI / 180.0;
  const btQuaternion tilt(btVector3(0, 0, 1), theta);
  btRigidBody* slope = scene.add(new btBoxShape(btVector3(5, 0.5, 5)), 0.0, btVector3(0, 0, 0));
  slope->setWorldTransform(btTransform(tilt, btVector3(0, 0, 0)));
  const btVector3 up = btMatrix3x3(tilt) * btVector3(0, 1, 0);
  btRigidBody* box = scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0, up * 1.0);
  box->setWorldTransform(btTransform(tilt, up * 1.0));
  scene.world().updateSingleAabb(slope);
  scene.world().updateSingleAabb(box);
  slope->setFriction(1.0);
  box->setFriction(1.0);
  bool repeated = false;
  for (int i = 0; i < 120 && !repeated; ++i) {
    step(scene);
    repeated = scene.world().getLastStepDiagnostics().stillIslands == 1;
  }
  ASSERT_TRUE(repeated);
  const btVector3 rest = box->getWorldTransform().getOrigin();
  box->setFriction(0.1);
  slope->setFriction(0.1);  // Bullet's combiner multiplies the two: μ = 0.01
  step(scene, 10);
  EXPECT_EQ(scene.world().getLastStepDiagnostics().stillIslands, 0);
  const btVector3 down = btMatrix3x3(tilt) * btVector3(-1, 0, 0);
  const double mu = 0.1 * 0.1;
  const double accelerating = kGravity * (std::sin(theta) - mu * std::cos(theta));
  EXPECT_NEAR(box->getLinearVelocity().dot(down), accelerating * 10 * kStep,
              0.02 * accelerating * 10 * kStep);
  EXPECT_GT((box->getWorldTransform().getOrigin() - rest).dot(down), 0.0);
}

TEST(StillIslands, ABallDroppedOnAStillTowerStrikesIt) {
  Tower tower;
  ASSERT_TRUE(tower.settle());
  tower.scene.world().clearImpactEvents();
  // 1 m above the top box (its top at 3 m): it lands √(2 · 1 m / g) = 0.45 s later, 27 steps.
  const double dropped = tower.steps * kStep;
  btRigidBody* ball = tower.scene.add(new btSphereShape(0.2), 0.5, btVector3(0, 4.2, 0));
  step(tower.scene, 35);
  ASSERT_FALSE(tower.scene.world().getImpactEvents().empty());
  const ImpactEvent& first = tower.scene.world().getImpactEvents().front();
  EXPECT_TRUE((first.bodyA == ball && first.bodyB == tower.boxes[2]) ||
              (first.bodyA == tower.boxes[2] && first.bodyB == ball));
  EXPECT_NEAR(first.time - dropped, std::sqrt(2 * 1.0 / kGravity), 1e-4);
}

// A ball at rest 0.34 m beside the still tower, struck towards it within a step by a ball a
// hundred times heavier (plastic: both go on at 24.75 m/s): its new path reaches the middle box
// 15.7 ms into the step, though no broadphase pair of the step's start does (the striker's free
// flight ends 0.17 m short of the tower), so the balls' run joins the tower's island, whose repeat
// as still is discarded and run again with theirs. The step counts no still island (it counted
// one when discardRun did not take its still islands back).
TEST(StillIslands, AStillIslandJoinedWithinTheStepIsNotCountedStill) {
  Tower tower;
  ASSERT_TRUE(tower.settle());
  tower.scene.world().clearImpactEvents();
  constexpr double kRadius = 0.1, kSpeed = 25.0, kHeavy = 100.0;
  const double x = 0.5 + kRadius + 0.34;
  btRigidBody* struck = tower.scene.add(new btSphereShape(kRadius), 1.0, btVector3(x, 1.5, 0));
  tower.scene.add(new btSphereShape(kRadius), kHeavy, btVector3(x + 2 * kRadius + 0.05, 1.5, 0),
                  btVector3(-kSpeed, 0, 0));
  step(tower.scene);
  const StepDiagnostics& diagnostics = tower.diagnostics();
  EXPECT_EQ(diagnostics.islandsJoined, 1);
  EXPECT_EQ(diagnostics.stillIslands, 0);
  EXPECT_EQ(diagnostics.restingIslands, 0);
  bool met = false;  // the struck ball and the middle box
  for (const ImpactEvent& event : tower.scene.world().getImpactEvents()) {
    met = met || (event.bodyA == struck && event.bodyB == tower.boxes[1]) ||
          (event.bodyA == tower.boxes[1] && event.bodyB == struck);
  }
  EXPECT_TRUE(met);
}

}  // namespace
}  // namespace carom
