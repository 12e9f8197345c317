// A step that throws leaves the world as it was. btDiscreteDynamicsWorld::stepSimulation adds
// gravity to every body's total force before its internal steps and clears the forces after them,
// and in lcp mode integrates the velocities before the solver runs: a step that throws in between
// would leave gravity added (a falling body would gain the failed steps' gravity in the next) and
// the velocities moved. What the step changes that a user can see is saved before it and put back.
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include "carom/bullet/dynamics_world.h"

namespace carom {
namespace {

// `total` as applied through `factor` (btRigidBody::applyCentralForce and applyTorque multiply by
// the body's linear and angular factors): the force to apply again for the same total.
btVector3 beforeFactor(const btVector3& total, const btVector3& factor) {
  btVector3 applied;
  for (int i = 0; i < 3; ++i)
    applied[i] = factor[i] != 0 ? total[i] / factor[i] : 0;
  return applied;
}

}  // namespace

int DynamicsWorld::stepSimulation(btScalar timeStep, int maxSubSteps, btScalar fixedTimeStep) {
  StepSnapshot before = snapshot();
  try {
    return btDiscreteDynamicsWorld::stepSimulation(timeStep, maxSubSteps, fixedTimeStep);
  } catch (...) {
    restore(before);
    throw;
  }
}

DynamicsWorld::StepSnapshot DynamicsWorld::snapshot() const {
  StepSnapshot snapshot{{},
                        m_localTime,
                        m_simulatedTime,
                        m_impactEvents.size(),
                        m_warmStart,
                        m_lastStep,
                        m_impactSolver ? std::make_unique<ImpactSolver>(*m_impactSolver) : nullptr};
  snapshot.bodies.reserve(static_cast<std::size_t>(getNumCollisionObjects()));
  for (int i = 0; i < getNumCollisionObjects(); ++i) {
    btRigidBody* body = btRigidBody::upcast(getCollisionObjectArray()[i]);
    if (body == nullptr) continue;
    snapshot.bodies.push_back({body, body->getWorldTransform(),
                               body->getInterpolationWorldTransform(), body->getLinearVelocity(),
                               body->getAngularVelocity(), body->getInterpolationLinearVelocity(),
                               body->getInterpolationAngularVelocity(), body->getTotalForce(),
                               body->getTotalTorque(), body->getActivationState(),
                               body->getDeactivationTime()});
  }
  return snapshot;
}

void DynamicsWorld::restore(StepSnapshot& before) {
  for (const BodySnapshot& saved : before.bodies) {
    btRigidBody& body = *saved.body;
    body.setWorldTransform(saved.world);
    body.setInterpolationWorldTransform(saved.interpolation);
    body.setLinearVelocity(saved.linearVelocity);
    body.setAngularVelocity(saved.angularVelocity);
    body.setInterpolationLinearVelocity(saved.interpolationLinear);
    body.setInterpolationAngularVelocity(saved.interpolationAngular);
    body.clearForces();
    body.applyCentralForce(beforeFactor(saved.force, body.getLinearFactor()));
    body.applyTorque(beforeFactor(saved.torque, body.getAngularFactor()));
    body.forceActivationState(saved.activation);
    body.setDeactivationTime(saved.deactivationTime);
  }
  m_localTime = before.localTime;
  m_simulatedTime = before.simulatedTime;
  m_impactEvents.erase(m_impactEvents.begin() + static_cast<std::ptrdiff_t>(before.impactEvents),
                       m_impactEvents.end());
  m_warmStart = std::move(before.warmStart);
  m_lastStep = before.lastStep;
  if (m_impactSolver) *m_impactSolver = *before.impactSolver;
}

}  // namespace carom
