#include "scene_world.h"

#include <cmath>

#include "carom/error.h"
#include "scene_contacts.h"

namespace carom::cli {

SceneWorld::SceneWorld(const Scene& scene, const Config& config)
    : world_(std::make_unique<DynamicsWorld>(&dispatcher_, &broadphase_, &collisionConfiguration_,
                                             config)) {
  world_->setGravity(scene.world.gravity);
  for (const SceneBody& spec : scene.bodies) {
    shapes_.push_back(makeShape(spec.shape));
    motionStates_.push_back(std::make_unique<btDefaultMotionState>(bodyTransform(spec)));
    btRigidBody::btRigidBodyConstructionInfo info(spec.mass, motionStates_.back().get(),
                                                  shapes_.back().get(), spec.inertia);
    // Stock Bullet (solver.kind = "bullet") multiplies the two bodies' restitutions and frictions;
    // each body holds the square root, so that a pair of one material sees its e and μ (not e²,
    // μ²) and two materials the geometric mean √(μ_A μ_B) (carom's friction rule; its restitution
    // takes the larger, and a [pair] table is seen by carom's modes only). carom reads the
    // material.
    const Material& material = config.material(spec.material);
    info.m_restitution = std::sqrt(material.restitution);
    info.m_friction = std::sqrt(material.friction);
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody* body = bodies_.back().get();
    body->setLinearVelocity(spec.velocity);
    body->setAngularVelocity(spec.angularVelocity);
    // A simulation run reports every body's motion to the end: a body put to sleep would freeze
    // with a small velocity and make the energy and momentum columns jump.
    body->setActivationState(DISABLE_DEACTIVATION);
    world_->addRigidBody(body);
    world_->setMaterial(body, spec.material);
    names_[body] = spec.name;
    if (!spec.isStatic()) dynamic_.push_back({&spec, body});
  }
}

SceneWorld::~SceneWorld() {
  for (auto& body : bodies_)
    world_->removeRigidBody(body.get());
}

const std::string& SceneWorld::nameOf(const btCollisionObject* object) const {
  const auto found = names_.find(object);
  if (found == names_.end()) throw Error("an impact event names a body that is not in the scene");
  return found->second;
}

}  // namespace carom::cli
