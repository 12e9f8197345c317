#include "carom/core/joints/joint.h"

#include <algorithm>
#include <cmath>

#include "carom/core/lie.h"
#include "carom/error.h"

namespace carom::core::joints {
namespace {

// A frame whose z axis is `axis` (normalised), its x any perpendicular: a hinge's rows constrain
// only the z axes.
Mat3 frameAlong(const Vec3& axis, const std::string& what) {
  const double length = axis.norm();
  if (!std::isfinite(length) || length < 1e-12) {
    throw Error(what + " is not finite or has zero length (below 1e-12)");
  }
  const Vec3 z = axis / length;
  const Vec3 x = z.unitOrthogonal();
  Mat3 basis;
  basis << x, z.cross(x), z;
  return basis;
}

void validateSide(const JointFrame& side, int bodyCount, const std::string& what) {
  if (side.body != kWorld && (side.body < 0 || side.body >= bodyCount)) {
    throw Error(what + ": body index " + std::to_string(side.body) + " is out of range (" +
                std::to_string(bodyCount) + " bodies, or kWorld = -1)");
  }
  if (!side.pivot.allFinite()) throw Error(what + ": pivot is not finite");
  if (!side.basis.allFinite() || orthogonalityError(side.basis) > 1e-9 ||
      side.basis.determinant() < 0.0) {
    throw Error(what + ": basis is not a rotation");
  }
}

}  // namespace

const char* toString(JointType type) {
  switch (type) {
    case JointType::kPoint:
      return "point";
    case JointType::kHinge:
      return "hinge";
    case JointType::kFixed:
      return "fixed";
    case JointType::kSlider:
      return "slider";
    case JointType::kConeSwing:
      return "cone swing";
    case JointType::kTwist:
      return "twist";
    case JointType::kSixDof:
      return "6dof";
  }
  return "unknown";
}

int rowCount(JointType type) {
  switch (type) {
    case JointType::kPoint:
      return 3;
    case JointType::kHinge:
    case JointType::kSlider:
      return 5;
    case JointType::kFixed:
      return 6;
    case JointType::kConeSwing:
    case JointType::kTwist:
      return 1;
    case JointType::kSixDof:  // per joint (rowCount(const Joint&))
      return 0;
  }
  return 0;
}

int rowCount(const Joint& joint) {
  if (joint.type != JointType::kSixDof) return rowCount(joint.type);
  const auto lockedIn = [&](int first) {
    return static_cast<int>(
        std::count(joint.locked.begin() + first, joint.locked.begin() + first + 3, true));
  };
  const int angular = lockedIn(3);
  return lockedIn(0) + (angular == 3 ? 3 : angular == 2 ? 2 : 0);
}

Joint pointJoint(int bodyA, const Vec3& pivotA, int bodyB, const Vec3& pivotB) {
  return {JointType::kPoint, {bodyA, pivotA, Mat3::Identity()}, {bodyB, pivotB, Mat3::Identity()}};
}

Joint hingeJoint(int bodyA, const Vec3& pivotA, const Vec3& axisA, int bodyB, const Vec3& pivotB,
                 const Vec3& axisB) {
  return {JointType::kHinge,
          {bodyA, pivotA, frameAlong(axisA, "hinge axis on side A")},
          {bodyB, pivotB, frameAlong(axisB, "hinge axis on side B")}};
}

Joint fixedJoint(const JointFrame& a, const JointFrame& b) {
  return {JointType::kFixed, a, b};
}

Joint sliderJoint(const JointFrame& a, const JointFrame& b) {
  return {JointType::kSlider, a, b};
}

Joint coneSwingJoint(const JointFrame& a, const JointFrame& b, double swingSpan1,
                     double swingSpan2) {
  Joint joint{JointType::kConeSwing, a, b};
  joint.swingSpan1 = swingSpan1;
  joint.swingSpan2 = swingSpan2;
  return joint;
}

Joint twistJoint(const JointFrame& a, const JointFrame& b, double twist) {
  Joint joint{JointType::kTwist, a, b};
  joint.twist = twist;
  return joint;
}

Joint sixDofJoint(const JointFrame& a, const JointFrame& b, const std::array<bool, 6>& locked) {
  Joint joint{JointType::kSixDof, a, b};
  joint.locked = locked;
  return joint;
}

void validateJoint(const Joint& joint, int bodyCount, const std::string& what) {
  const std::string name = what + " (" + toString(joint.type) + ")";
  validateSide(joint.a, bodyCount, name + " side A");
  validateSide(joint.b, bodyCount, name + " side B");
  if (joint.type == JointType::kConeSwing) {
    for (const double span : {joint.swingSpan1, joint.swingSpan2}) {
      if (!(span > 0 && std::isfinite(span)))
        throw Error(name + ": a swing span is not finite and positive (rad)");
    }
  }
  if (joint.type == JointType::kTwist && !std::isfinite(joint.twist))
    throw Error(name + ": twist is not finite (rad)");
  if (joint.type == JointType::kSixDof &&
      std::count(joint.locked.begin() + 3, joint.locked.end(), true) == 1)
    throw Error(name + ": exactly one rotation locked (all, all but one, or none are held)");
  if (joint.a.body == joint.b.body) {
    throw Error(name + ": both sides are on " +
                (joint.a.body == kWorld ? std::string("the world")
                                        : "body " + std::to_string(joint.a.body)));
  }
}

}  // namespace carom::core::joints
