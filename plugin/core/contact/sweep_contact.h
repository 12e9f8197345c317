// A persistent contact as the contact solvers sweep it (persistent_contact.cpp, subspace_step.cpp):
// everything that does not change during a solve, in the contact frame. Internal to carom_core.
#pragma once

#include <vector>

#include "carom/core/contact/persistent_contact.h"

namespace carom::core::contact {

// One contact's problem with the others' impulses frozen: relative velocity u(P) = u0 + K(P − P0)
// for the impulse P on B, K the Delassus matrix in the contact frame (n, t₁, t₂). A sweep then
// costs a few 3-vector products per contact.
struct SweepContact {
  SweepContact(const PersistentContact& c, const impact::Contact& pair);
  int a, b;
  double inverseMassA, inverseMassB;
  Mat3 frame;                // columns n, t₁, t₂ (world)
  Mat3 armA, armB;           // columns r × d_k, r = p − x: u along d_k gains ω·(r × d_k)
  Mat3 turnA, turnB;         // columns J⁻¹(r × d_k): the turn per unit impulse along d_k
  Mat3 K;                    // the Delassus matrix in the contact frame
  Eigen::Matrix2d stick;     // K_tt⁻¹, K_tt the tangential block
  double largestTangential;  // K_tt's largest eigenvalue
};

// The contact-frame impulse after one local solve, from λ0 with relative velocity u0 (contact
// frame): normal first, then friction (the staggered projected Gauss–Seidel of rigid-body
// engines), each a descent step on the kinetic energy:
//   P_n ← max(0, P_n − (u_n + c) / K_nn), the exact minimiser along n;
//   P_t ← the exact sticking impulse K_tt⁻¹ if it lies in the disk ‖P_t‖ ≤ μP_n, otherwise
//         proj_disk(P_t − u_t / k), k the largest eigenvalue of K_tt: a projected gradient step
//         whose fixed points on the rim have u_t ∥ −P_t, i.e. Coulomb's maximal dissipation
//         (a K_tt⁻¹-scaled step would make u_t ∥ −K_tt P_t instead).
Vec3 solveLocal(const SweepContact& s, const Vec3& u0, const Vec3& lambda0, double mu,
                double approach);

// The nearest impulse to λ (contact frame) with λ_n ≥ 0 and ‖λ_t‖ ≤ μ λ_n, the tangent scaled
// onto the disk.
Vec3 onFrictionCone(const Vec3& lambda, double mu);

// The contact-frame relative velocity u = v_B + ω_B × r_B − (v_A + ω_A × r_A) of velocities
// v, ω indexed like the bodies (the world's are zero).
Vec3 relativeVelocityOf(const std::vector<Vec3>& v, const std::vector<Vec3>& w,
                        const SweepContact& c);

}  // namespace carom::core::contact
