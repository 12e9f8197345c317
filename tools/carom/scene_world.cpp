#include "scene_world.h"

#include <BulletDynamics/ConstraintSolver/btFixedConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>

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
  for (const SceneJoint& spec : scene.joints) {
    joints_.push_back(makeJoint(spec));
    world_->addConstraint(joints_.back().get(), spec.disableCollisions);
  }
}

btRigidBody& SceneWorld::bodyNamed(const std::string& name) const {
  for (const auto& [object, objectName] : names_) {
    if (objectName == name) return *btRigidBody::upcast(const_cast<btCollisionObject*>(object));
  }
  throw Error("no body is named \"" + name + "\"");
}

std::unique_ptr<btTypedConstraint> SceneWorld::makeJoint(const SceneJoint& spec) const {
  btRigidBody& a = bodyNamed(spec.bodyA);
  btRigidBody& b = spec.bodyB.empty() ? btTypedConstraint::getFixedBody() : bodyNamed(spec.bodyB);
  // The joint's frame in the world at t = 0: at the pivot, its axis the hinge's z or the others'
  // x (Bullet's conventions), and the same frame in each body.
  btVector3 along = spec.kind == JointKind::hinge ? btVector3(0, 0, 1) : btVector3(1, 0, 0);
  btVector3 axis = spec.axis;
  const btQuaternion orientation = shortestArcQuatNormalize2(along, axis);
  const btTransform frame(orientation, spec.pivot);
  const btTransform inA = a.getCenterOfMassTransform().inverse() * frame;
  const btTransform inB = b.getCenterOfMassTransform().inverse() * frame;
  switch (spec.kind) {
    case JointKind::point:
      return std::make_unique<btPoint2PointConstraint>(a, b, inA.getOrigin(), inB.getOrigin());
    case JointKind::hinge: {
      auto hinge = std::make_unique<btHingeConstraint>(a, b, inA, inB);
      if (spec.limited) hinge->setLimit(spec.lower, spec.upper);
      if (spec.motor) hinge->enableAngularMotor(true, spec.motorSpeed, spec.motorImpulse);
      return hinge;
    }
    case JointKind::slider: {
      auto slider = std::make_unique<btSliderConstraint>(a, b, inA, inB, true);
      slider->setLowerLinLimit(spec.limited ? spec.lower : 1.0);  // lower > upper: free
      slider->setUpperLinLimit(spec.limited ? spec.upper : -1.0);
      slider->setLowerAngLimit(0);  // no turn about the axis
      slider->setUpperAngLimit(0);
      return slider;
    }
    case JointKind::fixed:
      return std::make_unique<btFixedConstraint>(a, b, inA, inB);
    case JointKind::coneTwist: {
      auto cone = std::make_unique<btConeTwistConstraint>(a, b, inA, inB);
      cone->setLimit(spec.swing[0], spec.swing[1], spec.swing[2]);
      return cone;
    }
    case JointKind::sixDof: {
      auto six = std::make_unique<btGeneric6DofSpring2Constraint>(a, b, inA, inB);
      six->setLinearLowerLimit(spec.linearLower);
      six->setLinearUpperLimit(spec.linearUpper);
      six->setAngularLowerLimit(spec.angularLower);
      six->setAngularUpperLimit(spec.angularUpper);
      return six;
    }
  }
  throw Error("unknown joint type");
}

SceneWorld::~SceneWorld() {
  for (auto& joint : joints_)
    world_->removeConstraint(joint.get());
  for (auto& body : bodies_)
    world_->removeRigidBody(body.get());
}

const std::string& SceneWorld::nameOf(const btCollisionObject* object) const {
  const auto found = names_.find(object);
  if (found == names_.end()) throw Error("an impact event names a body that is not in the scene");
  return found->second;
}

}  // namespace carom::cli
