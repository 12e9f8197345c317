// Stage 5 of ImpactSolver: gap and joint drift corrected on positions only. Pseudo velocities
// (Bullet's "push" and "turn" velocities of split impulse) are found by projected Gauss–Seidel so
// that every contact penetrating deeper than the allowance opens by driftCorrection × the excess,
// and the bodies are moved by them over one step; their real velocities are not touched by the
// push, so it adds no kinetic energy, and the potential energy of a lift is taken from the island's
// kinetic energy where it has that much. Joints' position errors are removed the same way
// (holdJointPositions), after the contacts' push.
#include <algorithm>
#include <cmath>

#include "carom/core/contact/separation.h"
#include "impact_solver_island.h"

namespace carom::detail {

std::string correctDrift(Island& island, const ImpactSolverSettings& settings) {
  const double h = island.timeStep;
  std::vector<core::contact::Separation> rows;
  for (const IslandContact& contact : island.contacts) {
    const double excess = -contact.distance - settings.allowedPenetration;
    if (excess > 0) {
      rows.push_back({contact.bodyA, contact.bodyB, contact.point, contact.normal,
                      settings.driftCorrection * excess / h});
    }
  }
  if (rows.empty() && island.jointRows.empty()) return {};
  std::vector<core::contact::PseudoVelocity> pseudo(island.bodies.size());
  if (!rows.empty())
    pseudo = core::contact::separationVelocities(statesOf(island), rows, settings.driftIterations);
  // The joints after the contacts' push, so that a link pushed out of the ground takes the links
  // joined to it along.
  std::string message;
  if (!island.jointRows.empty()) message = holdJointPositions(island, pseudo).message;
  double lifted = 0.0;  // the potential energy the moves add against each body's gravity (J)
  for (std::size_t i = 0; i < island.bodies.size(); ++i) {
    btRigidBody* body = island.bodies[i].dynamic;
    if (body == nullptr) continue;
    btTransform moved;
    btTransformUtil::integrateTransform(body->getWorldTransform(), toBt(pseudo[i].linear),
                                        toBt(pseudo[i].angular), h, moved);
    lifted -= toEigen(body->getGravity())
                  .dot(toEigen(moved.getOrigin() - body->getCenterOfMassPosition())) /
              body->getInvMass();
    body->setCenterOfMassTransform(moved);
  }
  // A body lifted out of a penetration that Bullet's once-per-step contacts found late gains the
  // potential energy of the lift, step after step in a box of elastic balls. It is taken from the
  // island's kinetic energy, every velocity scaled alike so that no contact between its bodies
  // starts to close; an island at rest has none to give, and keeps the lift (at most m g times
  // driftCorrection of the penetration beyond allowedPenetration per step).
  if (!(lifted > 0)) return message;
  double kinetic = 0.0;
  for (const IslandBody& body : island.bodies)
    kinetic += core::impact::kineticEnergy({body.state, core::impact::ContactBody{}});
  const double scale = kinetic > lifted ? std::sqrt((kinetic - lifted) / kinetic) : 0.0;
  for (IslandBody& body : island.bodies) {
    if (body.dynamic == nullptr) continue;
    body.state.linearVelocity *= scale;
    body.state.angularVelocity *= scale;
  }
  return message;
}

}  // namespace carom::detail
