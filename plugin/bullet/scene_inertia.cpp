#include "scene_inertia.h"

#include <cmath>

#include "config_values.h"

namespace carom {

std::string inertiaProblem(const ShapeSpec& shape) {
  if (shape.kind == ShapeKind::convexHull || shape.kind == ShapeKind::compound) {
    return std::string("missing: a dynamic ") + toString(shape.kind) +
           " needs inertia = [Ixx, Iyy, Izz] about its centre of mass (its body origin)";
  }
  if (shape.kind == ShapeKind::plane) return "a plane is static";
  return {};
}

std::string derivedInertiaProblem(const btVector3& inertia) {
  for (int i = 0; i < 3; ++i) {
    if (!(std::isnormal(inertia[i]) && inertia[i] > 0)) {
      return "the moments of inertia from the shape's size and mass are [" +
             config_values::numberText(inertia.x()) + ", " +
             config_values::numberText(inertia.y()) + ", " +
             config_values::numberText(inertia.z()) +
             "], not finite and positive; give sizes and a mass within double range";
    }
  }
  return {};
}

std::string inertiaTriangleProblem(const btVector3& inertia) {
  using config_values::numberText;
  for (int i = 0; i < 3; ++i) {
    const double others = inertia[(i + 1) % 3] + inertia[(i + 2) % 3];
    if (inertia[i] > others * (1 + kInertiaTriangleTolerance)) {
      return "[" + numberText(inertia.x()) + ", " + numberText(inertia.y()) + ", " +
             numberText(inertia.z()) + "] is no body's: each principal moment is at most the sum " +
             "of the other two, and " + numberText(inertia[i]) + " > " + numberText(others);
    }
  }
  return {};
}

btVector3 shapeInertia(const ShapeSpec& shape, double mass) {
  const double r = shape.radius;
  switch (shape.kind) {
    case ShapeKind::sphere:
      return btVector3(1, 1, 1) * (0.4 * mass * r * r);
    case ShapeKind::box: {
      const btVector3 e = shape.halfExtents;
      return btVector3(e.y() * e.y() + e.z() * e.z(), e.x() * e.x() + e.z() * e.z(),
                       e.x() * e.x() + e.y() * e.y()) *
             (mass / 3.0);
    }
    case ShapeKind::ellipsoid: {
      const btVector3 a = shape.semiAxes;
      return btVector3(a.y() * a.y() + a.z() * a.z(), a.x() * a.x() + a.z() * a.z(),
                       a.x() * a.x() + a.y() * a.y()) *
             (mass / 5.0);
    }
    case ShapeKind::cylinder: {
      const double length = 2 * shape.halfHeight;
      const double across = mass * (3 * r * r + length * length) / 12.0;
      return {across, across, 0.5 * mass * r * r};
    }
    case ShapeKind::capsule: {
      // A cylinder of length L and two hemispheres of one density; a hemisphere's own moment
      // across the axis is (2/5)m r² about the sphere centre, shifted by L/2 + 3r/8 to its centre
      // of mass and back (parallel axis theorem).
      const double length = 2 * shape.halfHeight;
      const double cylinderVolume = M_PI * r * r * length;
      const double sphereVolume = 4.0 / 3.0 * M_PI * r * r * r;
      const double mc = mass * cylinderVolume / (cylinderVolume + sphereVolume);
      const double ms = mass - mc;
      const double axial = 0.5 * mc * r * r + 0.4 * ms * r * r;
      const double across = mc * (3 * r * r + length * length) / 12.0 +
                            ms * (0.4 * r * r + length * length / 4 + 3 * length * r / 8);
      return {across, across, axial};
    }
    case ShapeKind::plane:
    case ShapeKind::convexHull:
    case ShapeKind::compound:
      break;
  }
  return {0, 0, 0};
}

}  // namespace carom
