// Subspace minimisation of the persistent-contact problem (Silcowitz, Niebe & Erleben 2009,
// "Projected Gauss–Seidel subspace minimization for interactive rigid body dynamics"): the rows
// that the Gauss–Seidel sweeps have made active are solved at once, as one linear system. Internal
// to carom_core (persistent_contact.cpp).
#pragma once

#include <optional>
#include <vector>

#include "carom/core/impact/contact.h"
#include "sweep_contact.h"

namespace carom::core::contact {

// The change of every contact's impulse (contact frame; zero where it is not active) that makes
// the active rows exact with the other impulses as they are: a contact pressed (λ_n > 0) and
// sticking (‖λ_t‖ < μλ_n) holds u = (−c, 0, 0); pressed and sliding holds u_n = −c with its
// friction fixed; the rest keep their impulses. `u` is each contact's relative velocity now
// (contact frame); `bodies` the solve's bodies (their inverse mass and inertia). `maxProducts` and
// `tolerance` (m/s) bound kConjugateGradients, which stops early where a direction is nearly in A's
// null space. kDirect: with A = B Bᵀ (B = J M^{-1/2}, six columns per body), the least-norm
// x = B (BᵀB)⁻² Bᵀ r from one sparse LDLᵀ factorisation of BᵀB, regularised by 1e-12 of its largest
// diagonal entry (redundant contacts make A singular, a body held in fewer than six directions
// BᵀB) and refined twice with the same factor. Nothing where no row is active or the solve fails.
std::optional<std::vector<Vec3>> subspaceStep(const std::vector<SweepContact>& sweep,
                                              const std::vector<PersistentContact>& contacts,
                                              const std::vector<Vec3>& lambda,
                                              const std::vector<Vec3>& u,
                                              const std::vector<impact::ContactBody>& bodies,
                                              SubspaceMethod method, int maxProducts,
                                              double tolerance);

}  // namespace carom::core::contact
