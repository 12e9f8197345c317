#include "carom/bullet/impact_solver.h"

#include <utility>

#include "carom/error.h"
#include "config_values.h"
#include "impact_solver_island.h"
#include "motion_factors.h"

namespace carom {

ImpactSolver::ImpactSolver(Config config, ImpactSolverSettings settings)
    : config_(std::move(config)), settings_(settings) {
  if (!(settings_.restingThreshold >= 0))
    throw Error("ImpactSolver: restingThreshold must be >= 0 m/s");
  if (!(settings_.allowedPenetration >= 0))
    throw Error("ImpactSolver: allowedPenetration must be >= 0 m");
  if (!(settings_.driftCorrection > 0 && settings_.driftCorrection <= 1))
    throw Error("ImpactSolver: driftCorrection must be in (0, 1]");
  if (settings_.driftIterations < 1) throw Error("ImpactSolver: driftIterations must be >= 1");
  if (config_.solver.threads < 0) throw Error("ImpactSolver: solver.threads must be >= 0");
  const std::string contacts =
      config_values::simultaneousContactsProblem(config_.solver.simultaneousContacts);
  if (!contacts.empty()) throw Error("ImpactSolver: solver.simultaneousContacts " + contacts);
}

void ImpactSolver::setMaterial(const btCollisionObject* body, const std::string& name) {
  if (body == nullptr) throw Error("ImpactSolver::setMaterial: body is null");
  config_.material(name);  // throws for an undefined name
  materials_[body] = name;
}

void ImpactSolver::clearMaterial(const btCollisionObject* body) {
  materials_.erase(body);
}

btScalar ImpactSolver::solveGroup(btCollisionObject** bodies, int numBodies,
                                  btPersistentManifold** manifolds, int numManifolds,
                                  btTypedConstraint** constraints, int numConstraints,
                                  const btContactSolverInfo& info, btIDebugDraw* /*debugDrawer*/,
                                  btDispatcher* dispatcher) {
  for (int i = 0; i < numConstraints; ++i)
    requireSupportedJoint(*constraints[i], "ImpactSolver");
  for (int i = 0; i < numBodies; ++i) {
    const btRigidBody* body = btRigidBody::upcast(bodies[i]);
    if (body != nullptr && !body->isStaticOrKinematicObject() && body->getInvMass() != 0)
      detail::requireSupportedFactors(*body, "ImpactSolver");
  }
  if (info.m_numIterations < 1)
    throw Error(
        "ImpactSolver: btContactSolverInfo::m_numIterations must be >= 1 (the contact "
        "LCP's sweeps per step), got " +
        std::to_string(info.m_numIterations));
  const auto materialOf = [this](const btCollisionObject* a, const btCollisionObject* b,
                                 const btManifoldPoint& point) {
    const auto named = [this](const btCollisionObject* object) {
      const auto it = materials_.find(object);
      return it == materials_.end() ? nullptr : &it->second;
    };
    const std::string* nameA = named(a);
    const std::string* nameB = named(b);
    if (nameA && nameB) return config_.material(*nameA, *nameB);
    if (nameA || nameB) {
      const std::string& name = nameA ? *nameA : *nameB;
      return config_.material(name);
    }
    // Stock Bullet's law on Bullet's combined values: Newton restitution with Coulomb friction.
    core::impact::Material bullet;
    bullet.name = "bullet";
    bullet.impact = core::impact::ImpactLawKind::kNewton;
    bullet.restitution = point.m_combinedRestitution;
    bullet.friction = point.m_combinedFriction;
    return bullet;
  };
  detail::Island& island = *islandMemory_.island;
  detail::gatherIsland(island, bodies, numBodies, manifolds, numManifolds, dispatcher,
                       info.m_timeStep, materialOf, previousPatchImpulses_);
  detail::gatherJoints(island, constraints, numConstraints, info);  // throws before any change
  // Impacts between two half kicks: an impact happens inside the step, and resolving it halfway
  // through the forces' impulse is the time-symmetric choice, so that an elastic bounce neither
  // gains nor loses the kick (after the full kick it gains g·h of speed per bounce).
  detail::computeForces(island, info);
  detail::applyForces(island, 0.5);
  // The island's events are appended to the solver's list, and taken off it again where a later
  // stage throws: a failed step records nothing.
  const std::size_t firstEvent = events_.size();
  try {
    detail::resolveImpacts(island, config_, settings_, islandMemory_.workers, events_);
    detail::applyForces(island, 0.5);
    if (island.jointRows.empty()) {
      detail::solveContacts(island, info.m_numIterations, islandMemory_);
    } else {
      const core::contact::JointSolveReport report = detail::solveJoints(island, info);
      if (!report.ok()) warnings_.push_back(report.message);
    }
    const std::string drift = detail::correctDrift(island, settings_);
    if (!drift.empty()) warnings_.push_back(drift);
    detail::writeBack(island, patchImpulses_, jointWrites_);
  } catch (...) {
    events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(firstEvent), events_.end());
    throw;
  }
  for (std::size_t e = firstEvent; e < events_.size(); ++e)
    events_[e].time = time_;
  return 0;
}

void ImpactSolver::prepareSolve(int /*numBodies*/, int /*numManifolds*/) {
  jointWrites_.clear();
  warnings_.clear();
}

// Called once per internal step, also when every island sleeps and solveGroup is not.
void ImpactSolver::allSolved(const btContactSolverInfo& info, btIDebugDraw* /*debugDrawer*/) {
  time_ += info.m_timeStep;
  // Only this step's patch corners warm-start the next: a pair that did not touch is forgotten.
  previousPatchImpulses_ = std::move(patchImpulses_);
  patchImpulses_.clear();
  // The joints' part of the step, once no island can throw any more (as Bullet's writeBackJoints).
  for (const detail::JointWrite& write : jointWrites_) {
    if (btJointFeedback* feedback = write.joint->getJointFeedback()) *feedback = write.feedback;
    write.joint->internalSetAppliedImpulse(write.appliedImpulse);
    if (write.breaks) write.joint->setEnabled(false);
  }
  jointWrites_.clear();
  lastStepWarnings_ = std::move(warnings_);
  warnings_.clear();
}

void ImpactSolver::reset() {
  previousPatchImpulses_.clear();
  patchImpulses_.clear();
  jointWrites_.clear();
  warnings_.clear();
}

}  // namespace carom
