#include "scene_overlaps.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "carom/bullet/gap.h"

namespace carom {

std::optional<InitialOverlap> firstDeepOverlap(
    const std::vector<PlacedShape>& shapes,
    const std::function<bool(std::size_t, std::size_t)>& mayTouch) {
  const std::size_t count = shapes.size();
  std::vector<btVector3> low(count), high(count);  // world AABBs
  for (std::size_t i = 0; i < count; ++i)
    shapes[i].shape->getAabb(shapes[i].pose, low[i], high[i]);
  // Sweep and prune along x: only pairs whose boxes overlap are asked their gap.
  std::vector<std::size_t> byLow(count);
  std::iota(byLow.begin(), byLow.end(), 0);
  std::sort(byLow.begin(), byLow.end(),
            [&](std::size_t a, std::size_t b) { return low[a].x() < low[b].x(); });
  std::optional<InitialOverlap> first;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = byLow[k];
    for (std::size_t m = k + 1; m < count && low[byLow[m]].x() <= high[i].x(); ++m) {
      const std::size_t j = byLow[m];
      if (shapes[i].checked && shapes[j].checked) continue;
      if (low[j].y() > high[i].y() || low[i].y() > high[j].y() || low[j].z() > high[i].z() ||
          low[i].z() > high[j].z() || !mayTouch(i, j)) {
        continue;
      }
      const double depth =
          -gap(*shapes[i].shape, shapes[i].pose, *shapes[j].shape, shapes[j].pose).distance;
      if (!(depth > kMaxInitialOverlap)) continue;
      const InitialOverlap found{std::min(i, j), std::max(i, j), depth};
      const bool earlier = !first || found.first < first->first ||
                           (found.first == first->first && found.second < first->second);
      if (earlier) first = found;
    }
  }
  return first;
}

std::optional<InitialOverlap> firstDeepOverlap(const Scene& scene) {
  std::vector<std::unique_ptr<btCollisionShape>> owned;
  std::vector<PlacedShape> shapes;
  for (const SceneBody& body : scene.bodies) {
    owned.push_back(makeShape(body.shape));
    shapes.push_back({owned.back().get(), btTransform(body.orientation, body.position)});
  }
  return firstDeepOverlap(shapes, [&](std::size_t i, std::size_t j) {
    return !(scene.bodies[i].isStatic() && scene.bodies[j].isStatic());
  });
}

}  // namespace carom
