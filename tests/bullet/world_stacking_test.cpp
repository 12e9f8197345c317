// A tower of five unit boxes on the ground stands for 1000 steps at 60 Hz: exactly (to 1e-6 m) in
// variational mode, within a centimetre in lcp mode, where Bullet integrates. A box turned about
// the vertical on another stands too.
#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace carom
