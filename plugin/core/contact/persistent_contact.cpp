#include "carom/core/contact/persistent_contact.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "carom/error.h"

namespace carom::core::contact {
namespace {

using impact::Contact;
using impact::ContactBody;

const ContactBody kImmovable{};  // the world: zero inverse mass and inertia

const ContactBody& bodyAt(const std::vector<ContactBody>& bodies, int index) {
  return index == kWorld ? kImmovable : bodies[static_cast<std::size_t>(index)];
}

Contact pairOf(const std::vector<ContactBody>& bodies, const PersistentContact& c) {
  return {bodyAt(bodies, c.bodyA), bodyAt(bodies, c.bodyB), c.point, c.normal};
}

void validate(const std::vector<ContactBody>& bodies,
              const std::vector<PersistentContact>& contacts,
              const PersistentContactSettings& settings) {
  if (settings.maxIterations < 1) {
    throw Error("PersistentContactSettings.maxIterations must be at least 1");
  }
  if (!(settings.tolerance > 0.0) || !std::isfinite(settings.tolerance)) {
    throw Error("PersistentContactSettings.tolerance must be finite and positive");
  }
  const int count = static_cast<int>(bodies.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const PersistentContact& c = contacts[i];
    const std::string name = "persistent contact " + std::to_string(i);
    for (int index : {c.bodyA, c.bodyB}) {
      if (index != kWorld && (index < 0 || index >= count)) {
        throw Error(name + ": body index " + std::to_string(index) + " is out of range");
      }
    }
    if (c.bodyA == c.bodyB) throw Error(name + ": a body cannot touch itself");
    if (!std::isfinite(c.friction) || c.friction < 0.0) {
      throw Error(name + ": friction must be finite and non-negative");
    }
    if (!c.impulse.allFinite()) throw Error(name + ": warm-start impulse is not finite");
    try {
      impact::validateContact(pairOf(bodies, c));
    } catch (const Error& e) {
      throw Error(name + ": " + e.what());
    }
  }
}

// One contact's problem with the others' impulses frozen: relative velocity u(P) = u0 + K(P − P0)
// for the impulse P on B. Normal first, then friction (the staggered projected Gauss–Seidel of
// rigid-body engines), each a descent step on the kinetic energy:
//   P_n ← max(0, P_n − u_n / K_nn), the exact minimiser along n;
//   P_t ← the exact sticking impulse K_tt⁻¹ if it lies in the disk ‖P_t‖ ≤ μP_n, otherwise
//         proj_disk(P_t − u_t / k), k the largest eigenvalue of K_tt: a projected gradient step
//         whose fixed points on the rim have u_t ∥ −P_t, i.e. Coulomb's maximal dissipation
//         (a K_tt⁻¹-scaled step would make u_t ∥ −K_tt P_t instead).
Vec3 solveLocal(const Mat3& K, const Vec3& u0, const Vec3& P0, const Vec3& n, double mu) {
  Eigen::Matrix<double, 3, 2> tangents;
  tangents.col(0) = n.unitOrthogonal();
  tangents.col(1) = n.cross(tangents.col(0));
  const double knn = n.dot(K * n);
  const double pn = std::max(0.0, n.dot(P0) - n.dot(u0) / knn);
  Vec3 P = P0 + (pn - n.dot(P0)) * n;  // the normal update, tangential part unchanged
  const Vec3 u = u0 + K * (P - P0);
  const Eigen::Matrix2d ktt = tangents.transpose() * K * tangents;
  const Eigen::Vector2d pt = tangents.transpose() * P, ut = tangents.transpose() * u;
  const double radius = mu * pn;
  Eigen::Vector2d next = pt - ktt.ldlt().solve(ut);
  if (next.norm() > radius) {
    const double half = 0.5 * (ktt(0, 0) + ktt(1, 1));
    const double k = half + std::hypot(0.5 * (ktt(0, 0) - ktt(1, 1)), ktt(0, 1));
    next = pt - ut / k;
    if (next.norm() > radius) next *= radius / next.norm();
  }
  return pn * n + tangents * next;
}

}  // namespace

const char* toString(PersistentContactStatus status) {
  switch (status) {
    case PersistentContactStatus::kConverged:
      return "converged";
    case PersistentContactStatus::kIterationLimit:
      return "iteration limit reached";
  }
  return "unknown";
}

PersistentContactReport solvePersistentContacts(std::vector<ContactBody>& bodies,
                                                std::vector<PersistentContact>& contacts,
                                                const PersistentContactSettings& settings) {
  validate(bodies, contacts, settings);
  const auto totalEnergy = [&] {  // each body paired with the world, which adds nothing
    double energy = 0.0;
    for (const ContactBody& body : bodies)
      energy += impact::kineticEnergy({body, kImmovable});
    return energy;
  };
  const double energyBefore = totalEnergy();
  // Velocities follow the impulses; `u` and `K` are the contact's current relative velocity and
  // Delassus matrix, already known wherever this is called.
  const auto apply = [&](const PersistentContact& c, const Vec3& impulse, const Vec3& u,
                         const Mat3& K) {
    const impact::ImpactOutcome o =
        impact::applyImpulse(pairOf(bodies, c), impulse, {u, K, c.normal.dot(u)});
    if (c.bodyA != kWorld) {
      bodies[c.bodyA].linearVelocity = o.linearVelocityA;
      bodies[c.bodyA].angularVelocity = o.angularVelocityA;
    }
    if (c.bodyB != kWorld) {
      bodies[c.bodyB].linearVelocity = o.linearVelocityB;
      bodies[c.bodyB].angularVelocity = o.angularVelocityB;
    }
  };
  std::vector<Mat3> delassus;  // constant: the bodies do not move during the solve
  for (const PersistentContact& c : contacts) {  // the warm start first
    const Contact pair = pairOf(bodies, c);
    delassus.push_back(impact::inverseMassMatrix(pair));
    apply(c, c.impulse, impact::relativeVelocity(pair), delassus.back());
  }

  PersistentContactReport report;
  report.status = PersistentContactStatus::kIterationLimit;
  for (int sweep = 1; sweep <= settings.maxIterations; ++sweep) {
    double largestChange = 0.0;  // of a contact's relative velocity (m/s)
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      PersistentContact& c = contacts[i];
      const Vec3 u0 = impact::relativeVelocity(pairOf(bodies, c));
      const Vec3 next = solveLocal(delassus[i], u0, c.impulse, c.normal, c.friction);
      apply(c, next - c.impulse, u0, delassus[i]);
      largestChange = std::max(largestChange, (delassus[i] * (next - c.impulse)).norm());
      c.impulse = next;
    }
    report.iterations = sweep;
    if (largestChange <= settings.tolerance) {
      report.status = PersistentContactStatus::kConverged;
      break;
    }
  }
  for (const PersistentContact& c : contacts) {
    const double un = c.normal.dot(impact::relativeVelocity(pairOf(bodies, c)));
    report.penetrationRate = std::max(report.penetrationRate, -un);
  }
  report.energyChange = totalEnergy() - energyBefore;
  if (!report.ok()) {
    report.message = "persistent contacts: no convergence in " +
                     std::to_string(settings.maxIterations) + " sweeps";
  }
  return report;
}

}  // namespace carom::core::contact
