#include "scene_summary.h"

namespace carom::cli {
namespace {

std::ostream& operator<<(std::ostream& out, const btVector3& v) {
  return out << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
}

void printShape(const ShapeSpec& shape, std::ostream& out) {
  out << toString(shape.kind);
  switch (shape.kind) {
    case ShapeKind::plane:
      out << " normal " << shape.normal << " offset " << shape.offset;
      break;
    case ShapeKind::sphere:
      out << " radius " << shape.radius;
      break;
    case ShapeKind::box:
      out << " half_extents " << shape.halfExtents;
      break;
    case ShapeKind::ellipsoid:
      out << " semi_axes " << shape.semiAxes;
      break;
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      out << " radius " << shape.radius << " half_height " << shape.halfHeight;
      break;
    case ShapeKind::convexHull:
      out << " of " << shape.points.size() << " points";
      break;
    case ShapeKind::compound:
      out << " of " << shape.children.size() << " children:";
      for (const CompoundChild& child : shape.children) {
        out << " (";
        printShape(child.shape, out);
        out << " at " << child.position << ")";
      }
      break;
  }
}

}  // namespace

void printScene(const Scene& scene, std::ostream& out) {
  const WorldSettings& world = scene.world;
  out << scene.source << ": " << scene.bodies.size() << " bodies\n"
      << "world: gravity " << world.gravity << " m/s², timestep " << world.timestep
      << " s, duration " << world.duration << " s, output every " << world.outputEvery << " steps\n"
      << "solver: kind " << toString(scene.config.solver.kind) << ", simultaneous "
      << toString(scene.config.solver.simultaneous) << ", seed " << scene.config.solver.seed
      << ", max_events_per_step " << scene.config.solver.maxEventsPerStep << ", threads "
      << scene.config.solver.threads << ", simultaneous_contacts "
      << scene.config.solver.simultaneousContacts << "\n";
  for (const auto& [name, material] : scene.config.materials()) {
    out << "material " << name << ": impact " << toString(material.impact) << ", restitution "
        << material.restitution << ", friction " << material.friction << ", roughness "
        << material.roughness << "\n";
  }
  for (const SceneBody& body : scene.bodies) {
    out << "body " << body.name << ": ";
    printShape(body.shape, out);
    if (body.isStatic()) {
      out << ", static";
    } else {
      out << ", mass " << body.mass << " kg, inertia " << body.inertia << " kg·m²";
    }
    if (body.shape.kind != ShapeKind::plane) {
      const btQuaternion& q = body.orientation;
      out << ", position " << body.position << ", orientation [" << q.w() << ", " << q.x() << ", "
          << q.y() << ", " << q.z() << "], velocity " << body.velocity << ", angular_velocity "
          << body.angularVelocity;
    }
    out << ", material " << body.material << "\n";
  }
}

}  // namespace carom::cli
