// Bodies that overlap deeply when the simulation starts: a scene's at t = 0 (refused when the file
// is read), and a carom::DynamicsWorld's bodies added since its last variational step (refused by
// the step, world_overlaps.cpp). No mode can resolve a deep overlap without making energy (pushing
// bodies apart lifts them or sets them moving), and the variational step would spend its events on
// it: a pile of bodies placed at one spot would barely advance.
#pragma once

#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "carom/bullet/scene.h"

namespace carom {

// The deepest overlap a scene may start with (m): the variational step's drift correction closes
// 10 µm overlaps, and a body resting on another as placed by hand is often a fraction of a
// millimetre into it.
inline constexpr double kMaxInitialOverlap = 1e-3;

struct InitialOverlap {
  std::size_t first, second;  // indices into the list searched, first < second
  double depth;               // m, > kMaxInitialOverlap
};

// A shape where it lies, for firstDeepOverlap.
struct PlacedShape {
  const btCollisionShape* shape;
  btTransform pose;
  // Its pairs with the other checked shapes were searched before: only pairs with a shape that is
  // not are searched.
  bool checked = false;
};

// The first pair of shapes, in list order, at least one of them not checked, that `mayTouch`
// (called with their indices) lets touch and that overlap by more than kMaxInitialOverlap; none
// when there is none. Only pairs whose world AABBs overlap are asked their gap.
std::optional<InitialOverlap> firstDeepOverlap(
    const std::vector<PlacedShape>& shapes,
    const std::function<bool(std::size_t, std::size_t)>& mayTouch);

// The scene's first such pair of bodies, one of them moving, at t = 0.
std::optional<InitialOverlap> firstDeepOverlap(const Scene& scene);

}  // namespace carom
