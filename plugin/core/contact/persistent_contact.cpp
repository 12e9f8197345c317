#include "carom/core/contact/persistent_contact.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <tuple>

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
// One contact of the sweep with what does not change during the solve (the bodies do not move):
// its bodies, lever arms r = p − x, Delassus matrix K, and K's parts in the contact frame.
struct SweepContact {
  SweepContact(const PersistentContact& c, const Contact& pair)
      : a(c.bodyA),
        b(c.bodyB),
        leverA(c.point - pair.a.centerOfMass),
        leverB(c.point - pair.b.centerOfMass),
        K(impact::inverseMassMatrix(pair)) {
    tangents.col(0) = c.normal.unitOrthogonal();
    tangents.col(1) = c.normal.cross(tangents.col(0));
    knn = c.normal.dot(K * c.normal);
    const Eigen::Matrix2d ktt = tangents.transpose() * K * tangents;
    stick = ktt.inverse();  // K_tt is positive definite: a contact has a body with mass
    const double half = 0.5 * (ktt(0, 0) + ktt(1, 1));
    largestTangential = half + std::hypot(0.5 * (ktt(0, 0) - ktt(1, 1)), ktt(0, 1));
  }
  int a, b;
  Vec3 leverA, leverB;
  Mat3 K;
  Eigen::Matrix<double, 3, 2> tangents;
  double knn;                // n·K n
  Eigen::Matrix2d stick;     // K_tt⁻¹, K_tt the tangential block
  double largestTangential;  // K_tt's largest eigenvalue
};

Vec3 solveLocal(const SweepContact& s, const Vec3& u0, const Vec3& P0, const Vec3& n, double mu) {
  const Mat3& K = s.K;
  const auto& tangents = s.tangents;
  const double knn = s.knn;
  const double pn = std::max(0.0, n.dot(P0) - n.dot(u0) / knn);
  Vec3 P = P0 + (pn - n.dot(P0)) * n;  // the normal update, tangential part unchanged
  const Vec3 u = u0 + K * (P - P0);
  const Eigen::Vector2d pt = tangents.transpose() * P, ut = tangents.transpose() * u;
  const double radius = mu * pn;
  Eigen::Vector2d next = pt - s.stick * ut;
  if (next.norm() > radius) {
    next = pt - ut / s.largestTangential;
    if (next.norm() > radius) next *= radius / next.norm();
  }
  return pn * n + tangents * next;
}

// The velocity of `index`'s material point at lever r (the world's is zero).
Vec3 pointVelocity(const std::vector<ContactBody>& bodies, int index, const Vec3& r) {
  if (index == kWorld) return Vec3::Zero();
  const ContactBody& body = bodies[static_cast<std::size_t>(index)];
  return body.linearVelocity + body.angularVelocity.cross(r);
}

Vec3 relativeVelocityOf(const std::vector<ContactBody>& bodies, const SweepContact& c) {
  return pointVelocity(bodies, c.b, c.leverB) - pointVelocity(bodies, c.a, c.leverA);
}

// The impulse P on B and −P on A: Δv = P/m, Δω = J⁻¹ (r × P).
void applyImpulse(std::vector<ContactBody>& bodies, const SweepContact& c, const Vec3& impulse) {
  for (const auto& [index, lever, sign] :
       {std::tuple{c.b, &c.leverB, 1.0}, std::tuple{c.a, &c.leverA, -1.0}}) {
    if (index == kWorld) continue;
    ContactBody& body = bodies[static_cast<std::size_t>(index)];
    const Vec3 p = sign * impulse;
    body.linearVelocity += body.inverseMass * p;
    body.angularVelocity += body.inverseInertiaWorld * lever->cross(p);
  }
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
  std::vector<SweepContact> sweep;
  sweep.reserve(contacts.size());
  for (const PersistentContact& c : contacts) {  // the warm start first
    sweep.emplace_back(c, pairOf(bodies, c));
    applyImpulse(bodies, sweep.back(), c.impulse);
  }

  PersistentContactReport report;
  report.status = PersistentContactStatus::kIterationLimit;
  std::vector<ContactBody> sweepStart;
  for (int iteration = 1; iteration <= settings.maxIterations; ++iteration) {
    sweepStart = bodies;
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      PersistentContact& c = contacts[i];
      const SweepContact& s = sweep[i];
      const Vec3 u0 = relativeVelocityOf(bodies, s);
      const Vec3 next = solveLocal(s, u0, c.impulse, c.normal, c.friction);
      applyImpulse(bodies, s, next - c.impulse);
      c.impulse = next;
    }
    // The change over the whole sweep: where contacts are redundant the impulses shift among
    // them, each shift moving its own contact, long after the motion has settled.
    double largestChange = 0.0;  // of a contact's relative velocity (m/s)
    for (const SweepContact& s : sweep) {
      largestChange =
          std::max(largestChange,
                   (relativeVelocityOf(bodies, s) - relativeVelocityOf(sweepStart, s)).norm());
    }
    report.iterations = iteration;
    if (largestChange <= settings.tolerance) {
      report.status = PersistentContactStatus::kConverged;
      break;
    }
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const double un = contacts[i].normal.dot(relativeVelocityOf(bodies, sweep[i]));
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
