// scene.json, the shapes the replay viewer draws: every shape kind of shapes.toml with the scene
// file's keys, body names that JSON must escape, and the joints with their anchors in the body
// frames.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
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

// The three numbers of `"key": [x, y, z]`, the first such key at or after `from` in the text.
btVector3 vectorAfter(const std::string& json, std::size_t from, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\": [", from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no " << key << " after " << from << " in " << json;
    return btVector3(NAN, NAN, NAN);
  }
  const char* p = json.c_str() + json.find('[', at) + 1;
  double v[3];
  for (double& x : v) {
    char* end = nullptr;
    x = std::strtod(p, &end);
    p = end + 1;  // past the comma
  }
  return btVector3(v[0], v[1], v[2]);
}

void expectNear(const btVector3& got, const btVector3& want, const char* what) {
  EXPECT_LT((got - want).length(), 1e-12)
      << what << ": (" << got.x() << ", " << got.y() << ", " << got.z() << ") for (" << want.x()
      << ", " << want.y() << ", " << want.z() << ")";
}

TEST(SceneJson, JointsWithTheirAnchorsInTheBodyFrames) {
  // bob: at (1, 2, 3), turned 90° about z (its x is the world's y). Its string is tied to the
  // world at (1, 3, 3), 1 m along the world's y from its centre: along its own x.
  // lid: at (2, 0, 0), turned 90° about x (its y is the world's z, its z the world's -y), hinged
  // to base (at the origin, unturned) at (1, 0, 0) about the world's z: in lid's frame the pivot
  // is 1 m along -x and the axis its y.
  const Scene scene = Scene::parse(R"x([[body]]
name = "bob"
shape = "sphere"
radius = 0.1
mass = 1.0
position = [1.0, 2.0, 3.0]
orientation = [0.7071067811865476, 0.0, 0.0, 0.7071067811865476]

[[body]]
name = "base"
shape = "box"
half_extents = [0.5, 0.5, 0.1]
mass = 0.0

[[body]]
name = "lid"
shape = "box"
half_extents = [0.5, 0.1, 0.5]
mass = 1.0
position = [2.0, 0.0, 0.0]
orientation = [0.7071067811865476, 0.7071067811865476, 0.0, 0.0]

[[joint]]
type = "point"
body_a = "bob"
pivot = [1.0, 3.0, 3.0]

[[joint]]
type = "hinge"
body_a = "base"
body_b = "lid"
pivot = [1.0, 0.0, 0.0]
axis = [0.0, 0.0, 1.0]
)x");
  const std::string json = sceneJson(scene);
  const std::size_t joints = json.find("\"joints\": [");
  ASSERT_NE(joints, std::string::npos) << json;
  const std::size_t point =
      json.find(R"x({"type": "point", "body_a": "bob", "body_b": null, "pivot_a": )x", joints);
  ASSERT_NE(point, std::string::npos) << json;
  expectNear(vectorAfter(json, point, "pivot_a"), btVector3(1, 0, 0), "point pivot_a");
  expectNear(vectorAfter(json, point, "pivot_b"), btVector3(1, 3, 3), "point pivot_b (world)");
  const std::size_t hinge =
      json.find(R"x({"type": "hinge", "body_a": "base", "body_b": "lid", "pivot_a": )x", point);
  ASSERT_NE(hinge, std::string::npos) << json;
  // A point joint has no axis: the next axis_a is the hinge's.
  EXPECT_GT(json.find("\"axis_a\""), hinge) << json;
  expectNear(vectorAfter(json, hinge, "pivot_a"), btVector3(1, 0, 0), "hinge pivot_a");
  expectNear(vectorAfter(json, hinge, "axis_a"), btVector3(0, 0, 1), "hinge axis_a");
  expectNear(vectorAfter(json, hinge, "pivot_b"), btVector3(-1, 0, 0), "hinge pivot_b");
  expectNear(vectorAfter(json, hinge, "axis_b"), btVector3(0, 1, 0), "hinge axis_b");
}

TEST(SceneJson, NoJointsIsAnEmptyArray) {
  const std::string json =
      sceneJson(Scene::fromFile(std::string(CAROM_SCENES_DIR) + "/shapes.toml"));
  EXPECT_TRUE(holds(json, "  ],\n  \"joints\": []\n}\n")) << json;
}

}  // namespace
}  // namespace carom::cli
