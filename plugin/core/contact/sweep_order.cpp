#include "sweep_order.h"

namespace carom::core::contact {
namespace {

// How many contacts not yet placed each placement looks at for one independent of the last
// (counting those it passes over): past a pair's corners (up to eight) and the pairs beside it on
// the same bodies. Each placement's search costs up to this many steps, once per solve, against a
// local solve per contact in each of its sweeps (docs/measurements.md).
constexpr std::size_t kLookAhead = 24;

}  // namespace

void sweepOrder(const std::vector<SweepContact>& sweep, std::size_t bodies,
                SweepOrderScratch& scratch, std::vector<std::size_t>& order) {
  const std::size_t n = sweep.size();
  const auto sameBodies = [&] {
    if (scratch.lastBodies.size() != n) return false;
    for (std::size_t i = 0; i < n; ++i) {
      if (scratch.lastBodies[i] != std::pair{sweep[i].a, sweep[i].b}) return false;
    }
    return true;
  };
  if (sameBodies()) {
    order = scratch.lastOrder;
    return;
  }
  const std::size_t end = n;  // the list's end marker
  order.clear();
  scratch.next.resize(n);
  scratch.previous.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    scratch.next[i] = i + 1;
    scratch.previous[i] = i == 0 ? end : i - 1;
  }
  // Placements count from 1: a stamp of 0 means never.
  scratch.blockedAt.assign(bodies, 0);
  std::size_t first = n == 0 ? end : 0;
  const auto isBody = [](int index) { return index != kWorld; };
  for (std::size_t placement = 1; first != end; ++placement) {
    std::size_t chosen = first;
    std::size_t looked = 0;
    for (std::size_t k = first; k != end && looked < kLookAhead; k = scratch.next[k], ++looked) {
      const SweepContact& c = sweep[k];
      // Ready: no contact before it that is still to be placed shares a body with it.
      const bool ready = (!isBody(c.a) || scratch.blockedAt[c.a] != placement) &&
                         (!isBody(c.b) || scratch.blockedAt[c.b] != placement);
      // Independent of the last contact placed.
      const bool independent = order.empty() || apart(c, sweep[order.back()]);
      if (ready && independent) {
        chosen = k;
        break;
      }
      if (isBody(c.a)) scratch.blockedAt[c.a] = placement;
      if (isBody(c.b)) scratch.blockedAt[c.b] = placement;
    }
    order.push_back(chosen);
    // Unlinked from the contacts still to be placed.
    const std::size_t before = scratch.previous[chosen], after = scratch.next[chosen];
    if (before == end) {
      first = after;
    } else {
      scratch.next[before] = after;
    }
    if (after != end) scratch.previous[after] = before;
  }
  scratch.lastOrder = order;
  scratch.lastBodies.clear();
  for (const SweepContact& c : sweep)
    scratch.lastBodies.emplace_back(c.a, c.b);
}

}  // namespace carom::core::contact
