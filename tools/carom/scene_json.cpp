#include "scene_json.h"

#include <cstdio>
#include <sstream>

#include "number_text.h"

namespace carom::cli {
namespace {

// A JSON string: body names come from the user's TOML and may hold quotes or control characters.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The scene reader has already refused non-finite values, which JSON could not hold.
std::string vector(const btVector3& v) {
  return "[" + numberText(v.x()) + ", " + numberText(v.y()) + ", " + numberText(v.z()) + "]";
}

// [w, x, y, z], the scene file's order.
std::string quaternion(const btQuaternion& q) {
  return "[" + numberText(q.w()) + ", " + numberText(q.x()) + ", " + numberText(q.y()) + ", " +
         numberText(q.z()) + "]";
}

std::string shapeFields(const ShapeSpec& shape) {
  switch (shape.kind) {
    case ShapeKind::plane:
      return ", \"normal\": " + vector(shape.normal) + ", \"offset\": " + numberText(shape.offset);
    case ShapeKind::sphere:
      return ", \"radius\": " + numberText(shape.radius);
    case ShapeKind::box:
      return ", \"half_extents\": " + vector(shape.halfExtents);
    case ShapeKind::ellipsoid:
      return ", \"semi_axes\": " + vector(shape.semiAxes);
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      return ", \"radius\": " + numberText(shape.radius) +
             ", \"half_height\": " + numberText(shape.halfHeight);
    case ShapeKind::convexHull: {
      std::string points;
      for (const btVector3& p : shape.points)
        points += (points.empty() ? "" : ", ") + vector(p);
      return ", \"points\": [" + points + "]";
    }
    case ShapeKind::compound: {
      std::string children;
      for (const CompoundChild& child : shape.children) {
        children += std::string(children.empty() ? "" : ", ") + "{\"shape\": \"" +
                    toString(child.shape.kind) + "\"" + shapeFields(child.shape) +
                    ", \"position\": " + vector(child.position) +
                    ", \"orientation\": " + quaternion(child.orientation) + "}";
      }
      return ", \"children\": [" + children + "]";
    }
  }
  return "";
}

// The joint types that take an axis (the scene file's `axis` key).
bool hasAxis(JointKind kind) {
  return kind == JointKind::hinge || kind == JointKind::slider || kind == JointKind::coneTwist ||
         kind == JointKind::sixDof;
}

const SceneBody* bodyNamed(const Scene& scene, const std::string& name) {
  for (const SceneBody& body : scene.bodies) {
    if (body.name == name) return &body;
  }
  return nullptr;  // the world
}

// The joint's pivot (and axis) in one body's frame at t = 0, the frame of its rows in bodies.csv;
// the world's frame for a joint to the world (no body).
std::string anchorFields(const SceneJoint& joint, const SceneBody* body, const char* suffix) {
  const btTransform toBody =
      body ? btTransform(body->orientation, body->position).inverse() : btTransform::getIdentity();
  std::string out = std::string(", \"pivot_") + suffix + "\": " + vector(toBody * joint.pivot);
  if (hasAxis(joint.kind)) {
    out += std::string(", \"axis_") + suffix + "\": " + vector(toBody.getBasis() * joint.axis);
  }
  return out;
}

}  // namespace

std::string sceneJson(const Scene& scene) {
  std::ostringstream out;
  out << "{\n  \"source\": " << quoted(scene.source)
      << ",\n  \"gravity\": " << vector(scene.world.gravity) << ",\n  \"bodies\": [";
  const char* separator = "\n";
  for (const SceneBody& body : scene.bodies) {
    out << separator << "    {\"name\": " << quoted(body.name) << ", \"shape\": \""
        << toString(body.shape.kind) << "\", \"static\": " << (body.isStatic() ? "true" : "false")
        << shapeFields(body.shape) << ", \"position\": " << vector(body.position)
        << ", \"orientation\": " << quaternion(body.orientation) << "}";
    separator = ",\n";
  }
  out << "\n  ],\n  \"joints\": [";
  separator = "\n";
  for (const SceneJoint& joint : scene.joints) {
    const SceneBody* bodyB = joint.bodyB.empty() ? nullptr : bodyNamed(scene, joint.bodyB);
    out << separator << "    {\"type\": \"" << toString(joint.kind)
        << "\", \"body_a\": " << quoted(joint.bodyA)
        << ", \"body_b\": " << (bodyB ? quoted(joint.bodyB) : "null")
        << anchorFields(joint, bodyNamed(scene, joint.bodyA), "a")
        << anchorFields(joint, bodyB, "b") << "}";
    separator = ",\n";
  }
  out << (scene.joints.empty() ? "" : "\n  ") << "]\n}\n";
  return out.str();
}

}  // namespace carom::cli
