#include "body_totals.h"

namespace carom::cli {

BodyTotals totalsOf(const std::vector<SceneWorld::DynamicBody>& bodies, const btVector3& gravity) {
  BodyTotals totals;
  for (const auto& [spec, body] : bodies) {
    const btTransform& pose = body->getCenterOfMassTransform();
    const btMatrix3x3& rotation = pose.getBasis();
    const btVector3& x = pose.getOrigin();
    const btVector3& v = body->getLinearVelocity();
    const btVector3& omega = body->getAngularVelocity();
    // I ω in the world frame: to the principal axes, scale by the moments, and back.
    const btVector3 spin = rotation * (spec->inertia * (rotation.transpose() * omega));
    totals.kinetic += 0.5 * spec->mass * v.length2() + 0.5 * omega.dot(spin);
    totals.potential -= spec->mass * gravity.dot(x);
    totals.momentum += spec->mass * v;
    totals.angularMomentum += x.cross(spec->mass * v) + spin;
  }
  return totals;
}

}  // namespace carom::cli
