// The keys a scene file may hold, one list per TOML table: Scene::parse (scene_toml.cpp,
// scene_joints.cpp) accepts these and refuses any other, and docs.config_keys
// (tests/docs/config_keys_test.cpp) checks that docs/config.md has a row for each and for no
// other. A key the parser reads goes here first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "carom/bullet/scene.h"
#include "config_keys.h"
#include "config_values.h"

namespace carom::file_keys {

// The top-level tables of a scene file: a config file's and these.
inline constexpr std::string_view kSceneTables[] = {"world", "solver", "material",
                                                    "pair",  "body",   "joint"};

// [world]
inline constexpr std::string_view kWorldKeys[] = {"gravity", "timestep", "duration",
                                                  "output_every"};

// [[body]]: the keys of every body, and those of a plane, the world's boundary, which takes no
// pose, mass or inertia. Each shape takes its shapeKeys besides.
inline constexpr std::string_view kBodyCommonKeys[] = {
    "name",     "shape",       "mass",     "inertia",
    "position", "orientation", "velocity", "angular_velocity",
    "material"};
inline constexpr std::string_view kPlaneCommonKeys[] = {"name", "shape", "mass", "material"};

// [[body.children]]: a compound's part, with its shapeKeys besides.
inline constexpr std::string_view kChildKeys[] = {"shape", "position", "orientation"};

inline constexpr config_values::Choice<ShapeKind> kShapeKinds[] = {
    {"plane", ShapeKind::plane},
    {"sphere", ShapeKind::sphere},
    {"box", ShapeKind::box},
    {"ellipsoid", ShapeKind::ellipsoid},
    {"capsule", ShapeKind::capsule},
    {"cylinder", ShapeKind::cylinder},
    {"convex_hull", ShapeKind::convexHull},
    {"compound", ShapeKind::compound}};

inline constexpr std::string_view kPlaneKeys[] = {"normal", "offset"};
inline constexpr std::string_view kSphereKeys[] = {"radius"};
inline constexpr std::string_view kBoxKeys[] = {"half_extents"};
inline constexpr std::string_view kEllipsoidKeys[] = {"semi_axes"};
inline constexpr std::string_view kCapsuleKeys[] = {"radius", "half_height"};  // and a cylinder's
inline constexpr std::string_view kConvexHullKeys[] = {"points"};
inline constexpr std::string_view kCompoundKeys[] = {"children"};

// The keys each shape takes besides the common ones; any other key is unknown for that shape.
// All of them are required, but for a plane's offset.
inline KeyList shapeKeys(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::plane:
      return kPlaneKeys;
    case ShapeKind::sphere:
      return kSphereKeys;
    case ShapeKind::box:
      return kBoxKeys;
    case ShapeKind::ellipsoid:
      return kEllipsoidKeys;
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      return kCapsuleKeys;
    case ShapeKind::convexHull:
      return kConvexHullKeys;
    case ShapeKind::compound:
      return kCompoundKeys;
  }
  return {};
}

// The common keys of a body of shape `kind`.
inline KeyList bodyCommonKeys(ShapeKind kind) {
  return kind == ShapeKind::plane ? KeyList(kPlaneCommonKeys) : KeyList(kBodyCommonKeys);
}

// Bullet's compound collides its children as convex shapes, and carom's gap does the same.
inline bool isChildShape(ShapeKind kind) {
  return kind != ShapeKind::plane && kind != ShapeKind::compound;
}

// [[joint]]
inline constexpr config_values::Choice<JointKind> kJointKinds[] = {
    {"point", JointKind::point},          {"hinge", JointKind::hinge},
    {"slider", JointKind::slider},        {"fixed", JointKind::fixed},
    {"cone_twist", JointKind::coneTwist}, {"six_dof", JointKind::sixDof}};

inline constexpr std::string_view kJointCommonKeys[] = {"type", "body_a", "body_b", "pivot",
                                                        "disable_collisions"};
inline constexpr std::string_view kHingeKeys[] = {"axis", "lower", "upper", "motor_speed",
                                                  "motor_impulse"};
inline constexpr std::string_view kSliderKeys[] = {"axis", "lower", "upper"};
inline constexpr std::string_view kConeTwistKeys[] = {"axis", "swing_span1", "swing_span2",
                                                      "twist_span"};
inline constexpr std::string_view kSixDofKeys[] = {"axis", "linear_lower", "linear_upper",
                                                   "angular_lower", "angular_upper"};

// The keys each joint type takes besides kJointCommonKeys.
inline KeyList jointKeys(JointKind kind) {
  switch (kind) {
    case JointKind::point:
    case JointKind::fixed:
      return {};
    case JointKind::hinge:
      return kHingeKeys;
    case JointKind::slider:
      return kSliderKeys;
    case JointKind::coneTwist:
      return kConeTwistKeys;
    case JointKind::sixDof:
      return kSixDofKeys;
  }
  return {};
}

namespace detail {
// Appends prefix + key for each key not in `paths` yet (keys several shapes or joints share).
inline void appendNewKeyPaths(std::vector<std::string>& paths, const std::string& prefix,
                              KeyList keys) {
  for (std::string_view key : keys) {
    const std::string path = prefix + std::string(key);
    bool listed = false;
    for (const std::string& known : paths)
      listed = listed || known == path;
    if (!listed) paths.push_back(path);
  }
}
}  // namespace detail

// Every key of a scene file as docs/config.md writes them: the config tables' (configKeyPaths),
// world.KEY, body.KEY (any shape's), body.children.KEY and joint.KEY (any type's). A table of
// kSceneTables without its keys here comes out as "TABLE.?", which no doc row names.
inline std::vector<std::string> sceneKeyPaths() {
  std::vector<std::string> paths;
  for (std::string_view table : kSceneTables) {
    if (appendConfigKeyPaths(paths, table)) continue;
    if (table == "world") {
      appendKeyPaths(paths, "world.", kWorldKeys);
    } else if (table == "body") {
      for (const auto& shape : kShapeKinds) {
        detail::appendNewKeyPaths(paths, "body.", bodyCommonKeys(shape.value));
        detail::appendNewKeyPaths(paths, "body.", shapeKeys(shape.value));
      }
      for (const auto& shape : kShapeKinds) {
        if (!isChildShape(shape.value)) continue;
        detail::appendNewKeyPaths(paths, "body.children.", kChildKeys);
        detail::appendNewKeyPaths(paths, "body.children.", shapeKeys(shape.value));
      }
    } else if (table == "joint") {
      for (const auto& joint : kJointKinds) {
        detail::appendNewKeyPaths(paths, "joint.", kJointCommonKeys);
        detail::appendNewKeyPaths(paths, "joint.", jointKeys(joint.value));
      }
    } else {
      paths.push_back(std::string(table) + ".?");
    }
  }
  return paths;
}

}  // namespace carom::file_keys
