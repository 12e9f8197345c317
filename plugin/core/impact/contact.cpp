#include "carom/core/impact/contact.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>

#include "carom/core/lie.h"
#include "carom/error.h"
#include "law_support.h"

namespace carom::core::impact {
namespace {

// Whether the symmetric m is positive definite: the three pivots of m = LDLᵀ (Cholesky without
// square roots, written out for 3×3) are positive. Eigen's generic LLT took as long as a strict
// map.
bool positiveDefinite(const Mat3& m) {
  const double d1 = m(0, 0);
  if (!(d1 > 0.0)) return false;
  const double l21 = m(1, 0) / d1, l31 = m(2, 0) / d1;
  const double d2 = m(1, 1) - l21 * m(1, 0);
  if (!(d2 > 0.0)) return false;
  const double l32 = (m(2, 1) - l31 * m(1, 0)) / d2;
  const double d3 = m(2, 2) - l31 * m(2, 0) - l32 * l32 * d2;
  return d3 > 0.0;
}

bool immovable(const ContactBody& body) {
  return body.inverseMass == 0.0 && body.inverseInertiaWorld.isZero(0.0);
}

double bodyKineticEnergy(const ContactBody& body) {
  double energy = 0.0;
  if (body.inverseMass > 0.0) energy += 0.5 * body.linearVelocity.squaredNorm() / body.inverseMass;
  const Mat3& inverseInertia = body.inverseInertiaWorld;
  if (!inverseInertia.isZero(0.0)) {
    // ½ωᵀJω with J the inverse of J⁻¹: by cofactors where J⁻¹ is well conditioned (every free body;
    // the persistent-contact solver reads every body's energy twice per solve, and a decomposition
    // here would be a noticeable part of a big pile's step), else its pseudo-inverse (a body
    // rotationally locked about some axes).
    Mat3 inertia;
    bool invertible = false;
    const double scale = inverseInertia.cwiseAbs().maxCoeff();
    inverseInertia.computeInverseWithCheck(inertia, invertible, 1e-9 * scale * scale * scale);
    const Vec3 momentum = invertible ? (inertia * body.angularVelocity).eval()
                                     : Eigen::CompleteOrthogonalDecomposition<Mat3>(inverseInertia)
                                           .solve(body.angularVelocity);
    energy += 0.5 * body.angularVelocity.dot(momentum);
  }
  return energy;
}

}  // namespace

void validateContactBody(const ContactBody& body, const std::string& role) {
  if (!std::isfinite(body.inverseMass) || body.inverseMass < 0.0) {
    throw Error("contact body " + role + ": inverse mass must be finite and non-negative");
  }
  if (!body.inverseInertiaWorld.allFinite()) {
    throw Error("contact body " + role + ": inverse inertia is not finite");
  }
  const Mat3& inertia = body.inverseInertiaWorld;
  const double scale = inertia.cwiseAbs().maxCoeff();
  if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale) {
    throw Error("contact body " + role + ": inverse inertia is not symmetric");
  }
  // Smallest eigenvalue >= −1e-12 scale, tested as "J⁻¹ + 1e-12 scale I is positive definite":
  // the pivots of its LDLᵀ factorization instead of an eigen-decomposition on every impact. Their
  // rounding (~1e-15 scale) is far below the tolerance, so the verdict is the eigenvalue test's.
  if (scale > 0.0 && !positiveDefinite(inertia + 1e-12 * scale * Mat3::Identity())) {
    throw Error("contact body " + role + ": inverse inertia is not positive semi-definite");
  }
  if (!body.centerOfMass.allFinite())
    throw Error("contact body " + role + ": centre of mass is not finite");
  if (!body.linearVelocity.allFinite())
    throw Error("contact body " + role + ": linear velocity is not finite");
  if (!body.angularVelocity.allFinite())
    throw Error("contact body " + role + ": angular velocity is not finite");
}

void validateContact(const Contact& contact) {
  validateContactBody(contact.a, "A");
  validateContactBody(contact.b, "B");
  validateContactGeometry(contact);
}

void validateContactGeometry(const Contact& contact) {
  if (!contact.point.allFinite()) throw Error("contact point is not finite");
  if (!contact.normal.allFinite() || std::abs(contact.normal.norm() - 1.0) > 1e-9) {
    throw Error("contact normal must be finite and of unit length");
  }
  if (immovable(contact.a) && immovable(contact.b)) {
    throw Error("contact: both bodies are immovable (zero inverse mass and inertia)");
  }
}

Vec3 relativeVelocity(const Contact& contact) {
  return pointVelocity(contact.b, contact.point) - pointVelocity(contact.a, contact.point);
}

Mat3 inverseMassMatrix(const Contact& contact) {
  const Mat3 sA = hat(contact.point - contact.a.centerOfMass);
  const Mat3 sB = hat(contact.point - contact.b.centerOfMass);
  return (contact.a.inverseMass + contact.b.inverseMass) * Mat3::Identity() -
         sA * contact.a.inverseInertiaWorld * sA - sB * contact.b.inverseInertiaWorld * sB;
}

double kineticEnergy(const Contact& contact) {
  return bodyKineticEnergy(contact.a) + bodyKineticEnergy(contact.b);
}

ImpactOutcome applyImpulse(const Contact& contact, const Vec3& impulseOnB) {
  return applyImpulse(contact, impulseOnB,
                      {relativeVelocity(contact), inverseMassMatrix(contact), 0.0});
}

ImpactOutcome applyImpulse(const Contact& contact, const Vec3& impulseOnB,
                           const ContactKinematics& kinematics) {
  const Vec3 rA = contact.point - contact.a.centerOfMass;
  const Vec3 rB = contact.point - contact.b.centerOfMass;
  ImpactOutcome outcome;
  outcome.impulse = impulseOnB;
  outcome.linearVelocityA = contact.a.linearVelocity - contact.a.inverseMass * impulseOnB;
  outcome.angularVelocityA =
      contact.a.angularVelocity - contact.a.inverseInertiaWorld * rA.cross(impulseOnB);
  outcome.linearVelocityB = contact.b.linearVelocity + contact.b.inverseMass * impulseOnB;
  outcome.angularVelocityB =
      contact.b.angularVelocity + contact.b.inverseInertiaWorld * rB.cross(impulseOnB);
  // ΔT = P·(u⁻ + u⁺)/2 = P·u⁻ + ½PᵀKP: exact, and free of the cancellation of T⁺ − T⁻.
  outcome.energyChange = impulseOnB.dot(kinematics.relativeVelocity) +
                         0.5 * impulseOnB.dot(kinematics.inverseMass * impulseOnB);
  return outcome;
}

Contact contactWithResponse(const Mat3& inverseMass, const Vec3& relativeVelocity,
                            const Vec3& normal) {
  if (!inverseMass.allFinite() ||
      !(inverseMass - inverseMass.transpose()).isZero(1e-12 * inverseMass.norm()))
    throw Error("contactWithResponse: the inverse mass matrix must be finite and symmetric");
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(inverseMass);
  const double largest = eigen.eigenvalues()(2);
  if (!(largest > 0) || eigen.eigenvalues()(0) < -1e-12 * largest)
    throw Error(
        "contactWithResponse: the inverse mass matrix must be positive semi-definite and not zero");
  // B = one body at the origin with 1/m = λ_min and its contact point r = e_min (unit): then
  // K_B = λ_min I − S J⁻¹ S with S = hat(r), and J⁻¹ = −S K' S, K' = K − λ_min I, gives
  // −S J⁻¹ S = S² K' S² = K', since S² = r rᵀ − I and K' r = 0.
  const double smallest = std::max(eigen.eigenvalues()(0), 0.0);
  const Vec3 r = eigen.eigenvectors().col(0);
  const Mat3 s = hat(r);
  const Mat3 rest = inverseMass - smallest * Mat3::Identity();
  Contact contact;
  contact.b.inverseMass = smallest;
  contact.b.inverseInertiaWorld = -s * rest * s;
  contact.b.inverseInertiaWorld =
      0.5 * (contact.b.inverseInertiaWorld + contact.b.inverseInertiaWorld.transpose().eval());
  contact.b.linearVelocity = relativeVelocity;
  contact.point = r;
  contact.normal = normal;
  return contact;
}

}  // namespace carom::core::impact
