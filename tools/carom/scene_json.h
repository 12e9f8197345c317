// scene.json, the file `carom run` writes beside its CSV files so that the replay viewer can draw
// the bodies: bodies.csv holds poses only, not shapes. One entry per body of the scene, in scene
// order: name, shape kind and dimensions (the scene file's keys, SI units, body frame), whether it
// is static, and its pose at t = 0 (a static body's pose throughout).
#pragma once

#include <string>

#include "carom/bullet/scene.h"

namespace carom::cli {

std::string sceneJson(const Scene& scene);

}  // namespace carom::cli
