// Newton's cradle, gapped, with carom's impact events: five steel balls 1 mm apart on a line, the
// first moving at 1 m/s. The impact callback prints each impact as it happens — its instant
// inside the step, the bodies, the law, the impulse and the normal velocity before and after —
// and the program prints where the momentum ended up.
//   build/release/demos/carom-cradle-events            (variational: impacts at their instant)
//   CAROM_SOLVER=lcp build/release/demos/carom-cradle-events
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <vector>

#include <carom/carom.h>

int main() try {
  carom::Config config = carom::Config::withEnvironment(carom::Config::parse(R"(
[material.steel]
impact = "stronge"
restitution = 1.0
friction = 0.0
)"));
  btDefaultCollisionConfiguration collisionConfiguration;
  btCollisionDispatcher dispatcher(&collisionConfiguration);
  btDbvtBroadphase broadphase;
  carom::DynamicsWorld world(&dispatcher, &broadphase, &collisionConfiguration, config);
  world.setGravity(btVector3(0, 0, 0));  // the strings are not modelled

  const double radius = 0.025, mass = 0.1, gap = 0.001;
  btSphereShape shape(radius);
  btVector3 inertia;
  shape.calculateLocalInertia(mass, inertia);
  std::vector<std::unique_ptr<btRigidBody>> balls;
  std::map<const btCollisionObject*, int> number;
  for (int i = 0; i < 5; ++i) {
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
    info.m_startWorldTransform.setOrigin(btVector3(i * (2 * radius + gap), 0, 0));
    info.m_restitution = 1.0;
    balls.push_back(std::make_unique<btRigidBody>(info));
    balls.back()->setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(balls.back().get());
    world.setMaterial(balls.back().get(), "steel");
    number[balls.back().get()] = i + 1;
  }
  balls[0]->setLinearVelocity(btVector3(1, 0, 0));

  std::printf("solver %s\n", carom::toString(world.getSolverKind()));
  world.setImpactCallback([&](const carom::ImpactEvent& e) {
    std::printf("t = %.6f s  ball %d -> ball %d  %s  impulse %.4f N s  vn %+.4f -> %+.4f m/s\n",
                e.time, number[e.bodyA], number[e.bodyB], e.law.c_str(), e.impulse.length(),
                e.normalVelocityBefore, e.normalVelocityAfter);
  });
  for (int step = 0; step < 50; ++step)  // 0.5 s at 100 Hz: the last ball has long left
    world.stepSimulation(0.01, 1, 0.01);

  for (const auto& ball : balls)
    std::printf("ball %d: vx = %+.6f m/s\n", number[ball.get()], ball->getLinearVelocity().x());
  for (const auto& ball : balls)
    world.removeRigidBody(ball.get());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "carom-cradle-events: %s\n", e.what());
  return 1;
}
