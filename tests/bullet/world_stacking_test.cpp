// A tower of five unit boxes on the ground stands for 1000 steps at 60 Hz: exactly (to 1e-6 m) in
// variational mode, within a centimetre in lcp mode, where Bullet integrates. A box turned about
// the vertical on another stands too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bullet/world_scene.h"

namespace carom {
namespace {

// The largest distance any box of the tower moved from where it started (m).
double towerDrift(SolverKind kind) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(kind, ImpactLawKind::kStronge, 0.0, 0.5));
  if (kind == SolverKind::lcp) scene.useMultipointManifolds();
  scene.world().setMaterial(scene.addGround(), "test");
  std::vector<btRigidBody*> boxes;
  for (int i = 0; i < 5; ++i) {
    boxes.push_back(
        scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0, btVector3(0, 0.5 + i, 0)));
    scene.world().setMaterial(boxes.back(), "test");
  }
  double drift = 0;
  for (int step = 0; step < 1000; ++step) {
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    for (int i = 0; i < 5; ++i) {
      drift = std::max(drift,
                       (boxes[i]->getCenterOfMassPosition() - btVector3(0, 0.5 + i, 0)).length());
    }
  }
  std::printf("[ measured ] %s tower of 5 boxes, 1000 steps: max drift %.3e m\n", toString(kind),
              drift);
  return drift;
}

TEST(DynamicsWorldStacking, TowerOfFiveBoxesStandsInVariationalMode) {
  EXPECT_LT(towerDrift(SolverKind::variational), 1e-6);
}

TEST(DynamicsWorldStacking, TowerOfFiveBoxesStandsInLcpMode) {
  // Looser than ImpactSolver's three-box allowance of 1e-3 m (impact_solver_test:
  // StackOfThreeBoxesStands): five boxes sink 1e-4 m per level and the manifold refreshes that
  // creep them sideways reach 5.2e-3 m at the top at worst (measured; 1.6e-3 m after 1000 steps).
  // Standing, not exact: no box moves by 1 % of its size.
  EXPECT_LT(towerDrift(SolverKind::lcp), 1e-2);
}

// A box turned by 45° about the vertical on an equal box: every corner of each lies beyond the
// other's face, and the two touch where their edges cross (face_crossings.h). Held at the gap's
// witness point alone the top box balanced there and rocked, gaining energy (measured before: a
// stack beside a ball in world_energy_test.cpp, up to 2.4e-3 J a step).
TEST(DynamicsWorldStacking, BoxTurnedOnABoxStandsInVariationalMode) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.3, 0.5));
  scene.world().setMaterial(scene.addGround(), "test");
  btRigidBody* bottom =
      scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(0, 0.1, 0));
  btRigidBody* top =
      scene.add(new btBoxShape(btVector3(0.1, 0.1, 0.1)), 1.0, btVector3(0.01, 0.3, -0.005));
  top->setCenterOfMassTransform(
      btTransform(btQuaternion(btVector3(0, 1, 0), M_PI / 4), btVector3(0.01, 0.3, -0.005)));
  for (btRigidBody* box : {bottom, top})
    scene.world().setMaterial(box, "test");
  const btTransform start = top->getCenterOfMassTransform();
  double previous = test::totalEnergy(scene.world()), gain = 0, drift = 0, turn = 0;
  for (int step = 0; step < 600; ++step) {
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    const double energy = test::totalEnergy(scene.world());
    gain = std::max(gain, energy - previous);
    previous = energy;
    const btTransform now = top->getCenterOfMassTransform();
    drift = std::max(drift, (now.getOrigin() - start.getOrigin()).length());
    turn = std::max(turn, now.getRotation().angleShortestPath(start.getRotation()));
  }
  std::printf(
      "[ measured ] box turned 45° on a box, 600 steps: drift %.3e m, turn %.3e rad, largest "
      "one-step energy gain %.3e J\n",
      drift, turn, gain);
  EXPECT_LT(drift, 1e-6);
  EXPECT_LT(turn, 1e-6);
  EXPECT_LT(gain, 1e-10);
}

// A box dropped slightly tilted onto an equal box at rest on the ground (their sides in line, the
// hardest case: the top box's raised edge ends over the bottom one's edge), or onto a larger one:
// it lands on its low edge, tips down flat and rests there, on its face, neither tilted nor
// propped up. Before, its raised corners were held as touching where they stood apart, by a
// corner's gap taken as the rounded box's less a uniform allowance and a face crossing's as the
// pair's gap (in these drops it rested tilted by up to 7.2 mrad, 1.3 mm up at its centre); a box
// landed on a box could hover 0.11 mm above it, held short of touching at each landing in the
// step and put back each step by the energy guard; and an equal box, where the outlines cross at
// the vertices, landed again 5 times every step (measured).
struct TiltedDrop {
  double tilt;      // rad, about the horizontal axis across the boxes' sides in line
  double drop;      // m, from resting flat
  double topDepth;  // m, the top box's half extent along that axis (the bottom's is 0.2)
  // Bullet's own restitution 0.3 and friction 0.5 on every body (the config's default law), not
  // the test material (Stronge's, the same coefficients).
  bool bulletMaterials = false;
};

class DynamicsWorldTiltedDrop : public ::testing::TestWithParam<TiltedDrop> {};

TEST_P(DynamicsWorldTiltedDrop, ComesToRestFlatOnTheBoxBelow) {
  const TiltedDrop drop = GetParam();
  test::Scene<DynamicsWorld> scene(
      drop.bulletMaterials
          ? test::configWith(SolverKind::variational)
          : test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.3, 0.5));
  btRigidBody* ground = scene.addGround();
  btRigidBody* bottom =
      scene.add(new btBoxShape(btVector3(0.2, 0.2, 0.2)), 1.0, btVector3(0, 0.2, 0));
  const btVector3 start(0, 0.6 + drop.drop, 0);
  btRigidBody* top = scene.add(new btBoxShape(btVector3(0.2, 0.2, drop.topDepth)), 1.0, start);
  top->setCenterOfMassTransform(btTransform(btQuaternion(btVector3(0, 0, 1), drop.tilt), start));
  for (btRigidBody* body : {ground, bottom, top}) {
    if (drop.bulletMaterials) {
      body->setRestitution(0.3);
      body->setFriction(0.5);
    } else {
      scene.world().setMaterial(body, "test");
    }
  }
  double previous = test::totalEnergy(scene.world()), gain = 0;
  int lateEvents = 0;  // in the last second
  for (int step = 0; step < 300; ++step) {
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    if (step >= 240) lateEvents += scene.world().getLastStepDiagnostics().impacts;
    const double energy = test::totalEnergy(scene.world());
    gain = std::max(gain, energy - previous);
    previous = energy;
  }
  const btVector3 up = top->getCenterOfMassTransform().getBasis().getColumn(1);
  const double tilt = std::acos(std::min<btScalar>(1, up.y()));
  const double height = top->getCenterOfMassPosition().y() - bottom->getCenterOfMassPosition().y();
  std::printf(
      "[ measured ] tilt %.0e rad, drop %.2f m%s: rests tilted %.2e rad, %.2e m from flat, %d "
      "events in its last second\n",
      drop.tilt, drop.drop, drop.bulletMaterials ? " (Bullet's materials)" : "", tilt, height - 0.4,
      lateEvents);
  EXPECT_LT(tilt, 1e-4);
  EXPECT_NEAR(height, 0.4, 2e-5);
  EXPECT_LT(top->getLinearVelocity().length() + top->getAngularVelocity().length(), 1e-6);
  EXPECT_LT(gain, 1e-9);
  EXPECT_EQ(lateEvents, 0);  // at rest, nothing lands again
}

INSTANTIATE_TEST_SUITE_P(Drops, DynamicsWorldTiltedDrop,
                         ::testing::Values(TiltedDrop{6e-4, 0.1, 0.2}, TiltedDrop{2e-3, 0.02, 0.2},
                                           TiltedDrop{1e-2, 0.1, 0.2}, TiltedDrop{1e-2, 0.3, 0.2},
                                           TiltedDrop{6e-4, 0.02, 0.15},
                                           TiltedDrop{6e-4, 0.02, 0.2, true},
                                           TiltedDrop{1e-2, 0.1, 0.2, true}));

// A box spinning down onto a box's top face, turned and tilted (a spin found by a search over
// random spins, tilts and offsets). Where a pair's contacts within the holding reach include a
// corner closing too fast to be held (an impact to come), the gap's witness point between them
// was left out of the hold as if that corner held it: the deepest point sank on and the pair
// landed again and again, 23 events in this box's tenth step and 28 in 30 steps (measured). Held
// there: 7 and 12.
TEST(DynamicsWorldStacking, APairIsHeldAtItsDeepestPointBesideACornerTooFastToHold) {
  test::Scene<DynamicsWorld> scene(test::configWith(SolverKind::variational));
  scene.addGround();
  scene.add(new btBoxShape(btVector3(0.3, 0.2, 0.3)), 0, btVector3(0, 0.2, 0));
  const btVector3 half(0.25, 0.1, 0.15);
  const btQuaternion turn =
      btQuaternion(btVector3(0, 1, 0), 0.973) * btQuaternion(btVector3(1, 0, 0), 0.161);
  btTransform pose(turn, btVector3(-0.182, 1, 0));
  double lowest = 1e9;  // the top box's lowest corner, set on the lower box's face (y = 0.4)
  for (int i = 0; i < 8; ++i) {
    const btVector3 corner((i & 1 ? 1 : -1) * half.x(), (i & 2 ? 1 : -1) * half.y(),
                           (i & 4 ? 1 : -1) * half.z());
    lowest = std::min(lowest, static_cast<double>((pose * corner).y()));
  }
  pose.setOrigin(btVector3(-0.182, 1 - (lowest - 0.4) - 1e-7, 0));
  btRigidBody* box = scene.add(new btBoxShape(half), 1.0, pose.getOrigin());
  box->setCenterOfMassTransform(pose);
  box->setAngularVelocity(quatRotate(turn, btVector3(7.31, 0, 0)));
  int most = 0, total = 0;
  for (int step = 0; step < 30; ++step) {
    scene.world().stepSimulation(1.0 / 60.0, 1, 1.0 / 60.0);
    most = std::max(most, scene.world().getLastStepDiagnostics().impacts);
    total += scene.world().getLastStepDiagnostics().impacts;
  }
  std::printf("[ measured ] box spun down onto a box: %d events in 30 steps, at most %d in one\n",
              total, most);
  EXPECT_LE(most, 10);
}

// A 1 g box on the ground under a box of `heavyMass` (kg) dropped onto it from 0.2 m (issue 31).
struct LightUnderHeavy {
  explicit LightUnderHeavy(double heavyMass)
      : scene(
            test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.3, 0.6)) {
    ground = scene.addGround();
    light = scene.add(new btBoxShape(btVector3(0.05, 0.05, 0.05)), 0.001, btVector3(0, 0.05, 0));
    heavy = scene.add(new btBoxShape(btVector3(0.2, 0.2, 0.2)), heavyMass, btVector3(0, 0.5, 0));
    for (btRigidBody* body : {ground, light, heavy})
      scene.world().setMaterial(body, "test");
  }
  test::Scene<DynamicsWorld> scene;
  btRigidBody* ground;
  btRigidBody* light;
  btRigidBody* heavy;
};

constexpr double kLightUnderHeavyStep = 0.01;

// Gauss–Seidel alone converges at 1 − 1e-6 per sweep here and let the light box pass through the
// ground; the direct subspace steps of the holds (persistent_contact.h) hold it as they hold two
// equal boxes: 30 µm deep at the landing (the same with a 1 g box on top), at rest after.
TEST(DynamicsWorldStacking, ALightBoxUnderOneAMillionTimesHeavierIsHeld) {
  LightUnderHeavy boxes(1000.0);
  double deepest = 0.0;
  for (int step = 0; step < 100; ++step) {
    boxes.scene.world().stepSimulation(kLightUnderHeavyStep, 1, kLightUnderHeavyStep);
    deepest = std::max({deepest, 0.05 - boxes.light->getCenterOfMassPosition().y(),
                        0.25 - (boxes.heavy->getCenterOfMassPosition().y() -
                                boxes.light->getCenterOfMassPosition().y())});
  }
  std::printf("[ measured ] deepest overlap %.2e m\n", deepest);
  EXPECT_LE(deepest, 1e-4);
  EXPECT_LE(boxes.light->getLinearVelocity().length(), 1e-9);
  EXPECT_LE(boxes.heavy->getLinearVelocity().length(), 1e-9);
}

// Beyond a mass ratio of about 1e11 the holds lose their precision and leave the heavy box
// closing; the step that leaves their contacts closing faster than the resting speed throws
// carom::PairError naming the pair, and leaves the world as it was.
TEST(DynamicsWorldStacking, ContactsAMassRatioOf1e12CannotHoldAreRefused) {
  LightUnderHeavy boxes(1e9);
  for (int step = 0; step < 100; ++step) {
    const btVector3 lightAt = boxes.light->getCenterOfMassPosition();
    const btVector3 heavyVelocity = boxes.heavy->getLinearVelocity();
    try {
      boxes.scene.world().stepSimulation(kLightUnderHeavyStep, 1, kLightUnderHeavyStep);
    } catch (const PairError& error) {
      std::printf("[ measured ] refused at step %d: %s\n", step, error.what());
      EXPECT_TRUE((error.first() == boxes.ground && error.second() == boxes.light) ||
                  (error.first() == boxes.light && error.second() == boxes.heavy));
      EXPECT_NE(std::string(error.what()).find("cannot be held"), std::string::npos);
      EXPECT_EQ(boxes.light->getCenterOfMassPosition(), lightAt);
      EXPECT_EQ(boxes.heavy->getLinearVelocity(), heavyVelocity);
      return;
    }
    // Until then, no box is inside the ground or the other by more than a millimetre.
    ASSERT_GT(boxes.light->getCenterOfMassPosition().y(), 0.05 - 1e-3) << "step " << step;
    ASSERT_GT(
        boxes.heavy->getCenterOfMassPosition().y() - boxes.light->getCenterOfMassPosition().y(),
        0.25 - 1e-3)
        << "step " << step;
  }
  ADD_FAILURE() << "the light box was held under the heavy one for 100 steps";
}

}  // namespace
}  // namespace carom
