// carom::DynamicsWorld: construction, the mode switch, materials, joints and impact events. The
// variational step itself lives in variational_step.cpp.
#include "carom/bullet/dynamics_world.h"

#include <BulletCollision/CollisionDispatch/btSimulationIslandManager.h>

#include "carom/error.h"
#include "config_values.h"
#include "variational_joints.h"
#include "variational_step.h"

namespace carom {

namespace detail {

WorldSolver::WorldSolver(const Config& config)
    : m_impactSolver(config.solver.kind == SolverKind::lcp ? std::make_unique<ImpactSolver>(config)
                                                           : nullptr) {
  // A value set in C++ is judged as the parser judges a config file's (lcp mode's ImpactSolver
  // has already judged it).
  const std::string contacts =
      config_values::simultaneousContactsProblem(config.solver.simultaneousContacts);
  if (!contacts.empty()) throw Error("DynamicsWorld: solver.simultaneousContacts " + contacts);
}

}  // namespace detail

DynamicsWorld::DynamicsWorld(btDispatcher* dispatcher, btBroadphaseInterface* broadphase,
                             btCollisionConfiguration* collisionConfiguration, const Config& config)
    // Without an ImpactSolver the null solver makes the base class create and own Bullet's stock
    // sequential-impulse solver.
    : detail::WorldSolver(config),
      btDiscreteDynamicsWorld(dispatcher, broadphase, m_impactSolver.get(), collisionConfiguration),
      m_config(config) {}

DynamicsWorld::~DynamicsWorld() = default;

void DynamicsWorld::addConstraint(btTypedConstraint* constraint,
                                  bool disableCollisionsBetweenLinkedBodies) {
  if (constraint == nullptr) throw Error("addConstraint: constraint is null");
  if (m_config.solver.kind == SolverKind::variational)
    detail::requireVariationalJoint(*constraint, "addConstraint");
  if (m_config.solver.kind == SolverKind::lcp) requireSupportedJoint(*constraint, "addConstraint");
  btDiscreteDynamicsWorld::addConstraint(constraint, disableCollisionsBetweenLinkedBodies);
}

void DynamicsWorld::addCollisionObject(btCollisionObject* collisionObject, int collisionFilterGroup,
                                       int collisionFilterMask) {
  btDiscreteDynamicsWorld::addCollisionObject(collisionObject, collisionFilterGroup,
                                              collisionFilterMask);
  if (m_config.solver.kind == SolverKind::variational) m_unchecked.insert(collisionObject);
}

void DynamicsWorld::removeRigidBody(btRigidBody* body) {
  forget(body);
  btDiscreteDynamicsWorld::removeRigidBody(body);
}

void DynamicsWorld::removeCollisionObject(btCollisionObject* collisionObject) {
  forget(collisionObject);
  btDiscreteDynamicsWorld::removeCollisionObject(collisionObject);
}

void DynamicsWorld::forget(const btCollisionObject* object) {
  m_materials.erase(object);
  m_unchecked.erase(object);
  if (m_impactSolver) m_impactSolver->clearMaterial(object);
  for (auto it = m_warmStart.begin(); it != m_warmStart.end();) {
    const auto& pair = it->first.first;
    it = (pair.first == object || pair.second == object) ? m_warmStart.erase(it) : std::next(it);
  }
}

void DynamicsWorld::setMaterial(const btCollisionObject* body, const std::string& name) {
  if (body == nullptr) throw Error("setMaterial: body is null");
  m_config.material(name);  // throws for an undefined material, naming it
  if (m_impactSolver) m_impactSolver->setMaterial(body, name);
  m_materials[body] = name;
}

const std::string* DynamicsWorld::getMaterial(const btCollisionObject* body) const {
  const auto found = m_materials.find(body);
  return found == m_materials.end() ? nullptr : &found->second;
}

void DynamicsWorld::recordImpact(const ImpactEvent& event) {
  m_impactEvents.push_back(event);
  if (m_impactCallback) m_impactCallback(event);
}

// Bullet's internalSingleStepSimulation with its predict–collide–solve–integrate core replaced by
// the variational step; callbacks, narrowphase manifolds (for games that read them), islands,
// actions and sleeping stay Bullet's.
void DynamicsWorld::variationalSingleStep(double timeStep) {
  if (m_internalPreTickCallback) m_internalPreTickCallback(this, timeStep);
  if (!m_unchecked.empty()) refuseDeepOverlaps(timeStep);
  if (!m_stepMemory) m_stepMemory = std::make_unique<detail::VariationalStepMemory>();
  m_lastStep = VariationalStep(*this, timeStep, *m_stepMemory).run();
  btCollisionWorld::performDiscreteCollisionDetection();
  calculateSimulationIslands();
  // Bullet's islands put to sleep where every body wants to sleep, and woken where one is awake:
  // in stock Bullet part of solveConstraints (btSimulationIslandManager::buildAndProcessIslands).
  // Without it no body would ever fall asleep in this mode (a box at rest would stay at
  // WANTS_DEACTIVATION).
  getSimulationIslandManager()->buildIslands(getDispatcher(), this);
  updateActions(timeStep);
  updateActivationState(timeStep);
  if (m_internalTickCallback) m_internalTickCallback(this, timeStep);
}

void DynamicsWorld::internalSingleStepSimulation(btScalar timeStep) {
  if (m_config.solver.kind == SolverKind::variational) {
    variationalSingleStep(timeStep);
  } else {
    btDiscreteDynamicsWorld::internalSingleStepSimulation(timeStep);
  }
  if (m_impactSolver) {
    const std::size_t first = m_impactEvents.size();
    m_impactSolver->moveEventsTo(m_impactEvents);
    if (m_impactCallback) {
      for (std::size_t e = first; e < m_impactEvents.size(); ++e)
        m_impactCallback(m_impactEvents[e]);
    }
  }
  m_simulatedTime += timeStep;
}

}  // namespace carom
