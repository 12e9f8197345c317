// A scene's bodies in a carom::DynamicsWorld: the Bullet objects `carom run` steps, built from a
// carom::Scene and owned together so that they are taken apart in the order Bullet needs.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "carom/bullet/dynamics_world.h"
#include "carom/bullet/scene.h"

namespace carom::cli {

class SceneWorld {
 public:
  struct DynamicBody {
    const SceneBody* spec;  // the scene's entry: name, mass, principal inertia
    btRigidBody* body;
  };

  // Every body of `scene` with its shape, mass, inertia, pose, velocities and material, and every
  // joint, under the scene's gravity, stepped as `config` says (the scene's own config or an
  // override of it). Throws carom::Error where the mode refuses a joint (variational mode).
  SceneWorld(const Scene& scene, const Config& config);
  ~SceneWorld();
  SceneWorld(const SceneWorld&) = delete;
  SceneWorld& operator=(const SceneWorld&) = delete;

  DynamicsWorld& world() { return *world_; }
  const std::vector<DynamicBody>& dynamicBodies() const { return dynamic_; }
  // The scene name of one of this world's bodies.
  const std::string& nameOf(const btCollisionObject* object) const;

 private:
  btDefaultCollisionConfiguration collisionConfiguration_;
  btCollisionDispatcher dispatcher_{&collisionConfiguration_};
  btDbvtBroadphase broadphase_;
  std::unique_ptr<DynamicsWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btDefaultMotionState>> motionStates_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btTypedConstraint>> joints_;
  std::vector<DynamicBody> dynamic_;
  std::map<const btCollisionObject*, std::string> names_;

  btRigidBody& bodyNamed(const std::string& name) const;
  std::unique_ptr<btTypedConstraint> makeJoint(const SceneJoint& spec) const;
};

}  // namespace carom::cli
