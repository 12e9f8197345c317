#include "cube_sim.h"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "carom/bullet/dynamics_world.h"

namespace carom::validation {
namespace {

btVector3 toBt(const Eigen::Vector3d& v) {
  return btVector3(v.x(), v.y(), v.z());
}
Eigen::Vector3d toEigen(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}

// The one material of both bodies in carom's modes: the same material on both is used exactly;
// its friction is the sustained contacts' μ, its impact friction the impacts' (docs/config.md).
Config configFor(const CubeModel& model) {
  Config config;
  config.solver.kind = model.kind;
  Material material;
  material.name = "cube";
  material.impact = model.law;
  material.restitution = model.restitution;
  material.friction = model.slidingFriction;
  material.impactFriction = usesFriction(model) ? model.friction : 0.0;
  material.roughness = model.roughness;
  material.tangentialCompliance = model.compliant ? model.tangentialCompliance : 0.0;
  config.setMaterial("cube", material);
  return config;
}

// The corner `corner` (0…7, a bit per axis) of the rounded cube's inner box, whose Minkowski sum
// with a ball of radius kEdgeRadius is the cube, in the body frame of the centre of mass (m).
btVector3 innerCorner(int corner, const Eigen::Vector3d& centreOfMass) {
  return toBt(cubeCorner(corner, kHalfSide - kEdgeRadius, centreOfMass));
}

// The rounded cube's lowest point's depth below the board (m, ≥ 0).
double depthBelowBoard(const btTransform& pose, const Eigen::Vector3d& centreOfMass) {
  double lowest = 0;
  for (int corner = 0; corner < 8; ++corner)
    lowest = std::min(lowest, (pose * innerCorner(corner, centreOfMass)).z() - kEdgeRadius);
  return -lowest;
}

// A board and a cube in a world of `model`'s mode, owned together and taken apart in order.
class CubeWorld {
 public:
  CubeWorld(const InitialState& start, const CubeModel& model)
      : world_(&dispatcher_, &broadphase_, &collisionConfiguration_, configFor(model)) {
    // The cube with rounded edges: the hull of the inner box with its margin as the radius (a
    // btBoxShape's corners stay sharp whatever its margin), about the centre of mass.
    for (int corner = 0; corner < 8; ++corner)
      cubeShape_.addPoint(innerCorner(corner, model.centreOfMass), corner == 7);
    cubeShape_.setMargin(kEdgeRadius);
    // Whole-face manifolds from the first touch, in every mode: lcp mode needs them to hold a box
    // (README, "carom in a stock Bullet world"), and stock Bullet with its default of one new
    // point per step tips a cube dropped flat at 148 Hz onto another face (measured).
    {
      collisionConfiguration_.setPlaneConvexMultipointIterations(3, 3);
      collisionConfiguration_.setConvexConvexMultipointIterations(3, 3);
    }
    world_.setGravity(btVector3(0, 0, -kGravity));
    btRigidBody::btRigidBodyConstructionInfo groundInfo(0, nullptr, &groundShape_);
    // Stock Bullet multiplies the two bodies' values; the board's 1 makes the product the cube's,
    // i.e. the model's. carom's modes read the material instead (same on both: used exactly).
    groundInfo.m_restitution = 1.0;
    groundInfo.m_friction = 1.0;
    ground_ = std::make_unique<btRigidBody>(groundInfo);
    btRigidBody::btRigidBodyConstructionInfo cubeInfo(kMass, nullptr, &cubeShape_,
                                                      btVector3(kInertia, kInertia, kInertia));
    cubeInfo.m_restitution = model.restitution;
    cubeInfo.m_friction = usesFriction(model) ? model.friction : 0.0;
    cubeInfo.m_startWorldTransform.setOrigin(toBt(start.position));
    const Eigen::Quaterniond& q = start.rotation;
    cubeInfo.m_startWorldTransform.setRotation(btQuaternion(q.x(), q.y(), q.z(), q.w()));
    cube_ = std::make_unique<btRigidBody>(cubeInfo);
    cube_->setLinearVelocity(toBt(start.velocity));
    cube_->setAngularVelocity(toBt(start.omegaWorld));
    // As `carom run`: no sleeping in any mode, so that every mode is judged on its own contacts.
    cube_->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(ground_.get());
    world_.addRigidBody(cube_.get());
    world_.setMaterial(ground_.get(), "cube");
    world_.setMaterial(cube_.get(), "cube");
  }
  ~CubeWorld() {
    world_.removeRigidBody(cube_.get());
    world_.removeRigidBody(ground_.get());
  }
  CubeWorld(const CubeWorld&) = delete;
  CubeWorld& operator=(const CubeWorld&) = delete;

  DynamicsWorld& world() { return world_; }
  const btRigidBody& cube() const { return *cube_; }

 private:
  btDefaultCollisionConfiguration collisionConfiguration_;
  btCollisionDispatcher dispatcher_{&collisionConfiguration_};
  btDbvtBroadphase broadphase_;
  DynamicsWorld world_;
  btStaticPlaneShape groundShape_{btVector3(0, 0, 1), 0};
  btConvexHullShape cubeShape_;
  std::unique_ptr<btRigidBody> ground_, cube_;
};

}  // namespace

SimulatedToss simulateFrom(const InitialState& start, int frames, const CubeModel& model) {
  InitialState shifted = start;
  shifted.position.z() += model.heightOffset;
  CubeWorld scene(shifted, model);
  const double h = 1.0 / kFrameRate / model.substeps;
  SimulatedToss result;
  result.poses.reserve(frames);
  auto record = [&] {
    const btTransform& pose = scene.cube().getWorldTransform();
    const btQuaternion q = pose.getRotation();
    Pose out{toEigen(pose.getOrigin()), Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z())};
    out.position -= out.rotation * model.centreOfMass + Eigen::Vector3d(0, 0, model.heightOffset);
    result.finite = result.finite && out.position.allFinite() && out.rotation.coeffs().allFinite();
    result.poses.push_back(out);
  };
  record();
  for (int frame = 1; frame < frames && result.finite; ++frame) {
    for (int step = 0; step < model.substeps; ++step) {
      scene.world().stepSimulation(h, 1, h);
      for (const ImpactEvent& event : scene.world().getImpactEvents()) {
        if (std::find(result.laws.begin(), result.laws.end(), event.law) == result.laws.end())
          result.laws.push_back(event.law);
      }
      scene.world().clearImpactEvents();
      result.penetration =
          std::max(result.penetration,
                   depthBelowBoard(scene.cube().getWorldTransform(), model.centreOfMass));
    }
    record();
  }
  // A state gone non-finite stops the run; the frames it did not reach repeat its last pose so that
  // every metric sees the failure (and `finite` says so).
  while (static_cast<int>(result.poses.size()) < frames)
    result.poses.push_back(result.poses.back());
  return result;
}

SimulatedToss simulate(const Toss& toss, const CubeModel& model) {
  return simulateFrom(initialState(toss, model.centreOfMass), static_cast<int>(toss.frames.size()),
                      model);
}

}  // namespace carom::validation
