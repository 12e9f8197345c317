// libFuzzer target: the impact laws and Lemke's method on random valid inputs, checking what they
// promise. Every law: finite outputs, and the momentum of two movable bodies kept; strict maps keep
// the kinetic energy, Stronge's law (Jia–Wang) never gains any. Lemke on a positive definite M (a
// P-matrix, for which it always solves): a solution within its residual bound. A broken promise
// stops the run (__builtin_trap), a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <Eigen/Eigenvalues>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "carom/core/impact/contact.h"
#include "carom/core/impact/law.h"
#include "carom/core/impact/material.h"
#include "carom/core/lcp/lemke.h"

namespace {

using carom::core::Mat3;
using carom::core::Vec3;
namespace impact = carom::core::impact;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

Vec3 vectorIn(FuzzedDataProvider& data, double bound) {
  Vec3 v;
  for (int i = 0; i < 3; ++i)
    v(i) = data.ConsumeFloatingPointInRange(-bound, bound);
  return v;
}

// A body of mass 0.01 to 100 kg and principal moments 1e-4 to 10 kg m² turned by a random rotation,
// or an immovable one.
impact::ContactBody bodyFrom(FuzzedDataProvider& data, bool movable) {
  impact::ContactBody body;
  body.centerOfMass = vectorIn(data, 1);
  body.linearVelocity = vectorIn(data, 10);
  body.angularVelocity = vectorIn(data, 10);
  if (!movable) return body;
  body.inverseMass = 1 / data.ConsumeFloatingPointInRange(0.01, 100.0);
  Vec3 moments;
  for (int i = 0; i < 3; ++i)
    moments(i) = data.ConsumeFloatingPointInRange(1e-4, 10.0);
  const Vec3 axis = vectorIn(data, 1);
  const Mat3 turn =
      axis.norm() > 1e-6
          ? Eigen::AngleAxisd(axis.norm() * M_PI, axis.normalized()).toRotationMatrix()
          : Mat3::Identity();
  body.inverseInertiaWorld = turn * moments.cwiseInverse().asDiagonal() * turn.transpose();
  body.inverseInertiaWorld =
      0.5 * (body.inverseInertiaWorld + body.inverseInertiaWorld.transpose());
  return body;
}

// The kinetic energy a law keeps or loses is exact only to round-off, which grows with the
// conditioning of the contact's inverse mass matrix K: the impulse x = K⁻¹u is solved in double
// precision, and the energy change of the strict map, 2xᵀ(Kx − u), is of the order of
// ε cond(K) T (the bodies drawn here give cond(K) up to about 1e7). Relative to T; the factor 1e3
// stands well above the 42 seen.
double roundOffOf(const impact::Contact& contact) {
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(impact::inverseMassMatrix(contact));
  const double smallest = eigen.eigenvalues()(0), largest = eigen.eigenvalues()(2);
  return smallest > 0 ? 1e3 * DBL_EPSILON * largest / smallest : INFINITY;
}

void checkLaw(FuzzedDataProvider& data) {
  const bool movableA = data.ConsumeBool();
  impact::Contact contact{bodyFrom(data, movableA), bodyFrom(data, true), vectorIn(data, 1),
                          vectorIn(data, 1)};
  if (contact.normal.norm() < 1e-3) return;
  contact.normal.normalize();
  // The laws take approaching contacts only (they refuse others): the normal turned to approach.
  const double normalSpeed = contact.normal.dot(impact::relativeVelocity(contact));
  if (std::abs(normalSpeed) < 1e-6) return;
  if (normalSpeed > 0) contact.normal = -contact.normal;
  impact::Material material;
  material.impact =
      data.PickValueInArray({impact::ImpactLawKind::kStrict, impact::ImpactLawKind::kStronge,
                             impact::ImpactLawKind::kNewton, impact::ImpactLawKind::kPoisson});
  material.restitution = data.ConsumeFloatingPointInRange(0.0, 1.0);
  material.friction = data.ConsumeFloatingPointInRange(0.0, 2.0);
  material.roughness = data.ConsumeIntegralInRange(0, 2);
  const Vec3 tangent = contact.normal.unitOrthogonal();
  const impact::ImpactOutcome outcome =
      impact::applyLaw(contact, impact::impactLaw(material, tangent));
  require(outcome.linearVelocityA.allFinite() && outcome.angularVelocityA.allFinite() &&
          outcome.linearVelocityB.allFinite() && outcome.angularVelocityB.allFinite() &&
          outcome.impulse.allFinite() && std::isfinite(outcome.energyChange));
  if (movableA) {
    const auto momentum = [&](const Vec3& va, const Vec3& vb) {
      return (va / contact.a.inverseMass + vb / contact.b.inverseMass).eval();
    };
    const Vec3 change = momentum(outcome.linearVelocityA, outcome.linearVelocityB) -
                        momentum(contact.a.linearVelocity, contact.b.linearVelocity);
    require(change.norm() <= 1e-8 * (outcome.impulse.norm() + 1));
  }
  if (!outcome.resolved) return;
  if (material.impact != impact::ImpactLawKind::kStrict &&
      material.impact != impact::ImpactLawKind::kStronge)
    return;
  const double tolerance = (1e-8 + roundOffOf(contact)) * (impact::kineticEnergy(contact) + 1e-12);
  if (material.impact == impact::ImpactLawKind::kStrict && material.restitution == 1.0)
    require(std::abs(outcome.energyChange) <= tolerance);
  require(outcome.energyChange <= tolerance);
}

void checkLemke(FuzzedDataProvider& data) {
  const int n = data.ConsumeIntegralInRange(1, 8);
  Eigen::MatrixXd A(n, n);
  Eigen::VectorXd q(n);
  for (int i = 0; i < n; ++i) {
    q(i) = data.ConsumeFloatingPointInRange(-1.0, 1.0);
    for (int j = 0; j < n; ++j)
      A(i, j) = data.ConsumeFloatingPointInRange(-1.0, 1.0);
  }
  const Eigen::MatrixXd M = A * A.transpose() + 1e-3 * Eigen::MatrixXd::Identity(n, n);
  const carom::core::lcp::LcpResult result = carom::core::lcp::solveLemke(M, q);
  require(result.solved() && result.residual <= result.residualBound);
  require((result.z.array() >= -result.residualBound).all() &&
          (result.w.array() >= -result.residualBound).all());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  FuzzedDataProvider data(bytes, size);
  if (data.ConsumeBool()) {
    checkLaw(data);
  } else {
    checkLemke(data);
  }
  return 0;
}
