// Bullet's btJointFeedback as its solver fills it (btSequentialImpulseConstraintSolver::
// writeBackJoints), shared by lcp and variational mode. Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/ConstraintSolver/btTypedConstraint.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include "bt_eigen.h"
#include "carom/core/types.h"

namespace carom::detail {

// Zeroes `feedback`, as Bullet's solver does for each joint it is given before it adds the rows'.
inline void clearJointFeedback(btJointFeedback& feedback) {
  feedback.m_appliedForceBodyA.setZero();
  feedback.m_appliedTorqueBodyA.setZero();
  feedback.m_appliedForceBodyB.setZero();
  feedback.m_appliedTorqueBodyB.setZero();
}

// Adds to `feedback` the force and torque of impulses on `joint`'s bodies over a step of h (s):
// on A's and B's momentum (N s) and their angular momentum about their centres of mass (N m s),
// in the world; averaged over the step (impulse / h) and masked by each body's linear and angular
// factors, as Bullet's.
inline void addJointFeedback(btJointFeedback& feedback, const btTypedConstraint& joint,
                             const core::Vec3& linearA, const core::Vec3& angularA,
                             const core::Vec3& linearB, const core::Vec3& angularB, double h) {
  const btRigidBody& a = joint.getRigidBodyA();
  const btRigidBody& b = joint.getRigidBodyB();
  feedback.m_appliedForceBodyA += toBt(linearA) * a.getLinearFactor() / h;
  feedback.m_appliedForceBodyB += toBt(linearB) * b.getLinearFactor() / h;
  feedback.m_appliedTorqueBodyA += toBt(angularA) * a.getAngularFactor() / h;
  feedback.m_appliedTorqueBodyB += toBt(angularB) * b.getAngularFactor() / h;
}

}  // namespace carom::detail
