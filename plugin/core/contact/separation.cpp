#include "carom/core/contact/separation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "carom/core/contact/persistent_contact.h"
#include "carom/error.h"

namespace carom::core::contact {

std::vector<PseudoVelocity> separationVelocities(const std::vector<impact::ContactBody>& bodies,
                                                 const std::vector<Separation>& rows, int sweeps,
                                                 const JointSystem* joints) {
  if (sweeps < 1) throw Error("separationVelocities: sweeps must be at least 1");
  const int count = static_cast<int>(bodies.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Separation& row = rows[i];
    const std::string name = "separation " + std::to_string(i);
    for (const int index : {row.bodyA, row.bodyB}) {
      if (index != kWorld && (index < 0 || index >= count))
        throw Error(name + ": body index " + std::to_string(index) + " is out of range");
    }
    if (row.bodyA == row.bodyB) throw Error(name + ": a body cannot overlap itself");
    if (!row.point.allFinite()) throw Error(name + ": point is not finite");
    if (!row.normal.allFinite() || std::abs(row.normal.norm() - 1.0) > 1e-9)
      throw Error(name + ": normal must be finite and of unit length");
    if (!std::isfinite(row.speed) || row.speed < 0)
      throw Error(name + ": speed must be finite and non-negative");
  }
  // The bodies with their pseudo velocities (zero at the start) in place of their velocities.
  std::vector<impact::ContactBody> pseudo(bodies);
  for (impact::ContactBody& body : pseudo) {
    body.linearVelocity.setZero();
    body.angularVelocity.setZero();
  }
  const impact::ContactBody immovable{};
  const auto bodyAt = [&](int index) -> impact::ContactBody& {
    return pseudo[static_cast<std::size_t>(index)];
  };
  const auto contactOf = [&](const Separation& row) {
    return impact::Contact{row.bodyA == kWorld ? immovable : bodyAt(row.bodyA),
                           row.bodyB == kWorld ? immovable : bodyAt(row.bodyB), row.point,
                           row.normal};
  };
  // Each row's n·K·n (1/kg), K the free bodies' or, with joints, the jointed system's
  // (heldInverseMassMatrix): masses only, so computed once.
  std::vector<double> response;
  for (const Separation& row : rows) {
    const Mat3 k = joints ? heldInverseMassMatrix(pseudo, *joints, row.bodyA, row.bodyB, row.point)
                          : impact::inverseMassMatrix(contactOf(row));
    response.push_back(row.normal.dot(k * row.normal));
  }
  std::vector<double> impulse(rows.size(), 0.0);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Separation& row = rows[i];
      if (!(response[i] > 0)) continue;  // nothing the push can move
      const double un = impact::relativeVelocity(contactOf(row)).dot(row.normal);
      const double total = std::max(impulse[i] + (row.speed - un) / response[i], 0.0);
      const Vec3 step = (total - impulse[i]) * row.normal;
      impulse[i] = total;
      if (joints) {
        applyHeldImpulse(pseudo, *joints, row.bodyA, row.bodyB, row.point, step);
        continue;
      }
      const impact::ImpactOutcome outcome = impact::applyImpulse(contactOf(row), step);
      if (row.bodyA != kWorld) {
        bodyAt(row.bodyA).linearVelocity = outcome.linearVelocityA;
        bodyAt(row.bodyA).angularVelocity = outcome.angularVelocityA;
      }
      if (row.bodyB != kWorld) {
        bodyAt(row.bodyB).linearVelocity = outcome.linearVelocityB;
        bodyAt(row.bodyB).angularVelocity = outcome.angularVelocityB;
      }
    }
  }
  std::vector<PseudoVelocity> velocities;
  for (const impact::ContactBody& body : pseudo)
    velocities.push_back({body.linearVelocity, body.angularVelocity});
  return velocities;
}

}  // namespace carom::core::contact
