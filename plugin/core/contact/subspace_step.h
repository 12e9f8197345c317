// Subspace minimisation of the persistent-contact problem (Silcowitz, Niebe & Erleben 2009,
// "Projected Gauss–Seidel subspace minimization for interactive rigid body dynamics"): the rows
// that the Gauss–Seidel sweeps have made active are solved at once, as one linear system. Internal
// to carom_core (persistent_contact.cpp).
#pragma once

#include <optional>
#include <vector>

#include "sweep_contact.h"

namespace carom::core::contact {

// The change of every contact's impulse (contact frame; zero where it is not active) that makes
// the active rows exact with the other impulses as they are: a contact pressed (λ_n > 0) and
// sticking (‖λ_t‖ < μλ_n) holds u = (−c, 0, 0); pressed and sliding holds u_n = −c with its
// friction fixed; the rest keep their impulses. `u` is each contact's relative velocity now
// (contact frame). The rows are solved by conjugate gradients, matrix-free (each product costs
// about what a Gauss–Seidel sweep does), until no row's relative velocity is off by more than
// `tolerance` (m/s) or after `maxProducts` products. Nothing where no row is active.
std::optional<std::vector<Vec3>> subspaceStep(const std::vector<SweepContact>& sweep,
                                              const std::vector<PersistentContact>& contacts,
                                              const std::vector<Vec3>& lambda,
                                              const std::vector<Vec3>& u, std::size_t bodyCount,
                                              int maxProducts, double tolerance);

}  // namespace carom::core::contact
