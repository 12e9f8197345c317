// carom::DynamicsWorld in variational mode: with any restitution below 1 or any friction, the
// total mechanical energy of a scene never increases, step after step.
#include <gtest/gtest.h>

#include <random>

#include "bullet/world_scene.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;

// Balls and cubes (isotropic inertia: free flight keeps their energy exactly) with two random
// dissipative materials (e < 0.9, and μ ≥ 0.1 where `frictional`) of `law`, thrown onto the
// ground and at each other. Returns the largest one-step increase of the total energy (J).
double worstEnergyIncrease(unsigned seed, ImpactLawKind law, bool frictional) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Config config = test::configWith(SolverKind::variational);
  for (const char* name : {"a", "b"}) {
    Material material;
    material.name = name;
    material.impact = law;
    material.restitution = 0.9 * unit(random);
    material.friction = frictional ? 0.1 + 0.7 * unit(random) : 0.0;
    config.setMaterial(name, material);
  }
  test::Scene<DynamicsWorld> scene(config);
  scene.world().setMaterial(scene.addGround(), "a");
  for (int i = 0; i < 6; ++i) {
    const btVector3 at(0.5 * (i % 3) + 0.1 * unit(random), 0.4 + 0.4 * (i / 3) + 0.2 * unit(random),
                       0.1 * unit(random));
    const btVector3 velocity(2 * unit(random) - 1, 2 * unit(random) - 1, 2 * unit(random) - 1);
    btCollisionShape* shape =
        i % 2 ? static_cast<btCollisionShape*>(new btBoxShape(btVector3(0.1, 0.1, 0.1)))
              : new btSphereShape(0.1);
    btRigidBody* body = scene.add(shape, 0.5 + unit(random), at, velocity);
    body->setAngularVelocity(btVector3(unit(random), unit(random), unit(random)) * 4);
    scene.world().setMaterial(body, i % 2 ? "a" : "b");
  }
  double previous = test::totalEnergy(scene.world()), worst = -1e300;
  for (int i = 0; i < 240; ++i) {
    scene.world().stepSimulation(kH, 1, kH);
    const double energy = test::totalEnergy(scene.world());
    worst = std::max(worst, energy - previous);
    previous = energy;
  }
  EXPECT_FALSE(scene.world().getImpactEvents().empty());
  for (const ImpactEvent& event : scene.world().getImpactEvents())
    EXPECT_LE(event.energyChange, 1e-12);
  return worst;
}

// Runs the scenes of seeds firstSeed to lastSeed.
void expectNoEnergyGain(ImpactLawKind law, bool frictional, unsigned firstSeed, unsigned lastSeed) {
  for (unsigned seed = firstSeed; seed <= lastSeed; ++seed) {
    const double increase = worstEnergyIncrease(seed, law, frictional);
    EXPECT_LT(increase, 1e-10) << "seed " << seed;
    std::printf("[ measured ] seed %u %s%s: largest one-step energy increase %.3e J\n", seed,
                core::impact::toString(law), frictional ? " with friction" : "", increase);
  }
}

// Cubes in these scenes used to chatter on their corners: struck on one corner while another
// approached (the pair's gap hid the second), or rocking at rest from corner to corner (corners a
// few micrometres off the ground left free), until solver.maxEventsPerStep ended the step and they
// sank 1 cm and gained up to 1.5e-2 J per step; or, having left a step moving up, carried up
// through the next by a half impulse as if supported (5e-4 J); or a cube propped up on a corner
// held short of the ground, which lifted it as it rocked (up to 8.7e-4 J; now a speculative
// contact), or turned on another cube and held at one point, on which it balanced and rocked
// (2.4e-3 J; face_crossings.h); or lying tilted across another cube's edge, held at that edge's
// end alone while it sank at the edges' crossing (4 mm, then lifted back: 1.2e-2 J; the witness
// point in contactsNow); or held again inside a step after its first hold's half impulse had
// kicked it up (settleEarlierHolds).
TEST(DynamicsWorldEnergy, NeverIncreasesWithStrongeRestitutionAndFriction) {
  expectNoEnergyGain(ImpactLawKind::kStronge, true, 1, 200);
}

// Scenes of seeds beyond 200 that gained energy, up to 2.5e-3 J in a step, while a landing's
// contact judged resting at the impact was judged too fast once the earlier holds were settled,
// neither struck nor held and found again at the same instant until the Zeno guard held everything
// (673, 950, 1480, 1630, 1788, 2997); or a held pair's gap, noisier than the contact tolerance in a
// deep overlap, closed again at the instant it was held (319). Measured before the fixes
// (world_persistent.cpp, runIsland).
TEST(DynamicsWorldEnergy, NeverIncreasesWhereALandingWasFoundAgainAtItsInstant) {
  for (unsigned seed : {319u, 673u, 950u, 1480u, 1630u, 1788u, 2997u})
    expectNoEnergyGain(ImpactLawKind::kStronge, true, seed, seed);
}

// Newton's restitution with friction can gain energy (Kane & Levinson; classical.h, reproduced
// in classical_test.cpp), so only its frictionless form is held to this. It holds for all 200
// seeds (measured).
TEST(DynamicsWorldEnergy, NeverIncreasesWithFrictionlessNewtonRestitution) {
  expectNoEnergyGain(ImpactLawKind::kNewton, false, 1, 60);
}

// Scenes of seeds 1–3000 that gained 1e-5 to 6.0e-4 J in a step before the energy guard took a
// gain beyond the island's kinetic energy out of its motion over the step (world_energy_guard.cpp):
// a cube tilted over the ground on corners held short of it, kicked up by the first half of their
// impulse and stopped at the end of the step at rest, 0.1 mm higher (862), or settling onto its
// face and ending the step 11 µm above the ground (35). All 3000 hold now (measured).
TEST(DynamicsWorldEnergy, NeverIncreasesWhereAnIslandEndsTheStepAtRestHigherUp) {
  for (unsigned seed : {35u, 344u, 354u, 632u, 861u, 862u, 1482u, 2030u, 2221u, 2257u, 2702u})
    expectNoEnergyGain(ImpactLawKind::kStronge, true, seed, seed);
}

// A ball rolling without slip on the ground keeps its speed and energy. Its contact point moves
// over the ball: held at a lever turned with the ball, the normal impulse would act ahead of it
// and spin it up (measured before the fix: 1e-3 J gained per step).
TEST(DynamicsWorldEnergy, RollingBallKeepsItsEnergy) {
  test::Scene<DynamicsWorld> scene(
      test::configWithMaterial(SolverKind::variational, ImpactLawKind::kStronge, 0.0, 0.5));
  scene.world().setMaterial(scene.addGround(), "test");
  btRigidBody* ball =
      scene.add(new btSphereShape(0.1), 1.0, btVector3(0, 0.1, 0), btVector3(1, 0, 0));
  ball->setAngularVelocity(btVector3(0, 0.5, -10));  // v + ω × (−R ŷ) = 0, and a spin about ŷ
  scene.world().setMaterial(ball, "test");
  const double e0 = test::totalEnergy(scene.world());
  double worst = 0;
  for (int i = 0; i < 300; ++i) {
    scene.world().stepSimulation(kH, 1, kH);
    worst = std::max(worst, std::abs(test::totalEnergy(scene.world()) - e0) / e0);
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_NEAR(ball->getLinearVelocity().length(), 1.0, 1e-9);
  std::printf(
      "[ measured ] rolling ball, 300 steps: max relative energy change %.3e, speed %.12f\n", worst,
      ball->getLinearVelocity().length());
}

}  // namespace
}  // namespace carom
