// A stock btDiscreteDynamicsWorld over a static plane y = 0, with carom::ImpactSolver or Bullet's
// own solver, for the lcp-mode tests.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

namespace carom::test {

inline constexpr double kGravity = 9.81;  // m/s²

// A world with a static plane y = 0, owning what it creates. `solver` null: stock Bullet.
// Multipoint manifolds: a velocity-level contact LCP needs a box's whole face in the manifold from
// the first touch; Bullet's default adds one point per step, and a box held at one or two corners
// tips (stock Bullet hides this with Baumgarte stabilization). Both solvers get the same setting.
class SolverScene {
 public:
  explicit SolverScene(btConstraintSolver* solver)
      : dispatcher_(&configuration_),
        stock_(),
        world_(&dispatcher_, &broadphase_, solver ? solver : &stock_, &configuration_) {
    // The setters edit the create functions the dispatcher already holds.
    configuration_.setConvexConvexMultipointIterations(3, 3);
    configuration_.setPlaneConvexMultipointIterations(3, 3);
    world_.setGravity(btVector3(0, -kGravity, 0));
    ground_ =
        add(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0), 0, btVector3(0, 0, 0));
  }
  ~SolverScene() {
    for (auto& body : bodies_)
      world_.removeRigidBody(body.get());
  }

  btRigidBody* add(std::unique_ptr<btCollisionShape> shape, double mass, const btVector3& at) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
    info.m_startWorldTransform.setOrigin(at);
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    shapes_.push_back(std::move(shape));
    btRigidBody* body = bodies_.back().get();
    body->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(body);
    return body;
  }
  btRigidBody* sphere(double radius, const btVector3& at) {
    return add(std::make_unique<btSphereShape>(radius), 1.0, at);
  }
  btRigidBody* box(const btVector3& half, const btVector3& at) {
    return add(std::make_unique<btBoxShape>(half), 1.0, at);
  }
  void step(double h) { world_.stepSimulation(h, 1, h); }

  btDiscreteDynamicsWorld& world() { return world_; }
  btRigidBody* ground() { return ground_; }

 private:
  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver stock_;
  btDiscreteDynamicsWorld world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  btRigidBody* ground_ = nullptr;
};

}  // namespace carom::test
