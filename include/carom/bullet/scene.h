// carom::Scene: a scene file of INTERFACES.md §4 — world settings, the config tables ([solver],
// [material.*], [pair.*.*]) and the bodies with their shape, mass, pose, velocity and material —
// read and checked in full before anything uses it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "carom/bullet/config.h"
#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <LinearMath/btQuaternion.h>
#include <LinearMath/btVector3.h>

namespace carom {

/// [world]; the defaults are the values of INTERFACES.md §4.
struct WorldSettings {
  btVector3 gravity{0, 0, -9.81};  ///< m/s², world frame
  double timestep = 0.01;          ///< fixed step h (s), > 0
  double duration = 10.0;          ///< simulated time (s), > 0
  int outputEvery = 1;             ///< write a frame every N steps, ≥ 1
};

/// The most steps one run may take (duration / timestep): a run of 1e7 steps takes hours already,
/// and a count beyond it is a typo (duration = 1e12) that would otherwise run for years.
inline constexpr double kMaxRunSteps = 1e7;

/// What is wrong with a run of `duration` in steps of `timestep` (both s): empty when both are
/// finite, positive and not subnormal and duration / timestep is at most kMaxRunSteps.
std::string runStepsProblem(double duration, double timestep);
/// The number of steps of such a run (the last one ends at the duration or just past it, never
/// zero steps); throws carom::Error when runStepsProblem is not empty.
long long runSteps(double duration, double timestep);

enum class ShapeKind { plane, sphere, box, ellipsoid, capsule, cylinder, convexHull, compound };
const char* toString(ShapeKind kind);

struct CompoundChild;

/// The parameters of one shape; only those of `kind` are meaningful. Lengths in m, body frame.
/// Capsules and cylinders lie along the body's z axis.
struct ShapeSpec {
  ShapeKind kind = ShapeKind::sphere;
  btVector3 normal{0, 0, 1};       ///< plane: unit normal; the plane is n·x = offset (world frame)
  double offset = 0;               ///< plane
  double radius = 0;               ///< sphere, capsule, cylinder
  double halfHeight = 0;           ///< capsule (of the cylindrical part), cylinder
  btVector3 halfExtents{0, 0, 0};  ///< box
  btVector3 semiAxes{0, 0, 0};     ///< ellipsoid
  std::vector<btVector3> points;   ///< convex hull vertices
  std::vector<CompoundChild> children;  ///< compound: a union of convex shapes, e.g. two ellipsoids
};

/// One part of a compound shape, placed in the compound's body frame.
struct CompoundChild {
  ShapeSpec shape;                       ///< any kind but plane and compound
  btVector3 position{0, 0, 0};           ///< m, the child's origin in the body frame
  btQuaternion orientation{0, 0, 0, 1};  ///< child to body frame
};

/// A body's state at t = 0; its body frame has its origin at the centre of mass and its axes along
/// the principal axes of inertia.
struct SceneBody {
  std::string name;
  ShapeSpec shape;
  double mass = 0;              ///< kg; 0 makes the body static
  btVector3 inertia{0, 0, 0};   ///< principal moments (kg·m²), from the shape unless given
  btVector3 position{0, 0, 0};  ///< m, world frame
  btQuaternion orientation{0, 0, 0, 1};  ///< body to world
  btVector3 velocity{0, 0, 0};           ///< m/s, world frame
  btVector3 angularVelocity{0, 0, 0};    ///< rad/s, world frame
  std::string material = "default";      ///< a material of the scene's config
  int line = 0;                          ///< the [[body]] line in the scene file, for messages

  bool isStatic() const { return mass == 0; }
};

/// A [[joint]] table: one of Bullet's joints between two bodies of the scene, or a body and the
/// world (btTypedConstraint::getFixedBody()), placed where the bodies are at t = 0.
enum class JointKind { point, hinge, slider, fixed, coneTwist, sixDof };
const char* toString(JointKind kind);

struct SceneJoint {
  JointKind kind = JointKind::point;  ///< point (btPoint2PointConstraint), hinge, slider, fixed
                                      ///< (btFixedConstraint), cone_twist, six_dof
                                      ///< (btGeneric6DofSpring2Constraint)
  std::string bodyA;                  ///< a body's name
  std::string bodyB;                  ///< a body's name, or empty for the world
  btVector3 pivot{0, 0, 0};           ///< m, world frame at t = 0: the joint's point
  ///< Unit, world frame at t = 0: a hinge's axis, a slider's direction, a cone's twist axis (the
  ///< joint frame's z for a hinge, its x otherwise); point and fixed joints take none.
  btVector3 axis{1, 0, 0};
  bool limited = false;  ///< hinge (rad) and slider (m): lower ≤ upper
  double lower = 0, upper = 0;
  bool motor = false;  ///< hinge: target speed (rad/s) and largest impulse per step (N m s)
  double motorSpeed = 0;
  double motorImpulse = 0;
  btVector3 swing{0, 0, 0};  ///< cone_twist: swing spans 1 and 2 and twist span (rad), x unused
  ///< six_dof: lower and upper limits of the frame's translation (m) and rotation (rad) per axis;
  ///< lower = upper locks an axis, lower > upper frees it (Bullet's convention). Default: locked.
  btVector3 linearLower{0, 0, 0}, linearUpper{0, 0, 0};
  btVector3 angularLower{0, 0, 0}, angularUpper{0, 0, 0};
  bool disableCollisions = true;  ///< between the two bodies (addConstraint's flag)
  int line = 0;                   ///< the [[joint]] line in the scene file, for messages
};

struct Scene {
  std::string source;  // the file (or "<string>") the scene came from
  WorldSettings world;
  Config config;
  std::vector<SceneBody> bodies;
  std::vector<SceneJoint> joints;

  /// Throws carom::Error "SOURCE:LINE: KEY: problem" for malformed TOML, an unknown key, a wrong
  /// type, a missing or out-of-range value, a non-unit quaternion, an undefined material, a
  /// repeated body name, or a joint naming no body of the scene, joining a body to itself or two
  /// static bodies.
  static Scene parse(std::string_view text, std::string_view source = "<string>");
  /// parse() on a file's contents; throws carom::Error when the file cannot be read.
  static Scene fromFile(const std::string& path);
};

/// The Bullet shape of a spec (carom::EllipsoidShape for ellipsoids, btStaticPlaneShape for
/// planes, the z-axis variants of capsule and cylinder, a btCompoundShape that owns its children).
std::unique_ptr<btCollisionShape> makeShape(const ShapeSpec& spec);

}  // namespace carom
