// Scene::parse: the [world] and [[body]] tables of a scene file; the config tables go through
// readConfigTables, the same code as a config file's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "carom/bullet/scene.h"
#include "config_toml.h"
#include "scene_hull.h"
#include "scene_inertia.h"
#include "scene_joints.h"
#include "scene_keys.h"
#include "scene_overlaps.h"
#include "toml_input.h"
#include "toml_reader.h"

namespace carom {

btVector3 scene_values::vector3(const TomlReader& reader, const toml::node& node,
                                const std::string& key) {
  const auto v = reader.numbers<3>(node, key);
  for (double x : v) {
    if (!std::isfinite(x)) reader.fail(node.source(), key, "must be finite");
  }
  return {v[0], v[1], v[2]};
}

namespace {

using file_keys::KeyList;
using file_keys::kShapeKinds;
using file_keys::shapeKeys;
using scene_values::vector3;

// A unit quaternion may carry the rounding of a file written with a few digits, no more.
constexpr double kUnitQuaternionTolerance = 1e-6;

// Positive and normal: a subnormal length or step (1e-320) divides into an overflow.
double positive(const TomlReader& reader, const toml::node& node, const std::string& key) {
  const double value = reader.number(node, key);
  if (!(std::isnormal(value) && value > 0)) {
    reader.fail(node.source(), key,
                "must be finite and positive, got " + config_values::numberText(value));
  }
  return value;
}

btVector3 positiveVector3(const TomlReader& reader, const toml::node& node,
                          const std::string& key) {
  const btVector3 v = vector3(reader, node, key);
  for (int i = 0; i < 3; ++i) {
    if (!(std::isnormal(v[i]) && v[i] > 0)) {
      reader.fail(node.source(), key, "every entry must be positive (and not subnormal)");
    }
  }
  return v;
}

void readWorld(const TomlReader& reader, const toml::table& table, WorldSettings& world) {
  const KeyList keys = file_keys::kWorldKeys;
  for (const auto& [key, node] : table) {
    const std::string path = "world." + std::string(key.str());
    if (!keys.contains(key.str())) {
      reader.unknownKey(key, path, keys.joined());
    } else if (key == "gravity") {
      world.gravity = vector3(reader, node, path);
    } else if (key == "timestep") {
      world.timestep = positive(reader, node, path);
    } else if (key == "duration") {
      world.duration = positive(reader, node, path);
    } else if (key == "output_every") {
      const std::int64_t every = reader.integer(node, path);
      if (every < 1 || every > INT32_MAX) reader.fail(node.source(), path, "must be ≥ 1");
      world.outputEvery = static_cast<int>(every);
    } else {
      reader.unreadKey(key, path);
    }
  }
  // The step count, judged at the duration's line (or the timestep's, where it is the only one).
  const std::string problem = runStepsProblem(world.duration, world.timestep);
  if (!problem.empty()) {
    const bool durationGiven = table.contains("duration");
    const toml::node* node = table.get(durationGiven ? "duration" : "timestep");
    reader.fail(node ? node->source() : table.source(),
                durationGiven ? "world.duration" : "world.timestep", problem);
  }
}

void readChildren(const TomlReader& reader, const toml::node& node, const std::string& path,
                  ShapeSpec& shape);

// A name is a cell of bodies.csv and events.csv, written unquoted: refused here rather than
// quoted there, so that every reader of the CSV (the viewer's, a user's split(',')) keeps working.
std::string bodyNameProblem(const std::string& name) {
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == ',' || c == '"' || byte < 0x20 || byte == 0x7F) {
      return "must not hold a comma, a double quote or a control character (it is a CSV cell)";
    }
  }
  return {};
}

// ½ m v² and ½ Σ I ω² of a body at t = 0, which a speed of 1e300 overflows.
double translationalEnergy(const SceneBody& body) {
  return 0.5 * body.mass * body.velocity.length2();
}
double rotationalEnergy(const SceneBody& body) {
  const btVector3 w = quatRotate(body.orientation.inverse(), body.angularVelocity);
  return 0.5 * (body.inertia * w).dot(w);
}

// One of shapeKeys(shape.kind).
void readShapeKey(const TomlReader& reader, const toml::key& name, const toml::node& node,
                  const std::string& path, ShapeSpec& shape) {
  const std::string_view key = name.str();
  if (key == "normal") {
    // Scaled by its largest entry before normalizing: the length of [0, 0, 1e200] overflows.
    const btVector3 normal = vector3(reader, node, path);
    const double largest = normal.absolute()[normal.absolute().maxAxis()];
    if (!(largest > 0)) reader.fail(node.source(), path, "must not be zero");
    shape.normal = (normal / largest).normalized();
  } else if (key == "offset") {
    shape.offset = reader.number(node, path);
    if (!std::isfinite(shape.offset)) reader.fail(node.source(), path, "must be finite");
  } else if (key == "radius") {
    shape.radius = positive(reader, node, path);
  } else if (key == "half_height") {
    shape.halfHeight = positive(reader, node, path);
  } else if (key == "half_extents") {
    shape.halfExtents = positiveVector3(reader, node, path);
  } else if (key == "semi_axes") {
    shape.semiAxes = positiveVector3(reader, node, path);
  } else if (key == "points") {
    if (!node.is_array()) reader.fail(node.source(), path, "expected an array of [x, y, z] points");
    for (const toml::node& point : *node.as_array()) {
      shape.points.push_back(vector3(reader, point, path));
    }
    if (shape.points.size() < 4) {
      reader.fail(node.source(), path, "a convex hull needs at least 4 points");
    }
    reader.require(node, path, flatHullProblem(shape.points));
  } else if (key == "children") {
    readChildren(reader, node, path, shape);
  } else {
    reader.unreadKey(name, path);
  }
}

// The keys a shape cannot do without, checked after the whole table is read.
void requireShapeKeys(const TomlReader& reader, const toml::table& table, const std::string& path,
                      ShapeKind kind) {
  for (const std::string_view key : shapeKeys(kind)) {
    const bool optional = kind == ShapeKind::plane && key == "offset";
    if (!optional && !table.contains(key)) {
      reader.fail(
          table.source(), path + "." + std::string(key),
          std::string("missing: a ") + toString(kind) + " needs " + shapeKeys(kind).joined());
    }
  }
}

btQuaternion unitQuaternion(const TomlReader& reader, const toml::node& node,
                            const std::string& path) {
  const auto q = reader.numbers<4>(node, path);  // w, x, y, z
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(std::abs(norm - 1.0) <= kUnitQuaternionTolerance)) {
    reader.fail(node.source(), path,
                "must be a unit quaternion [w, x, y, z], got norm " + std::to_string(norm));
  }
  return btQuaternion(q[1], q[2], q[3], q[0]).normalized();
}

// One [[body.children]] table: a convex shape and its pose in the compound's body frame.
CompoundChild readChild(const TomlReader& reader, const toml::table& table,
                        const std::string& path) {
  CompoundChild child;
  const toml::node* shapeNode = table.get("shape");
  if (shapeNode == nullptr) reader.fail(table.source(), path + ".shape", "missing");
  child.shape.kind = reader.choice(*shapeNode, path + ".shape", kShapeKinds);
  const ShapeKind kind = child.shape.kind;
  if (!file_keys::isChildShape(kind)) {
    reader.fail(shapeNode->source(), path + ".shape",
                "a compound's child must be a convex shape, not a plane or a compound");
  }
  const KeyList childKeys = file_keys::kChildKeys;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    const std::string keyPath = path + "." + name;
    if (shapeKeys(kind).contains(name)) {
      readShapeKey(reader, key, node, keyPath, child.shape);
    } else if (!childKeys.contains(name)) {
      reader.unknownKey(key, keyPath, childKeys.joined() + ", " + shapeKeys(kind).joined());
    } else if (name == "position") {
      child.position = vector3(reader, node, keyPath);
    } else if (name == "orientation") {
      child.orientation = unitQuaternion(reader, node, keyPath);
    } else if (name != "shape") {
      reader.unreadKey(key, keyPath);
    }
  }
  requireShapeKeys(reader, table, path, kind);
  return child;
}

void readChildren(const TomlReader& reader, const toml::node& node, const std::string& path,
                  ShapeSpec& shape) {
  if (!node.is_array_of_tables() || node.as_array()->empty()) {
    reader.fail(node.source(), path, "expected one or more [[body.children]] tables");
  }
  const toml::array& children = *node.as_array();
  for (std::size_t i = 0; i < children.size(); ++i) {
    shape.children.push_back(
        readChild(reader, *children[i].as_table(), path + "[" + std::to_string(i) + "]"));
  }
}

SceneBody readBody(const TomlReader& reader, const Config& config, const toml::table& table,
                   const std::string& path) {
  SceneBody body;
  body.line = static_cast<int>(table.source().begin.line);
  const toml::node* shapeNode = table.get("shape");
  if (shapeNode == nullptr) reader.fail(table.source(), path + ".shape", "missing");
  body.shape.kind = reader.choice(*shapeNode, path + ".shape", kShapeKinds);
  const ShapeKind kind = body.shape.kind;
  bool inertiaGiven = false;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    const std::string keyPath = path + "." + name;
    if (shapeKeys(kind).contains(name)) {
      readShapeKey(reader, key, node, keyPath, body.shape);
    } else if (!file_keys::bodyCommonKeys(kind).contains(name)) {
      reader.unknownKey(key, keyPath,
                        file_keys::bodyCommonKeys(kind).joined() + ", " + shapeKeys(kind).joined());
    } else if (name == "name") {
      body.name = reader.string(node, keyPath);
      if (body.name.empty()) reader.fail(node.source(), keyPath, "must not be empty");
      reader.require(node, keyPath, bodyNameProblem(body.name));
    } else if (name == "mass") {
      body.mass = reader.number(node, keyPath);
      if (!(std::isfinite(body.mass) && body.mass >= 0)) {
        reader.fail(node.source(), keyPath,
                    "must be finite and ≥ 0 (0: static), got " + std::to_string(body.mass));
      }
      if (kind == ShapeKind::plane && body.mass != 0) {
        reader.fail(node.source(), keyPath, "a plane is static: mass 0 or omitted");
      }
    } else if (name == "inertia") {
      body.inertia = positiveVector3(reader, node, keyPath);
      inertiaGiven = true;
    } else if (name == "position") {
      body.position = vector3(reader, node, keyPath);
    } else if (name == "orientation") {
      body.orientation = unitQuaternion(reader, node, keyPath);
    } else if (name == "velocity") {
      body.velocity = vector3(reader, node, keyPath);
    } else if (name == "angular_velocity") {
      body.angularVelocity = vector3(reader, node, keyPath);
    } else if (name == "material") {
      body.material = reader.string(node, keyPath);
      if (config.materials().count(body.material) == 0) {
        reader.fail(node.source(), keyPath, "material \"" + body.material + "\" is not defined");
      }
    } else if (name != "shape") {
      reader.unreadKey(key, keyPath);
    }
  }
  if (body.name.empty()) reader.fail(table.source(), path + ".name", "missing");
  requireShapeKeys(reader, table, path, kind);
  if (body.isStatic()) {
    if (!body.velocity.isZero() || !body.angularVelocity.isZero()) {
      reader.fail(table.source(), path + ".velocity", "a static body (mass 0) cannot move");
    }
  } else if (!inertiaGiven) {
    const std::string problem = inertiaProblem(body.shape);
    if (!problem.empty()) reader.fail(table.source(), path + ".inertia", problem);
    body.inertia = shapeInertia(body.shape, body.mass);
    const std::string derived = derivedInertiaProblem(body.inertia);
    if (!derived.empty()) reader.fail(table.source(), path + ".inertia", derived);
  }
  if (!body.isStatic()) {
    const toml::node* inertia = table.get("inertia");
    const std::string problem = inertiaTriangleProblem(body.inertia);
    if (!problem.empty()) {
      reader.fail(inertia ? inertia->source() : table.source(), path + ".inertia", problem);
    }
    for (const auto& [key, energy] : {std::pair{"velocity", translationalEnergy(body)},
                                      std::pair{"angular_velocity", rotationalEnergy(body)}}) {
      if (!std::isfinite(energy)) {
        reader.fail(table.get(key)->source(), path + "." + key,
                    "the kinetic energy at t = 0 is not finite; give speeds within double range");
      }
    }
    // A static hull never turns about its centre of mass; a moving one does, about its origin.
    if (kind == ShapeKind::convexHull) {
      reader.require(*table.get("points"), path + ".points",
                     offCentreHullProblem(body.shape.points));
    }
  }
  return body;
}

// Two materials of different impact laws without a [pair] table stop a run when their bodies
// touch (core::impact::combineMaterials); refused here for every two that could, a moving body's
// with any other, so that check knows it before a run does.
void checkMaterialPairs(const TomlReader& reader, const toml::array& tables, const Scene& scene) {
  std::map<std::string, std::size_t> firstBody, firstMoving;  // material → first body with it
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    firstBody.emplace(scene.bodies[i].material, i);
    if (!scene.bodies[i].isStatic()) firstMoving.emplace(scene.bodies[i].material, i);
  }
  for (const auto& [a, i] : firstMoving) {
    for (const auto& [b, j] : firstBody) {
      if (a == b) continue;
      try {
        scene.config.material(a, b);
      } catch (const Error& e) {
        const std::size_t later = std::max(i, j);
        reader.fail(tables[later].source(), "body[" + std::to_string(later) + "].material",
                    config_values::withoutPrefix(e) + " (bodies \"" + scene.bodies[i].name +
                        "\" and \"" + scene.bodies[j].name + "\" may touch)");
      }
    }
  }
}

void readBodies(const TomlReader& reader, const toml::node& node, Scene& scene) {
  if (!node.is_array_of_tables()) {
    reader.fail(node.source(), "body", "expected [[body]] tables");
  }
  std::set<std::string> names;
  const toml::array& bodies = *node.as_array();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string path = "body[" + std::to_string(i) + "]";
    SceneBody body = readBody(reader, scene.config, *bodies[i].as_table(), path);
    if (!names.insert(body.name).second) {
      reader.fail(bodies[i].source(), path + ".name",
                  "another body is already named \"" + body.name + "\"");
    }
    scene.bodies.push_back(std::move(body));
  }
  checkMaterialPairs(reader, bodies, scene);
  if (const std::optional<InitialOverlap> overlap = firstDeepOverlap(scene)) {
    std::ostringstream message;
    message << "overlaps body \"" << scene.bodies[overlap->first].name << "\" by " << overlap->depth
            << " m at t = 0, more than " << kMaxInitialOverlap
            << " m: no mode can push them apart without making energy; place them apart";
    reader.fail(bodies[overlap->second].source(),
                "body[" + std::to_string(overlap->second) + "].position", message.str());
  }
}

}  // namespace

const char* toString(ShapeKind kind) {
  return config_values::nameOf(kShapeKinds, kind);
}

Scene Scene::parse(std::string_view text, std::string_view source) {
  const TomlReader reader(source);
  const toml::table root = reader.parse(text);
  const KeyList tables = file_keys::kSceneTables;
  for (const auto& [key, node] : root) {
    if (!tables.contains(key.str()))
      reader.unknownKey(key, std::string(key.str()), tables.joined());
  }
  Scene scene;
  scene.source = std::string(source);
  readConfigTables(reader, root, scene.config);
  if (const toml::node* node = root.get("world")) {
    readWorld(reader, reader.table(*node, "world"), scene.world);
  }
  if (const toml::node* node = root.get("body")) readBodies(reader, *node, scene);
  if (const toml::node* node = root.get("joint")) readJoints(reader, *node, scene);
  return scene;
}

Scene Scene::fromFile(const std::string& path) {
  return parse(readTomlFile(path, "scene"), path);
}

}  // namespace carom
