#include "scene_overlaps.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "carom/bullet/gap.h"

namespace carom {

std::optional<InitialOverlap> firstDeepOverlap(const Scene& scene) {
  const std::size_t count = scene.bodies.size();
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<btTransform> poses;
  std::vector<btVector3> low(count), high(count);  // world AABBs
  for (std::size_t i = 0; i < count; ++i) {
    const SceneBody& body = scene.bodies[i];
    shapes.push_back(makeShape(body.shape));
    poses.emplace_back(body.orientation, body.position);
    shapes.back()->getAabb(poses.back(), low[i], high[i]);
  }
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
      if (scene.bodies[i].isStatic() && scene.bodies[j].isStatic()) continue;
      if (low[j].y() > high[i].y() || low[i].y() > high[j].y() || low[j].z() > high[i].z() ||
          low[i].z() > high[j].z()) {
        continue;
      }
      const double depth = -gap(*shapes[i], poses[i], *shapes[j], poses[j]).distance;
      if (!(depth > kMaxInitialOverlap)) continue;
      const InitialOverlap found{std::min(i, j), std::max(i, j), depth};
      const bool earlier = !first || found.first < first->first ||
                           (found.first == first->first && found.second < first->second);
      if (earlier) first = found;
    }
  }
  return first;
}

}  // namespace carom
