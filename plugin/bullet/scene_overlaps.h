// Bodies of a scene that overlap deeply at t = 0. No mode can resolve a deep overlap without
// making energy (pushing bodies apart lifts them or sets them moving), and the variational step
// spends its events on it: 300 spheres placed at one spot did not finish 30 steps in two minutes.
#pragma once

#include <cstddef>
#include <optional>

#include "carom/bullet/scene.h"

namespace carom {

// The deepest overlap a scene may start with (m): the variational step's drift correction closes
// 10 µm overlaps, and a body resting on another as placed by hand is often a fraction of a
// millimetre into it.
inline constexpr double kMaxInitialOverlap = 1e-3;

struct InitialOverlap {
  std::size_t first, second;  // body indices, first < second
  double depth;               // m, > kMaxInitialOverlap
};

// The first pair of bodies, in scene order, one of them moving, that overlap by more than
// kMaxInitialOverlap at t = 0; none when there is none.
std::optional<InitialOverlap> firstDeepOverlap(const Scene& scene);

}  // namespace carom
