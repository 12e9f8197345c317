// Restitution for simultaneous impacts, which the paper leaves to future work (digest §4.6;
// its conclusion points to Stronge-type restitution).
//
// Method (Poisson-type, per contact, with an energy guard):
//   (1) compression: resolve the impact inelastically with any policy → v_c and the total contact
//       impulses Λ_i = (Λ_n,i, Λ_D,i);
//   (2) restitution: add each contact's compression impulse again, scaled by its coefficient e_i,
//       Δ = M⁻¹ Σ_i J̄_iᵀ (e_i Λ_i), and take v⁺ = v_c + s Δ with the largest s ∈ [0, 1] such that
//       K(v⁺) ≤ K(v⁻) and no contact approaches (J_n,i v⁺ ≥ min(J_n,i v_c, 0)).
// For one frictionless contact s = 1 and this is Newton's law J_n v⁺ = −e J_n v⁻; while the contact
// sticks or slides in one direction, Poisson's and Stronge's energetic coefficients coincide, so
// e_i is Stronge's coefficient there (Stronge 2000, ch. 4). With several contacts or slip reversal
// the scaled impulse can add energy; the guard then lowers s, which it can always do since s = 0
// is the inelastic outcome (no gain, Theorem 7). Both constraints are explicit in s: the contacts'
// are linear, the energy's a convex quadratic K_c + a s + ½ b s², so s has a closed form.
#pragma once

#include <Eigen/Dense>

#include "carom/core/routh/policy.h"
#include "carom/core/routh/problem.h"

namespace carom::core::routh {

struct RestitutionResult {
  Eigen::VectorXd v;         ///< v⁺ = v_c + s Δ
  double scale = 0.0;        ///< s ∈ [0, 1]; 1 when the guard did not act
  PolicyResult compression;  ///< phase (1), v_c = compression.outcome.v
};

/// Phase (2)'s scale: the largest s ∈ [0, 1] with K_c + a s + ½ b s² ≤ K_c + `slack` (slack =
/// K(v⁻) − K(v_c) ≥ 0, a = (MΔ)·v_c, b = Δ·MΔ ≥ 0) and un_i + s dn_i ≥ min(un_i, 0) for every
/// contact (un = J_n v_c, dn = J_n Δ). Shared by every way of taking the compression phase.
double restitutionScale(double slack, double a, double b, const Eigen::VectorXd& un,
                        const Eigen::VectorXd& dn);

/// e: one coefficient per contact in [0, 1] (dimensionless). Throws carom::Error naming
/// `restitution` or the policy's parameters on bad input. If the compression phase did not
/// terminate (see PolicyResult), the restitution phase is skipped (s = 0) and the message kept.
RestitutionResult resolveImpactWithRestitution(const ImpactProblem& problem,
                                               const Eigen::VectorXd& vMinus,
                                               const ImpactPolicy& policy,
                                               const Eigen::VectorXd& restitution);

}  // namespace carom::core::routh
