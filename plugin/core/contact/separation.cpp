#include "carom/core/contact/separation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "carom/core/contact/persistent_contact.h"
#include "carom/error.h"

namespace carom::core::contact {

namespace {

// separationVelocities through a jointed system: each impulse moves the bodies as the system
// moves (applyHeldImpulse), its response n·K·n that of the held system (heldInverseMassMatrix).
std::vector<PseudoVelocity> heldSeparationVelocities(const std::vector<impact::ContactBody>& bodies,
                                                     const std::vector<Separation>& rows,
                                                     int sweeps, const JointSystem& joints) {
  // The bodies with their pseudo velocities (zero at the start) in place of their velocities.
  std::vector<impact::ContactBody> pseudo(bodies);
  for (impact::ContactBody& body : pseudo) {
    body.linearVelocity.setZero();
    body.angularVelocity.setZero();
  }
  const impact::ContactBody immovable{};
  const auto contactOf = [&](const Separation& row) {
    const auto bodyAt = [&](int index) -> const impact::ContactBody& {
      return index == kWorld ? immovable : pseudo[static_cast<std::size_t>(index)];
    };
    return impact::Contact{bodyAt(row.bodyA), bodyAt(row.bodyB), row.point, row.normal};
  };
  std::vector<double> response;  // masses only, so computed once
  for (const Separation& row : rows) {
    const Mat3 k = heldInverseMassMatrix(pseudo, joints, row.bodyA, row.bodyB, row.point);
    response.push_back(row.normal.dot(k * row.normal));
  }
  std::vector<double> impulse(rows.size(), 0.0);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Separation& row = rows[i];
      if (!(response[i] > 0)) continue;  // nothing the push can move
      const double un = impact::relativeVelocity(contactOf(row)).dot(row.normal);
      const double total = std::max(impulse[i] + (row.speed - un) / response[i], 0.0);
      applyHeldImpulse(pseudo, joints, row.bodyA, row.bodyB, row.point,
                       (total - impulse[i]) * row.normal);
      impulse[i] = total;
    }
  }
  std::vector<PseudoVelocity> velocities;
  for (const impact::ContactBody& body : pseudo)
    velocities.push_back({body.linearVelocity, body.angularVelocity});
  return velocities;
}

}  // namespace

std::vector<PseudoVelocity> separationVelocities(const std::vector<impact::ContactBody>& bodies,
                                                 const std::vector<Separation>& rows, int sweeps,
                                                 const JointSystem* joints) {
  if (sweeps < 1) throw Error("separationVelocities: sweeps must be at least 1");
  const int count = static_cast<int>(bodies.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Separation& row = rows[i];
    const auto name = [i] { return "separation " + std::to_string(i); };  // built only to throw
    for (const int index : {row.bodyA, row.bodyB}) {
      if (index != kWorld && (index < 0 || index >= count))
        throw Error(name() + ": body index " + std::to_string(index) + " is out of range");
    }
    if (row.bodyA == row.bodyB) throw Error(name() + ": a body cannot overlap itself");
    if (!row.point.allFinite()) throw Error(name() + ": point is not finite");
    if (!row.normal.allFinite() || std::abs(row.normal.norm() - 1.0) > 1e-9)
      throw Error(name() + ": normal must be finite and of unit length");
    if (!std::isfinite(row.speed) || row.speed < 0)
      throw Error(name() + ": speed must be finite and non-negative");
  }
  if (joints) return heldSeparationVelocities(bodies, rows, sweeps, *joints);
  // Each row's bodies, arms and turns, fixed during the sweeps: a sweep then costs a few dot
  // products per row, as Bullet's solver bodies make it.
  struct Row {
    int a, b;
    Vec3 normal, armA, armB;  // arms r × n, r = p − x
    Vec3 turnA, turnB;        // J⁻¹ (r × n): the turn per unit impulse along n
    double inverseMassA, inverseMassB;
    double response;  // n·K·n (1/kg)
    double speed;
  };
  const impact::ContactBody immovable{};
  const auto bodyAt = [&](int index) -> const impact::ContactBody& {
    return index == kWorld ? immovable : bodies[static_cast<std::size_t>(index)];
  };
  std::vector<Row> prepared;
  prepared.reserve(rows.size());
  for (const Separation& row : rows) {
    const impact::ContactBody& a = bodyAt(row.bodyA);
    const impact::ContactBody& b = bodyAt(row.bodyB);
    Row r{row.bodyA,
          row.bodyB,
          row.normal,
          (row.point - a.centerOfMass).cross(row.normal),
          (row.point - b.centerOfMass).cross(row.normal),
          Vec3::Zero(),
          Vec3::Zero(),
          a.inverseMass,
          b.inverseMass,
          0.0,
          row.speed};
    r.turnA = a.inverseInertiaWorld * r.armA;
    r.turnB = b.inverseInertiaWorld * r.armB;
    r.response = r.inverseMassA + r.inverseMassB + r.armA.dot(r.turnA) + r.armB.dot(r.turnB);
    prepared.push_back(r);
  }
  std::vector<PseudoVelocity> velocities(bodies.size());
  std::vector<double> impulse(rows.size(), 0.0);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (std::size_t i = 0; i < prepared.size(); ++i) {
      const Row& row = prepared[i];
      if (!(row.response > 0)) continue;  // nothing the push can move
      double un = 0.0;
      if (row.b != kWorld) {
        const PseudoVelocity& b = velocities[static_cast<std::size_t>(row.b)];
        un += row.normal.dot(b.linear) + row.armB.dot(b.angular);
      }
      if (row.a != kWorld) {
        const PseudoVelocity& a = velocities[static_cast<std::size_t>(row.a)];
        un -= row.normal.dot(a.linear) + row.armA.dot(a.angular);
      }
      const double total = std::max(impulse[i] + (row.speed - un) / row.response, 0.0);
      const double step = total - impulse[i];
      impulse[i] = total;
      if (row.b != kWorld) {
        PseudoVelocity& b = velocities[static_cast<std::size_t>(row.b)];
        b.linear += (row.inverseMassB * step) * row.normal;
        b.angular += step * row.turnB;
      }
      if (row.a != kWorld) {
        PseudoVelocity& a = velocities[static_cast<std::size_t>(row.a)];
        a.linear -= (row.inverseMassA * step) * row.normal;
        a.angular -= step * row.turnA;
      }
    }
  }
  return velocities;
}

}  // namespace carom::core::contact
