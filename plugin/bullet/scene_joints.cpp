#include "scene_joints.h"

#include <cmath>
#include <string>

#include "config_values.h"
#include "scene_keys.h"

namespace carom {
namespace {

using file_keys::jointKeys;
using file_keys::KeyList;
using file_keys::kJointKinds;

// Whether a joint of type `kind` takes `key` besides file_keys::kJointCommonKeys.
bool takes(JointKind kind, std::string_view key) {
  return jointKeys(kind).contains(key);
}

const SceneBody* bodyNamed(const Scene& scene, const std::string& name) {
  for (const SceneBody& body : scene.bodies) {
    if (body.name == name) return &body;
  }
  return nullptr;
}

SceneJoint readJoint(const TomlReader& reader, const toml::table& table, const std::string& path,
                     const Scene& scene) {
  SceneJoint joint;
  joint.line = static_cast<int>(table.source().begin.line);
  const toml::node* typeNode = table.get("type");
  if (typeNode == nullptr) reader.fail(table.source(), path + ".type", "missing");
  joint.kind = reader.choice(*typeNode, path + ".type", kJointKinds);
  const KeyList commonKeys = file_keys::kJointCommonKeys;
  const std::string known = commonKeys.joined() + (jointKeys(joint.kind).empty() ? "" : ", ") +
                            jointKeys(joint.kind).joined();
  bool pivotGiven = false, axisGiven = false, lowerGiven = false, upperGiven = false;
  bool speedGiven = false, impulseGiven = false;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    const std::string keyPath = path + "." + name;
    if (!commonKeys.contains(name) && !takes(joint.kind, name)) {
      reader.unknownKey(key, keyPath, known);
    } else if (name == "type") {
      continue;
    } else if (name == "body_a" || name == "body_b") {
      std::string& body = name == "body_a" ? joint.bodyA : joint.bodyB;
      body = reader.string(node, keyPath);
      if (bodyNamed(scene, body) == nullptr)
        reader.fail(node.source(), keyPath, "no body is named \"" + body + "\"");
    } else if (name == "pivot") {
      joint.pivot = scene_values::vector3(reader, node, keyPath);
      pivotGiven = true;
    } else if (name == "disable_collisions") {
      if (!node.is_boolean()) reader.fail(node.source(), keyPath, "expected true or false");
      joint.disableCollisions = node.as_boolean()->get();
    } else if (name == "axis") {
      joint.axis = scene_values::vector3(reader, node, keyPath);
      const double length = joint.axis.length();
      if (!(std::abs(length - 1.0) <= 1e-6))
        reader.fail(node.source(), keyPath, "must be a unit vector");
      joint.axis /= length;
      axisGiven = true;
    } else if (name == "lower" || name == "upper") {
      const double value = reader.number(node, keyPath);
      if (!std::isfinite(value)) reader.fail(node.source(), keyPath, "must be finite");
      (name == "lower" ? joint.lower : joint.upper) = value;
      (name == "lower" ? lowerGiven : upperGiven) = true;
    } else if (name == "motor_speed") {
      joint.motorSpeed = reader.number(node, keyPath);
      if (!std::isfinite(joint.motorSpeed)) reader.fail(node.source(), keyPath, "must be finite");
      speedGiven = true;
    } else if (name == "motor_impulse") {
      joint.motorImpulse = reader.number(node, keyPath);
      if (!(std::isfinite(joint.motorImpulse) && joint.motorImpulse > 0))
        reader.fail(node.source(), keyPath, "must be finite and positive (N m s per step)");
      impulseGiven = true;
    } else if (name == "swing_span1" || name == "swing_span2" || name == "twist_span") {
      const double value = reader.number(node, keyPath);
      if (!(value >= 0 && value <= M_PI))
        reader.fail(node.source(), keyPath, "must be in [0, pi] rad");
      joint.swing[name == "swing_span1" ? 0 : name == "swing_span2" ? 1 : 2] = value;
    } else if (name == "linear_lower" || name == "linear_upper" || name == "angular_lower" ||
               name == "angular_upper") {  // six_dof's limits
      const btVector3 value = scene_values::vector3(reader, node, keyPath);
      if (name == "linear_lower") joint.linearLower = value;
      if (name == "linear_upper") joint.linearUpper = value;
      if (name == "angular_lower") joint.angularLower = value;
      if (name == "angular_upper") joint.angularUpper = value;
    } else {
      reader.unreadKey(key, keyPath);
    }
  }
  if (joint.bodyA.empty()) reader.fail(table.source(), path + ".body_a", "missing");
  if (!pivotGiven) reader.fail(table.source(), path + ".pivot", "missing");
  if (joint.bodyB == joint.bodyA) {
    reader.fail(table.get("body_b")->source(), path + ".body_b",
                "a joint must join two different bodies (leave body_b out to join the world)");
  }
  const SceneBody& a = *bodyNamed(scene, joint.bodyA);
  const SceneBody* b = joint.bodyB.empty() ? nullptr : bodyNamed(scene, joint.bodyB);
  if (a.isStatic() && (b == nullptr || b->isStatic())) {
    reader.fail(table.source(), path + ".body_a", "a joint needs a moving body (mass > 0)");
  }
  if (takes(joint.kind, "axis") && !axisGiven)
    reader.fail(table.source(), path + ".axis", "missing");
  if (lowerGiven != upperGiven) {
    reader.fail(table.source(), path + (lowerGiven ? ".upper" : ".lower"),
                "missing: a limit takes both lower and upper");
  }
  joint.limited = lowerGiven;
  if (joint.limited && !(joint.lower <= joint.upper)) {
    reader.fail(table.get("upper")->source(), path + ".upper", "must be >= lower");
  }
  if (joint.limited && joint.kind == JointKind::hinge &&
      !(joint.lower >= -M_PI && joint.upper <= M_PI)) {
    reader.fail(table.get("lower")->source(), path + ".lower",
                "a hinge's limits must lie in [-pi, pi] rad");
  }
  if (speedGiven != impulseGiven) {
    reader.fail(table.source(), path + (speedGiven ? ".motor_impulse" : ".motor_speed"),
                "missing: a motor takes both motor_speed and motor_impulse");
  }
  joint.motor = speedGiven;
  return joint;
}

}  // namespace

const char* toString(JointKind kind) {
  return config_values::nameOf(kJointKinds, kind);
}

void readJoints(const TomlReader& reader, const toml::node& node, Scene& scene) {
  if (!node.is_array_of_tables()) reader.fail(node.source(), "joint", "expected [[joint]] tables");
  const toml::array& joints = *node.as_array();
  for (std::size_t i = 0; i < joints.size(); ++i) {
    scene.joints.push_back(
        readJoint(reader, *joints[i].as_table(), "joint[" + std::to_string(i) + "]", scene));
  }
}

}  // namespace carom
