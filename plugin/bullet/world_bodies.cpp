// Stages 1 and 6 of the variational step: Bullet's rigid bodies to double-precision core states
// and back. The one place where the world converts between btRigidBody and core::BodyState.
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <utility>
#include <vector>

#include "bt_eigen.h"
#include "carom/error.h"
#include "mesh_triangles.h"
#include "motion_factors.h"
#include "variational_step.h"

namespace carom {

using detail::toBt;
using detail::toEigen;

namespace {

// Bullet keeps the body frame at the centre of mass on the principal axes, with the inverse
// principal moments in getInvInertiaDiagLocal (digest §3.1): J = diag(1/I⁻¹ᵢ).
core::MassProperties massOf(const btRigidBody& body) {
  const btVector3 inverse = body.getInvInertiaDiagLocal();
  if (!(inverse.x() > 0 && inverse.y() > 0 && inverse.z() > 0)) {
    throw Error(
        "variational step: a dynamic body has an infinite principal moment of inertia "
        "(getInvInertiaDiagLocal has a zero); give it the shape's local inertia");
  }
  const core::Vec3 moments(1 / inverse.x(), 1 / inverse.y(), 1 / inverse.z());
  return core::MassProperties::create(1 / body.getInvMass(), moments.asDiagonal());
}

// The largest |ω × q|² / ωᵀJω over the points q of the shape's bounding box in the body frame
// (1/kg): what turning adds to a point's inverse mass (VariationalStep::jointedMotion). For each ω,
// |ω × q| is a seminorm of q; their largest over ωᵀJω ≤ 1, √λ_max(S(q) J⁻¹ S(q)ᵀ), is then convex
// in q, and largest over the box at one of its corners.
double turningInverseMass(const btCollisionShape& shape, const core::MassProperties& mass) {
  btVector3 low, high;
  shape.getAabb(btTransform::getIdentity(), low, high);
  double largest = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const core::Vec3 q((corner & 1 ? high : low).x(), (corner & 2 ? high : low).y(),
                       (corner & 4 ? high : low).z());
    core::Mat3 S;
    S << 0, -q.z(), q.y(), q.z(), 0, -q.x(), -q.y(), q.x(), 0;
    const core::Mat3 M = S * mass.inverseInertia() * S.transpose();
    largest = std::max(largest, Eigen::SelfAdjointEigenSolver<core::Mat3>(M, Eigen::EigenvaluesOnly)
                                    .eigenvalues()
                                    .maxCoeff());
  }
  return largest;
}

// How far the farthest point of `shape`, its margin included, lies from its centre (m): exact for
// a sphere and a capsule, whose AABB's corners lie outside them; otherwise Bullet's bounding
// sphere about the centre (its AABB's half-diagonal, exact for a box).
double reachOf(const btCollisionShape& shape) {
  switch (shape.getShapeType()) {
    case SPHERE_SHAPE_PROXYTYPE:
      return static_cast<const btSphereShape&>(shape).getRadius();
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& capsule = static_cast<const btCapsuleShape&>(shape);
      return capsule.getRadius() + capsule.getHalfHeight();
    }
    default: {
      btVector3 center;
      btScalar radius;
      shape.getBoundingSphere(center, radius);
      return center.length() + radius;
    }
  }
}

}  // namespace

bool KnownMass::madeFrom(const btRigidBody& body) const {
  const btVector3& inertia = body.getInvInertiaDiagLocal();
  return body.getInvMass() == inverseMass && inertia.x() == inverseInertia.x() &&
         inertia.y() == inverseInertia.y() && inertia.z() == inverseInertia.z();
}

void VariationalStep::readBodies() {
  // Every body's mass first: a body carom cannot move is refused before any body is touched.
  std::vector<std::pair<btRigidBody*, core::MassProperties>> active;
  active.reserve(static_cast<std::size_t>(m_world.getNumCollisionObjects()));
  for (int i = 0; i < m_world.getNumCollisionObjects(); ++i) {
    btRigidBody* body = btRigidBody::upcast(m_world.getCollisionObjectArray()[i]);
    if (body == nullptr || body->isStaticOrKinematicObject() || !body->isActive()) continue;
    detail::requireSupportedFactors(*body, "variational step");
    if (isTriangleMesh(*body->getCollisionShape())) {
      throw Error(
          std::string("variational step: a dynamic body has a triangle mesh or heightfield (") +
          body->getCollisionShape()->getName() +
          "); meshes take part only as static or kinematic objects, as in Bullet's "
          "btBvhTriangleMeshShape (use a btConvexHullShape or a btCompoundShape of them)");
    }
    const std::size_t place = active.size();
    if (place < m_knownMasses.size() && m_knownMasses[place].madeFrom(*body)) {
      active.emplace_back(body, m_knownMasses[place].mass);
      continue;
    }
    active.emplace_back(body, massOf(*body));
    const KnownMass known{body->getInvMass(), body->getInvInertiaDiagLocal(), active.back().second};
    if (place < m_knownMasses.size()) {
      m_knownMasses[place] = known;
    } else {
      m_knownMasses.push_back(known);
    }
  }
  m_bodies.reserve(active.size());
  for (const auto& [body, mass] : active) {
    // Bullet's damping acts on the velocities at the start of the step, as in
    // btDiscreteDynamicsWorld::predictUnconstraintMotion; with zero damping it changes nothing.
    body->applyDamping(m_timeStep);
    const btTransform& frame = body->getCenterOfMassTransform();
    core::ExternalLoad load;
    load.gravity = toEigen(body->getGravity());
    // stepSimulation has already added m·g to the total force (applyGravity).
    load.force = toEigen(body->getTotalForce()) - mass.mass() * load.gravity;
    load.torque = toEigen(body->getTotalTorque());
    const core::BodyState state = core::stateFromVelocities(
        mass, toEigen(frame.getOrigin()), toEigen(frame.getBasis()),
        toEigen(body->getLinearVelocity()), toEigen(body->getAngularVelocity()));
    m_bodies.push_back({body, mass, state, load, reachOf(*body->getCollisionShape()),
                        detail::rotationLocked(*body)});
  }
}

void VariationalStep::readJointedTurning() {
  for (const detail::JointGroup& group : m_joints.groups) {
    for (const int index : group.bodies) {
      StepBody& body = m_bodies[index];
      if (!body.rotationLocked)
        body.turningInverseMass =
            turningInverseMass(*body.rigidBody->getCollisionShape(), body.mass);
    }
  }
}

void VariationalStep::writeBodies() {
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    // A repeated still island's bodies keep Bullet's values to the bit (γ = m v does not return v
    // to the last bit), which the next step's repeat compares; their interpolation transform, set
    // to the trial pose for the swept AABBs, is theirs again, as setCenterOfMassTransform leaves it
    // (the motion states are synchronised from it).
    const StepBody& body = m_bodies[i];
    const int island = m_islandOf[i];
    if (island >= 0 && island < static_cast<int>(m_stillness.size()) &&
        m_stillness[island].repeated) {
      btRigidBody& bullet = *body.rigidBody;
      bullet.setInterpolationWorldTransform(bullet.getWorldTransform());
      bullet.setInterpolationLinearVelocity(bullet.getLinearVelocity());
      bullet.setInterpolationAngularVelocity(bullet.getAngularVelocity());
      continue;
    }
    const core::BodyState& state = stateNow(static_cast<int>(i));
    body.rigidBody->setCenterOfMassTransform(btTransform(toBt(state.R), toBt(state.x)));
    body.rigidBody->setLinearVelocity(toBt(core::linearVelocity(body.mass, state)));
    body.rigidBody->setAngularVelocity(toBt(core::angularVelocityWorld(body.mass, state)));
  }
}

core::impact::ContactBody VariationalStep::contactBodyOf(int index,
                                                         const btCollisionObject* object) const {
  core::impact::ContactBody contact;
  if (index == kFixed) {
    // Static, kinematic or sleeping: immovable, moving with its own (kinematic) velocity.
    const btRigidBody* body = btRigidBody::upcast(object);
    contact.centerOfMass = toEigen(poseAt(*object, nullptr, m_now).getOrigin());
    if (body != nullptr) {
      contact.linearVelocity = toEigen(body->getLinearVelocity());
      contact.angularVelocity = toEigen(body->getAngularVelocity());
    }
    return contact;
  }
  const StepBody& body = m_bodies[index];
  const core::BodyState& state = stateNow(index);
  contact.inverseMass = body.mass.inverseMass();
  contact.inverseInertiaWorld =
      body.rotationLocked ? core::Mat3::Zero()
                          : core::Mat3(state.R * body.mass.inverseInertia() * state.R.transpose());
  contact.centerOfMass = state.x;
  contact.linearVelocity = core::linearVelocity(body.mass, state);
  contact.angularVelocity = core::angularVelocityWorld(body.mass, state);
  return contact;
}

// γ = m v, Π = J Rᵀ ω (Tran & Leok (4.11)).
void VariationalStep::applyVelocities(int index, const core::Vec3& v, const core::Vec3& omega) {
  if (index == kFixed) return;
  const StepBody& body = m_bodies[index];
  m_stale[index] = true;
  core::BodyState& state = stateNowToChange(index);
  state.gamma = body.mass.mass() * v;
  state.Pi = body.mass.inertia() * (state.R.transpose() * omega);
}

}  // namespace carom
