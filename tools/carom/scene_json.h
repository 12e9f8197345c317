// scene.json, the file `carom run` writes beside its CSV files so that the replay viewer can draw
// the bodies: bodies.csv holds poses only, not shapes. One entry per body of the scene, in scene
// order: name, shape kind and dimensions (the scene file's keys, SI units, body frame), whether it
// is static, and its pose at t = 0 (a static body's pose throughout). Then one entry per joint, in
// scene order: type, body_a, body_b (null for the world), and the pivot (and for hinge, slider,
// cone_twist and six_dof the axis) in each body's frame at t = 0, so that the viewer can place the
// joint from the poses of bodies.csv: pivot_a and axis_a in body_a's frame, pivot_b and axis_b in
// body_b's frame (the world frame for a joint to the world).
#pragma once

#include <string>

#include "carom/bullet/scene.h"

namespace carom::cli {

std::string sceneJson(const Scene& scene);

}  // namespace carom::cli
