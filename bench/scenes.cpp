#include "scenes.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "carom/bullet/ellipsoid_shape.h"

namespace carom::bench {
namespace {

// Bullet multiplies the two bodies' restitutions and frictions: giving every body the square root
// makes every pair, body–body and body–wall alike, use `restitution` and `friction`.
void setContactMaterial(btRigidBody* body, double restitution, double friction) {
  body->setRestitution(std::sqrt(restitution));
  body->setFriction(std::sqrt(friction));
}

// Static walls of thickness 0.2 m around [-half, half]² from y = 0 to `height`, and the ground.
void addWalls(World& scene, double half, double height, bool lid, double restitution,
              double friction) {
  setContactMaterial(scene.addGround(), restitution, friction);
  const double t = 0.1;
  const btVector3 sides[] = {
      {half + t, 0, 0}, {-half - t, 0, 0}, {0, 0, half + t}, {0, 0, -half - t}};
  for (const btVector3& side : sides) {
    const btVector3 extent = side.x() != 0 ? btVector3(t, height / 2, half + 2 * t)
                                           : btVector3(half + 2 * t, height / 2, t);
    setContactMaterial(scene.add(new btBoxShape(extent), 0, side + btVector3(0, height / 2, 0)),
                       restitution, friction);
  }
  if (lid) {
    setContactMaterial(scene.add(new btBoxShape(btVector3(half + 2 * t, t, half + 2 * t)), 0,
                                 btVector3(0, height + t, 0)),
                       restitution, friction);
  }
}

// Bodies per row of a bin's layer, for about five layers of `bodies`: 8 for 300.
int perRow(int bodies) {
  return std::max(3, static_cast<int>(std::lround(std::sqrt(bodies / 4.7))));
}

// Where body i of a bin's grid starts: `row` per row and per column, 0.45 m apart, layers 0.45 m
// apart from 1 m up, jittered sideways.
btVector3 gridPoint(int i, int row, std::mt19937& random) {
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  const double first = -0.225 * (row - 1);
  return btVector3(first + 0.45 * (i % row) + jitter(random), 1.0 + 0.45 * (i / (row * row)),
                   first + 0.45 * ((i / row) % row) + jitter(random));
}

}  // namespace

void pourIntoBin(World& scene, int bodies) {
  const int row = perRow(bodies);
  addWalls(scene, 0.25 * row, 1.5, false, 0.3, 0.5);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (int i = 0; i < bodies; ++i) {
    const btVector3 at = gridPoint(i, row, random);
    btCollisionShape* shape = nullptr;
    switch (i % 3) {
      case 0:
        shape = new btSphereShape(0.15);
        break;
      case 1:
        shape = new btBoxShape(btVector3(0.15, 0.1, 0.12));
        break;
      default:
        shape = new EllipsoidShape(btVector3(0.18, 0.1, 0.13));
        break;
    }
    btRigidBody* body = scene.add(shape, 1.0, at);
    body->setAngularVelocity(btVector3(jitter(random), jitter(random), jitter(random)) * 40);
    setContactMaterial(body, 0.3, 0.5);
  }
}

void boxPyramid(World& scene, int levels) {
  droppedBoxPyramid(scene, levels, 0.0);
}

void droppedBoxPyramid(World& scene, int levels, double gap) {
  setContactMaterial(scene.addGround(), 0.0, 0.6);
  for (int row = 0; row < levels; ++row) {
    for (int i = 0; i < levels - row; ++i) {
      const btVector3 at(i - 0.5 * (levels - row - 1), 0.5 + row + gap * (row + 1), 0);
      setContactMaterial(scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0, at), 0.0, 0.6);
    }
  }
}

void brickWall(World& scene, int rows, int bricks) {
  setContactMaterial(scene.addGround(), 0.0, 0.6);
  const btVector3 half(0.2, 0.1, 0.1);
  for (int row = 0; row < rows; ++row) {
    const double shift = row % 2 == 0 ? 0.0 : 0.2;  // running bond: every other row half a brick
    for (int i = 0; i < bricks; ++i) {
      const btVector3 at(0.4 * i + shift - 0.2 * bricks, 0.1 + 0.2 * row, 0);
      setContactMaterial(scene.add(new btBoxShape(half), 1.0, at), 0.0, 0.6);
    }
  }
}

void pourHulls(World& scene, int hulls) {
  const int row = perRow(hulls);
  addWalls(scene, 0.25 * row, 1.5, false, 0.3, 0.5);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> coordinate(-0.1, 0.1);
  for (int i = 0; i < hulls; ++i) {
    std::vector<btVector3> points(12);
    btVector3 centre(0, 0, 0);
    for (btVector3& point : points) {
      point = btVector3(coordinate(random), coordinate(random), coordinate(random));
      centre += point / points.size();
    }
    // The body frame at the centre of mass: the points' mean is close to it, and for a scene to
    // time the difference does not matter.
    auto* shape = new btConvexHullShape();
    for (const btVector3& point : points)
      shape->addPoint(point - centre, false);
    shape->recalcLocalAabb();
    btRigidBody* body = scene.add(shape, 1.0, gridPoint(i, row, random));
    setContactMaterial(body, 0.3, 0.5);
  }
}

void elasticBallsInABox(World& scene, int balls) {
  addWalls(scene, 1.5, 3.0, true, 1.0, 0.0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> speed(-2.0, 2.0);
  for (int i = 0; i < balls; ++i) {
    // 5 × 5 per layer, 0.55 m apart, four layers.
    const btVector3 at(-1.1 + 0.55 * (i % 5), 0.4 + 0.6 * (i / 25), -1.1 + 0.55 * ((i / 5) % 5));
    const btVector3 velocity(speed(random), speed(random), speed(random));
    setContactMaterial(scene.add(new btSphereShape(0.1), 1.0, at, velocity), 1.0, 0.0);
  }
}

namespace {

btTransform frameAt(double yaw, double pitch, double roll, const btVector3& origin) {
  btQuaternion rotation;
  rotation.setEulerZYX(roll, pitch, yaw);  // Bullet's demo: getBasis().setEulerZYX(x, y, z)
  return btTransform(rotation, origin);
}

// One ragdoll of Bullet's demo with its pelvis at `at`, turned by `turn` about the vertical.
void addRagdoll(World& scene, const btVector3& at, double turn) {
  const btTransform place(btQuaternion(btVector3(0, 1, 0), turn), at);
  const double halfPi = M_PI / 2, quarterPi = M_PI / 4;
  struct Part {
    double radius, height;
    btVector3 position;
    double roll;  // about z: the arms lie sideways
  };
  const Part parts[] = {{0.15, 0.20, {0, 0, 0}, 0},
                        {0.15, 0.28, {0, 0.2, 0}, 0},
                        {0.10, 0.05, {0, 0.6, 0}, 0},
                        {0.07, 0.45, {-0.18, -0.35, 0}, 0},
                        {0.05, 0.37, {-0.18, -0.8, 0}, 0},
                        {0.07, 0.45, {0.18, -0.35, 0}, 0},
                        {0.05, 0.37, {0.18, -0.8, 0}, 0},
                        {0.05, 0.33, {-0.35, 0.45, 0}, halfPi},
                        {0.04, 0.25, {-0.7, 0.45, 0}, halfPi},
                        {0.05, 0.33, {0.35, 0.45, 0}, -halfPi},
                        {0.04, 0.25, {0.7, 0.45, 0}, -halfPi}};
  std::vector<btRigidBody*> body;
  for (const Part& part : parts) {
    const btTransform pose = place * frameAt(0, 0, part.roll, part.position);
    btRigidBody* added =
        scene.add(new btCapsuleShape(part.radius, part.height), 1.0, pose.getOrigin());
    added->setCenterOfMassTransform(pose);
    setContactMaterial(added, 0.0, 0.8);
    body.push_back(added);
  }
  enum {
    kPelvis,
    kSpine,
    kHead,
    kLeftUpperLeg,
    kLeftLowerLeg,
    kRightUpperLeg,
    kRightLowerLeg,
    kLeftUpperArm,
    kLeftLowerArm,
    kRightUpperArm,
    kRightLowerArm
  };
  const auto hinge = [&](int a, int b, const btVector3& inA, const btVector3& inB, double lower,
                         double upper) {
    auto* joint = new btHingeConstraint(*body[a], *body[b], frameAt(0, halfPi, 0, inA),
                                        frameAt(0, halfPi, 0, inB));
    joint->setLimit(lower, upper);
    scene.addJoint(joint, true);
  };
  const auto cone = [&](int a, int b, double rollA, const btVector3& inA, double rollB,
                        const btVector3& inB, double swing, double twist) {
    auto* joint = new btConeTwistConstraint(*body[a], *body[b], frameAt(0, 0, rollA, inA),
                                            frameAt(0, 0, rollB, inB));
    joint->setLimit(swing, swing, twist);
    scene.addJoint(joint, true);
  };
  hinge(kPelvis, kSpine, {0, 0.15, 0}, {0, -0.15, 0}, -quarterPi, halfPi);
  cone(kSpine, kHead, halfPi, {0, 0.30, 0}, halfPi, {0, -0.14, 0}, quarterPi, halfPi);
  cone(kPelvis, kLeftUpperLeg, -5 * quarterPi, {-0.18, -0.10, 0}, -5 * quarterPi, {0, 0.225, 0},
       quarterPi, 0);
  hinge(kLeftUpperLeg, kLeftLowerLeg, {0, -0.225, 0}, {0, 0.185, 0}, 0, halfPi);
  cone(kPelvis, kRightUpperLeg, quarterPi, {0.18, -0.10, 0}, quarterPi, {0, 0.225, 0}, quarterPi,
       0);
  hinge(kRightUpperLeg, kRightLowerLeg, {0, -0.225, 0}, {0, 0.185, 0}, 0, halfPi);
  cone(kSpine, kLeftUpperArm, M_PI, {-0.2, 0.15, 0}, halfPi, {0, -0.18, 0}, halfPi, 0);
  hinge(kLeftUpperArm, kLeftLowerArm, {0, 0.18, 0}, {0, -0.14, 0}, 0, halfPi);
  cone(kSpine, kRightUpperArm, 0, {0.2, 0.15, 0}, halfPi, {0, -0.18, 0}, halfPi, 0);
  hinge(kRightUpperArm, kRightLowerArm, {0, 0.18, 0}, {0, -0.14, 0}, 0, halfPi);
}

}  // namespace

// Bullet's BenchmarkDemo (createTest3) stacks its ragdolls 7 apart at scale 3.5: 2 m here. At
// 1.2 m each one's lower legs started 2.6 cm inside the pelvis of the one below, an overlap
// variational mode refuses before the first step.
void ragdollPile(World& scene, int ragdolls) {
  setContactMaterial(scene.addGround(), 0.0, 0.8);
  for (int i = 0; i < ragdolls; ++i)
    addRagdoll(scene, btVector3(0.1 * (i % 2), 1.2 + 2.0 * i, 0), 0.25 * M_PI * i);
}

}  // namespace carom::bench
