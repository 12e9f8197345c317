// A Bullet scene for the world tests: the collision setup a user writes, a carom::DynamicsWorld or
// a stock btDiscreteDynamicsWorld over it, and the bodies it owns.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <type_traits>
#include <vector>

#include "carom/bullet/dynamics_world.h"

namespace carom::test {

template <class World>
class Scene {
 public:
  // A stock world (World = btDiscreteDynamicsWorld) gets Bullet's own solver; a carom world the
  // config.
  explicit Scene(const Config& config = Config()) : dispatcher_(&collisionConfiguration_) {
    if constexpr (std::is_same_v<World, DynamicsWorld>) {
      world_ =
          std::make_unique<World>(&dispatcher_, &broadphase_, &collisionConfiguration_, config);
    } else {
      world_ =
          std::make_unique<World>(&dispatcher_, &broadphase_, nullptr, &collisionConfiguration_);
    }
    world_->setGravity(btVector3(0, -9.81, 0));
  }
  ~Scene() {
    for (auto& joint : joints_)
      world_->removeConstraint(joint.get());
    for (auto& body : bodies_)
      world_->removeRigidBody(body.get());
  }

  World& world() { return *world_; }

  // Whole-face manifolds from the first touch, which lcp mode's velocity-level LCP needs to hold a
  // box flat (see impact_solver_test.cpp's Scene); Bullet adds one point per step otherwise.
  void useMultipointManifolds() {
    collisionConfiguration_.setConvexConvexMultipointIterations(3, 3);
    collisionConfiguration_.setPlaneConvexMultipointIterations(3, 3);
  }

  // A body of `mass` (0: static) with `shape` at `position`, never sleeping.
  btRigidBody* add(btCollisionShape* shape, double mass, const btVector3& position,
                   const btVector3& velocity = btVector3(0, 0, 0)) {
    shapes_.emplace_back(shape);
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    motionStates_.push_back(
        std::make_unique<btDefaultMotionState>(btTransform(btQuaternion::getIdentity(), position)));
    btRigidBody::btRigidBodyConstructionInfo info(mass, motionStates_.back().get(), shape, inertia);
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody* body = bodies_.back().get();
    body->setLinearVelocity(velocity);
    body->setActivationState(DISABLE_DEACTIVATION);
    world_->addRigidBody(body);
    return body;
  }
  // `joint` (owned from here on) added to the world as btDiscreteDynamicsWorld::addConstraint does.
  btTypedConstraint* addJoint(btTypedConstraint* joint, bool disableCollisionsBetweenLinkedBodies) {
    joints_.emplace_back(joint);
    world_->addConstraint(joint, disableCollisionsBetweenLinkedBodies);
    return joint;
  }
  btRigidBody* addGround() {
    return add(new btStaticPlaneShape(btVector3(0, 1, 0), 0), 0, btVector3(0, 0, 0));
  }

 private:
  btDefaultCollisionConfiguration collisionConfiguration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  std::unique_ptr<World> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btMotionState>> motionStates_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btTypedConstraint>> joints_;
};

inline Config configWith(SolverKind kind) {
  Config config;
  config.solver.kind = kind;
  return config;
}

// `kind` with one material "test" of the given law, restitution, friction and roughness (strict).
inline Config configWithMaterial(SolverKind kind, ImpactLawKind law, double restitution,
                                 double friction = 0.0, int roughness = 0) {
  Config config = configWith(kind);
  Material material;
  material.impact = law;
  material.restitution = restitution;
  material.friction = friction;
  material.roughness = roughness;
  config.setMaterial("test", material);
  return config;
}

// Kinetic (translational and rotational) plus potential energy of a body in `world`'s gravity,
// the potential zero at the origin (J); a static body has none.
inline double mechanicalEnergy(const btRigidBody& body, const btVector3& gravity) {
  if (body.getInvMass() == 0) return 0.0;
  const double m = 1.0 / body.getInvMass();
  const btVector3 w = body.getAngularVelocity();
  const btMatrix3x3 inertia = body.getInvInertiaTensorWorld().inverse();
  return 0.5 * m * body.getLinearVelocity().length2() + 0.5 * w.dot(inertia * w) -
         m * gravity.dot(body.getCenterOfMassPosition());
}

inline double totalEnergy(btDiscreteDynamicsWorld& world) {
  double energy = 0;
  for (int i = 0; i < world.getNumCollisionObjects(); ++i) {
    if (const btRigidBody* body = btRigidBody::upcast(world.getCollisionObjectArray()[i]))
      energy += mechanicalEnergy(*body, world.getGravity());
  }
  return energy;
}

}  // namespace carom::test
