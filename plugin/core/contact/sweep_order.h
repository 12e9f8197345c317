// The order in which a Gauss–Seidel sweep solves its contacts (persistent_contact.cpp). Internal to
// carom_core.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "sweep_contact.h"

namespace carom::core::contact {

// Scratch memory of sweepOrder, kept with a solve's workspace.
struct SweepOrderScratch {
  std::vector<std::size_t> next, previous;  // the contacts not yet placed, as a linked list
  std::vector<std::size_t> blockedAt;       // per body: the placement that last blocked it
  // The last order made, and its contacts' bodies (a, b) in their order: the order depends on
  // those alone, and a pile held step after step solves the same contacts again.
  std::vector<std::size_t> lastOrder;
  std::vector<std::pair<int, int>> lastBodies;
};

// Writes to `order` a permutation of `sweep`'s contacts (indices) that keeps, for every body, the
// order of its own contacts, and so gives the same sweep to the bit: a contact's local solve reads
// and writes only its two bodies' velocities. Within that freedom, each contact placed is the
// earliest one that shares no body with the contact placed just before it, looked for among the
// next few: each local solve waits on the one before only through a shared body, so that two
// neighbours' solves overlap in the processor where the island's order (a pair's corners one
// after the other) chains them all. `bodies`: the number of bodies the contacts index.
void sweepOrder(const std::vector<SweepContact>& sweep, std::size_t bodies,
                SweepOrderScratch& scratch, std::vector<std::size_t>& order);

}  // namespace carom::core::contact
