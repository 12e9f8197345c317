// scene.json, the shapes the replay viewer draws: every shape kind of shapes.toml with the scene
// file's keys, and body names that JSON must escape.
#include <gtest/gtest.h>

#include <string>

#include "scene_json.h"

namespace carom::cli {
namespace {

bool holds(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SceneJson, EveryShapeKindWithItsDimensions) {
  const std::string json =
      sceneJson(Scene::fromFile(std::string(CAROM_SCENES_DIR) + "/shapes.toml"));
  EXPECT_TRUE(holds(
      json,
      R"x({"name": "floor", "shape": "plane", "static": true, "normal": [0, 0, 1], "offset": 0,)x"))
      << json;
  EXPECT_TRUE(holds(
      json,
      R"x({"name": "ball", "shape": "sphere", "static": false, "radius": 0.1, "position": [0, 0, 0.5], "orientation": [1, 0, 0, 0]})x"))
      << json;
  EXPECT_TRUE(holds(json, R"x("shape": "box", "static": false, "half_extents": [0.2, 0.1, 0.05])x"))
      << json;
  EXPECT_TRUE(holds(json, R"x("orientation": [0.9238795325112867, 0.3826834323650898, 0, 0])x"))
      << json;
  EXPECT_TRUE(
      holds(json, R"x("shape": "ellipsoid", "static": false, "semi_axes": [0.1, 0.15, 0.2])x"))
      << json;
  EXPECT_TRUE(
      holds(json, R"x("shape": "capsule", "static": false, "radius": 0.05, "half_height": 0.1)x"))
      << json;
  EXPECT_TRUE(
      holds(json, R"x("shape": "cylinder", "static": false, "radius": 0.05, "half_height": 0.1)x"))
      << json;
  EXPECT_TRUE(holds(
      json,
      R"x("shape": "convex_hull", "static": false, "points": [[0.1, 0.1, 0.1], [-0.1, -0.1, 0.1], )x"))
      << json;
  EXPECT_TRUE(holds(
      json,
      R"x("shape": "compound", "static": false, "children": [{"shape": "sphere", "radius": 0.06, "position": [-0.12, 0, 0], "orientation": [1, 0, 0, 0]}, {"shape": "box", )x"))
      << json;
}

TEST(SceneJson, EscapesBodyNames) {
  // A scene file refuses such a name (it would break bodies.csv); a Scene built in C++ may hold it.
  Scene scene = Scene::parse(R"x([[body]]
name = "b"
shape = "sphere"
radius = 1.0
mass = 1.0
)x");
  scene.bodies[0].name = "say \"hi\"\\\tnow";
  EXPECT_TRUE(holds(sceneJson(scene), R"x("name": "say \"hi\"\\\u0009now")x")) << sceneJson(scene);
}

}  // namespace
}  // namespace carom::cli
