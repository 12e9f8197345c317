// A user program: includes carom and Bullet through carom::carom's usage requirements alone, and
// uses both libraries: the core's LGVI step, and the adapter's config parser (toml++ inside carom)
// and variational world.
#include <btBulletDynamicsCommon.h>

#include <carom/carom.h>
#include <cstdio>

int main() {
  static_assert(sizeof(btScalar) == sizeof(double),
                "carom::carom must bring double-precision Bullet");
  const auto body = carom::core::uniformEllipsoid(1.0, {2.0, 3.0, 4.0});
  carom::core::BodyState state;
  state.Pi = {4.0, -4.0, 4.0};
  const auto next = carom::core::flow(body, state, 0.01, {});
  std::printf("consumer: one LGVI step, |R^T R - I| = %.3g\n",
              carom::core::orthogonalityError(next.state.R));

  const carom::Config config = carom::Config::parse("[solver]\nkind = \"variational\"\n");
  btDefaultCollisionConfiguration collisionConfiguration;
  btCollisionDispatcher dispatcher(&collisionConfiguration);
  btDbvtBroadphase broadphase;
  carom::DynamicsWorld world(&dispatcher, &broadphase, &collisionConfiguration, config);
  world.setGravity(btVector3(0, -9.81, 0));
  btSphereShape shape(0.1);
  btVector3 inertia;
  shape.calculateLocalInertia(1.0, inertia);
  btRigidBody ball(1.0, nullptr, &shape, inertia);
  world.addRigidBody(&ball);
  world.stepSimulation(0.01, 1, 0.01);
  const double fall = -ball.getLinearVelocity().y();
  std::printf("consumer: one variational step, falling at %.4f m/s\n", fall);
  world.removeRigidBody(&ball);
  return next.ok() && fall > 0.0980 && fall < 0.0982 ? 0 : 1;
}
