#include "carom/core/routh/restitution.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "carom/error.h"

namespace carom::core::routh {
namespace {

// Largest s ∈ [0, 1] with K_c + a s + ½ b s² ≤ K⁻ (b ≥ 0, K_c ≤ K⁻): the upper root, or 1.
double energyScale(double slack, double a, double b) {
  if (a + 0.5 * b <= slack) return 1.0;  // s = 1 already within budget
  if (slack <= 0.0) return 0.0;          // compression used the whole budget (round-off)
  // The quadratic exceeds the budget at s = 1 but not at 0, so b > 0 or a > slack > 0 and the
  // upper root lies in (0, 1]; 2·slack/(a + √(a² + 2b·slack)) is it without cancellation.
  return 2.0 * slack / (a + std::sqrt(a * a + 2.0 * b * slack));
}

}  // namespace

double restitutionScale(double slack, double a, double b, const Eigen::VectorXd& un,
                        const Eigen::VectorXd& dn) {
  double scale = energyScale(slack, a, b);
  // Contacts the restitution impulse would drive into approach stop it where they reach zero normal
  // velocity (or stay where they are, if already within the termination tolerance below zero):
  // J_n,i(v_c + sΔ) ≥ min(J_n,i v_c, 0).
  for (Eigen::Index i = 0; i < dn.size(); ++i)
    if (dn(i) < 0.0) scale = std::min(scale, std::max(0.0, un(i)) / -dn(i));
  return scale;
}

RestitutionResult resolveImpactWithRestitution(const ImpactProblem& problem,
                                               const Eigen::VectorXd& vMinus,
                                               const ImpactPolicy& policy,
                                               const Eigen::VectorXd& restitution) {
  if (restitution.size() != problem.contacts() || restitution.hasNaN() ||
      (restitution.array() < 0.0).any() || (restitution.array() > 1.0).any()) {
    throw Error("restitution must have one coefficient in [0, 1] per contact");
  }
  RestitutionResult result;
  result.compression = resolveImpact(problem, vMinus, policy);
  const ImpactOutcome& compressed = result.compression.outcome;
  result.v = compressed.v;
  if (!compressed.terminated()) return result;

  const Eigen::VectorXd eD = restitution.replicate(1, problem.directions()).transpose().reshaped();
  const Eigen::VectorXd delta = problem.velocityChange(
      restitution.cwiseProduct(compressed.impulseN), eD.cwiseProduct(compressed.impulseD));
  const Eigen::VectorXd Mdelta = problem.massMatrix() * delta;
  const double slack = problem.kineticEnergy(vMinus) - problem.kineticEnergy(compressed.v);
  const double scale =
      restitutionScale(slack, Mdelta.dot(compressed.v), Mdelta.dot(delta),
                       problem.normalJacobian() * compressed.v, problem.normalJacobian() * delta);
  result.scale = scale;
  result.v = compressed.v + scale * delta;
  return result;
}

}  // namespace carom::core::routh
