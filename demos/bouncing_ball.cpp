// An ordinary Bullet program — a ball bouncing on the ground at 60 Hz — switched to carom by the
// config flag alone: the world is a carom::DynamicsWorld, and solver.kind (here from the
// environment, CAROM_SOLVER=bullet|lcp|variational) picks stock Bullet's step or carom's.
// The ball is perfectly elastic, so every apex should be the drop height of 1 m:
//   CAROM_SOLVER=bullet build/release/demos/carom-bouncing-ball        (stock Bullet)
//   CAROM_SOLVER=variational build/release/demos/carom-bouncing-ball   (carom)
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <exception>

#include <carom/carom.h>

// The config a program would read with carom::Config::fromFile("carom.toml").
constexpr const char* kConfig = R"(
[solver]
kind = "variational"

[material.rubber]
impact = "stronge"
restitution = 1.0
friction = 0.0
)";

int main() try {
  carom::Config config = carom::Config::withEnvironment(carom::Config::parse(kConfig));

  // From here on: the Bullet program as it was, but for the world's class and setMaterial.
  btDefaultCollisionConfiguration collisionConfiguration;
  btCollisionDispatcher dispatcher(&collisionConfiguration);
  btDbvtBroadphase broadphase;
  carom::DynamicsWorld world(&dispatcher, &broadphase, &collisionConfiguration, config);
  world.setGravity(btVector3(0, 0, -9.81));

  btStaticPlaneShape groundShape(btVector3(0, 0, 1), 0);
  btRigidBody ground(0, nullptr, &groundShape);
  ground.setRestitution(1.0);  // what stock Bullet reads; carom reads the material
  world.addRigidBody(&ground);
  world.setMaterial(&ground, "rubber");

  const double radius = 0.1, mass = 1.0;
  btSphereShape ballShape(radius);
  btVector3 inertia;
  ballShape.calculateLocalInertia(mass, inertia);
  btDefaultMotionState motion(
      btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 1 + radius)));
  btRigidBody ball(mass, &motion, &ballShape, inertia);
  ball.setRestitution(1.0);
  ball.setActivationState(DISABLE_DEACTIVATION);
  world.addRigidBody(&ball);
  world.setMaterial(&ball, "rubber");

  std::printf("solver %s: apex heights of the ball's bottom (m), dropped from 1 m\n",
              carom::toString(world.getSolverKind()));
  const double h = 1.0 / 60.0;
  double previousVz = 0;
  int bounce = 0;
  for (int step = 1; step <= 60 * 60; ++step) {  // one minute at 60 Hz
    world.stepSimulation(h, 1, h);
    const double vz = ball.getLinearVelocity().z();
    if (previousVz > 0 && vz <= 0) {  // rising, now falling: the apex of this step
      const double apex = ball.getCenterOfMassPosition().z() - radius;
      if (++bounce <= 5 || bounce % 10 == 0)
        std::printf("bounce %3d at t = %6.2f s: apex %.4f\n", bounce, step * h, apex);
    }
    previousVz = vz;
  }
  world.removeRigidBody(&ball);
  world.removeRigidBody(&ground);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "carom-bouncing-ball: %s\n", e.what());
  return 1;
}
