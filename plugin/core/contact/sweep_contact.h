// A persistent contact as the contact solvers sweep it (persistent_contact.cpp, subspace_step.cpp):
// everything that does not change during a solve, in the contact frame. Internal to carom_core.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "carom/core/contact/persistent_contact.h"

namespace carom::core::contact {

// One contact's problem with the others' impulses frozen: relative velocity u(P) = u0 + K(P − P0)
// for the impulse P on B, K the Delassus matrix in the contact frame (n, t₁, t₂). A sweep then
// costs a few 3-vector products per contact.
struct SweepContact {
  // c's bodies, `a` and `b`, as the solve has them (an immovable one for the world).
  SweepContact(const PersistentContact& c, const impact::ContactBody& a,
               const impact::ContactBody& b);
  int a, b;
  double inverseMassA, inverseMassB;
  Mat3 frame;       // columns n, t₁, t₂ (world)
  Mat3 armA, armB;  // columns r × d_k, r = p − x: u along d_k gains ω·(r × d_k)
  // The rows of frame, armA and armB as columns of four, the fourth zero: the relative velocity
  // Fᵀv + Bᵀω_B − Aᵀω_A is then a sum of whole columns, two doubles at a time (relativeVelocityOf,
  // every local solve's first product), in the order of the 3×3 products' dot products.
  Eigen::Matrix<double, 4, 3> rowsOfFrame, rowsOfArmA, rowsOfArmB;
  Mat3 turnA, turnB;              // columns J⁻¹(r × d_k): the turn per unit impulse along d_k
  double turnBoundA, turnBoundB;  // Frobenius norms of turnA, turnB: |Δω| ≤ this × |λ|
  // Of K, the Delassus matrix in the contact frame: its first column (the change of u per unit
  // normal impulse, each sweep's normal update) and its diagonal (the subspace steps' scaling).
  // The whole of it would be a sixth more memory for each sweep to stream.
  Vec3 normalColumn, diagonal;
  double inverseKnn;      // 1/K_nn: a multiplication in each sweep's normal update
  Eigen::Matrix2d stick;  // K_tt⁻¹, K_tt the tangential block
  // 1/(K_nn − K_tnᵀ K_tt⁻¹ K_tn), K_tn the normal column's tangential part: the normal row of K's
  // Schur complement, which solves the whole 3×3 block for a contact that sticks; 0 where it is
  // too ill-conditioned to trust.
  double inverseSchurNormal;
  double largestTangential;  // K_tt's largest eigenvalue
};

// Whether contacts c and d share no body (the world, which nothing moves, aside): their local
// solves read and write none of each other's velocities.
inline bool apart(const SweepContact& c, const SweepContact& d) {
  const auto shared = [&](int body) { return body != kWorld && (body == d.a || body == d.b); };
  return !shared(c.a) && !shared(c.b);
}

// The staggered step of solveLocal: normal first, then friction (the projected Gauss–Seidel of
// rigid-body engines), each a descent step on the kinetic energy:
//   P_n ← max(0, P_n − (u_n + c) / K_nn), the exact minimiser along n;
//   P_t ← the exact sticking impulse K_tt⁻¹ if it lies in the disk ‖P_t‖ ≤ μP_n, otherwise
//         proj_disk(P_t − u_t / k), k the largest eigenvalue of K_tt: a projected gradient step
//         whose fixed points on the rim have u_t ∥ −P_t, i.e. Coulomb's maximal dissipation
//         (a K_tt⁻¹-scaled step would make u_t ∥ −K_tt P_t instead).
inline Vec3 solveStaggered(const SweepContact& s, const Vec3& u0, const Vec3& lambda0, double mu,
                           double approach) {
  const double pn = std::max(0.0, lambda0(0) - (u0(0) + approach) * s.inverseKnn);
  const Vec3 u = u0 + s.normalColumn * (pn - lambda0(0));  // the normal update, tangents unchanged
  const Eigen::Vector2d pt = lambda0.tail<2>(), ut = u.tail<2>();
  // Compared squared: the square roots and divisions of a sweep are most of its latency.
  const double radius = mu * pn, radiusSquared = radius * radius;
  Eigen::Vector2d next = pt - s.stick * ut;
  if (next.squaredNorm() > radiusSquared) {
    next = pt - ut / s.largestTangential;
    const double squared = next.squaredNorm();
    if (squared > radiusSquared) next *= radius / std::sqrt(squared);
  }
  return {pn, next(0), next(1)};
}

// The contact-frame impulse after one local solve, from λ0 with relative velocity u0 (contact
// frame). With `stickingBlock` (PersistentContactSettings::stickingBlocks), first the contact's
// own 3×3 problem exactly, K Δλ = −(u0 + c n): where that impulse presses and lies in the friction
// disk (the contact sticks) it is the local solution. Otherwise the staggered step.
inline Vec3 solveLocal(const SweepContact& s, const Vec3& u0, const Vec3& lambda0, double mu,
                       double approach, bool stickingBlock) {
  if (stickingBlock && mu > 0.0 && s.inverseSchurNormal > 0.0) {
    const Eigen::Vector2d ktn = s.normalColumn.tail<2>(), stuck = s.stick * u0.tail<2>();
    const double dn = (ktn.dot(stuck) - (u0(0) + approach)) * s.inverseSchurNormal;
    const double pn = lambda0(0) + dn;
    const Eigen::Vector2d pt = lambda0.tail<2>() - stuck - s.stick * (ktn * dn);
    if (pn > 0.0 && pt.squaredNorm() <= mu * mu * pn * pn) return {pn, pt(0), pt(1)};
  }
  return solveStaggered(s, u0, lambda0, mu, approach);
}

// The nearest impulse to λ (contact frame) with λ_n ≥ 0 and ‖λ_t‖ ≤ μ λ_n, the tangent scaled
// onto the disk.
inline Vec3 onFrictionCone(const Vec3& lambda, double mu) {
  const double pn = std::max(0.0, lambda(0));
  Eigen::Vector2d pt = lambda.tail<2>();
  const double radius = mu * pn, squared = pt.squaredNorm();
  if (squared > radius * radius) pt *= radius / std::sqrt(squared);
  return {pn, pt(0), pt(1)};
}

// The contact-frame relative velocity u = v_B + ω_B × r_B − (v_A + ω_A × r_A) of velocities
// v, ω indexed like the bodies (the world's are zero).
inline Vec3 relativeVelocityOf(const std::vector<Vec3>& v, const std::vector<Vec3>& w,
                               const SweepContact& c) {
  // Mᵀx with M's rows stored as padded columns: Σ_j x_j (row j of M).
  const auto transposedTimes = [](const Eigen::Matrix<double, 4, 3>& rows, const Vec3& x) {
    Eigen::Vector4d sum = rows.col(0) * x.x();
    sum += rows.col(1) * x.y();
    sum += rows.col(2) * x.z();
    return sum;
  };
  if (c.a == kWorld) {
    return (transposedTimes(c.rowsOfFrame, v[c.b]) + transposedTimes(c.rowsOfArmB, w[c.b]))
        .head<3>();
  }
  if (c.b == kWorld) {
    return -(transposedTimes(c.rowsOfFrame, v[c.a]) + transposedTimes(c.rowsOfArmA, w[c.a]))
                .head<3>();
  }
  return (transposedTimes(c.rowsOfFrame, v[c.b] - v[c.a]) + transposedTimes(c.rowsOfArmB, w[c.b]) -
          transposedTimes(c.rowsOfArmA, w[c.a]))
      .head<3>();
}

}  // namespace carom::core::contact
