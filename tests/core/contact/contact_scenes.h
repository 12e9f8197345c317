// Contact problems shared by the persistent-contact solver's tests: a box on the ground, a tower
// of boxes, a heavy block on a light one and random stacks, each with its bodies and contacts.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "carom/core/contact/persistent_contact.h"
#include "support/random.h"

namespace carom::core::contact::test_scenes {

using impact::ContactBody;

constexpr double kG = 9.81, kH = 0.01;

// A box of mass m and half extents (a, b, c) with its centre at (0, 0, c) on the plane z = 0,
// touching it at its four bottom corners.
struct BoxOnGround {
  double mass = 2.0;
  Vec3 half{0.5, 0.3, 0.2};
  std::vector<ContactBody> bodies;
  std::vector<PersistentContact> contacts;

  BoxOnGround(const Vec3& velocity, const Vec3& spin, double mu, const Vec3& up = Vec3::UnitZ()) {
    const Vec3 inertia =
        mass / 3.0 *
        Vec3(half.y() * half.y() + half.z() * half.z(), half.x() * half.x() + half.z() * half.z(),
             half.x() * half.x() + half.y() * half.y());
    // Frame with e3 = up: the box's bottom face lies on the plane through the origin normal to up.
    const Vec3 e1 = up.unitOrthogonal(), e2 = up.cross(e1);
    Mat3 frame;
    frame << e1, e2, up;
    ContactBody box;
    box.inverseMass = 1.0 / mass;
    box.inverseInertiaWorld = frame * inertia.cwiseInverse().asDiagonal() * frame.transpose();
    box.centerOfMass = half.z() * up;
    box.linearVelocity = velocity;
    box.angularVelocity = spin;
    bodies.push_back(box);
    for (double sx : {-1.0, 1.0}) {
      for (double sy : {-1.0, 1.0}) {
        PersistentContact c;
        c.bodyA = kWorld;
        c.bodyB = 0;
        c.point = frame * Vec3(sx * half.x(), sy * half.y(), 0.0);
        c.normal = up;
        c.friction = mu;
        contacts.push_back(c);
      }
    }
  }
};

// A cold tower of unit boxes (five unless told) on the ground, each falling at g h into the
// contacts at its four bottom corners, μ = 0.5: at the solution every box is at rest and each layer
// of corners carries the weight above it. Gauss–Seidel passes a load one layer down per sweep, and
// on the redundant corners its friction cycles and its change per sweep crawls; the conjugate
// momentum carries the loads on.
struct Tower {
  static constexpr int kLevels = 5;
  std::vector<ContactBody> bodies;
  std::vector<PersistentContact> contacts;
  explicit Tower(int levels = kLevels) {
    for (int level = 0; level < levels; ++level) {
      ContactBody box;
      box.inverseMass = 1.0;
      box.inverseInertiaWorld = Mat3::Identity() * 6.0;  // a unit cube of unit mass
      box.centerOfMass = Vec3(0, 0, 0.5 + level);
      box.linearVelocity = Vec3(0, 0, -kG * kH);
      bodies.push_back(box);
      for (double sx : {-0.5, 0.5}) {
        for (double sy : {-0.5, 0.5}) {
          PersistentContact c;
          c.bodyA = level == 0 ? kWorld : level - 1;
          c.bodyB = level;
          c.point = Vec3(sx, sy, level);
          c.friction = 0.5;
          contacts.push_back(c);
        }
      }
    }
  }
};

// A heavy block on a light one on the ground, falling at g h into both contacts, cold: Gauss–Seidel
// on the two normal rows contracts by K₁₂²/(K₁₁K₂₂) = M/(M + m) per sweep, 0.99999 for M = 10⁵ m,
// so its change per sweep falls by 1 % only every 1000 sweeps; for M = m it halves every sweep.
struct HeavyOnLight {
  std::vector<ContactBody> bodies;
  std::vector<PersistentContact> contacts;
  explicit HeavyOnLight(double heavyMass) {
    for (const double mass : {1.0, heavyMass}) {
      ContactBody block;
      block.inverseMass = 1.0 / mass;
      block.inverseInertiaWorld = Mat3::Identity() * (6.0 / mass);  // a unit cube's
      block.centerOfMass = Vec3(0, 0, 0.5 + static_cast<double>(bodies.size()));
      block.linearVelocity = Vec3(0, 0, -kG * kH);
      bodies.push_back(block);
    }
    PersistentContact ground, between;
    ground.bodyB = 0;
    between.bodyA = 0;
    between.bodyB = 1;
    between.point = Vec3(0, 0, 1);
    contacts = {ground, between};
  }
};

// Three random bodies pressed into each other and the ground at five random points, random
// normals and friction: badly conditioned, often redundant problems.
struct RandomStack {
  std::vector<ContactBody> bodies;
  std::vector<PersistentContact> contacts;
  explicit RandomStack(test::Random& random) : bodies(3) {
    for (ContactBody& b : bodies) {
      const MassProperties mp = random.body();
      const Mat3 R = random.rotation();
      b.inverseMass = mp.inverseMass();
      b.inverseInertiaWorld = R * mp.inverseInertia() * R.transpose();
      b.centerOfMass = random.vector(1.0);
      b.linearVelocity = random.vector(1.0);
      b.angularVelocity = random.vector(1.0);
    }
    for (int k = 0; k < 5; ++k) {
      PersistentContact c;
      c.bodyA = k < 2 ? kWorld : static_cast<int>(random.uniform(0, 2.999));
      c.bodyB =
          (c.bodyA == kWorld) ? static_cast<int>(random.uniform(0, 2.999)) : (c.bodyA + 1) % 3;
      c.point = random.vector(1.0);
      c.normal = random.unitVector();
      c.friction = random.uniform(0.0, 1.0);
      contacts.push_back(c);
    }
  }
};

// A random stack's solution: no energy gained, no contact approaching, every impulse in its cone.
inline void expectContactConditions(const PersistentContactReport& report,
                                    const std::vector<PersistentContact>& contacts, int trial) {
  EXPECT_LE(report.energyChange, 1e-12) << trial;
  EXPECT_LE(report.penetrationRate, 1e-8) << trial;
  for (const PersistentContact& c : contacts) {
    const double pn = c.normal.dot(c.impulse);
    EXPECT_GE(pn, -1e-14) << trial;
    EXPECT_LE((c.impulse - pn * c.normal).norm(), c.friction * pn + 1e-10) << trial;
  }
}

// Every box of the tower at rest and each layer of corners carrying the weight above it, to
// `tolerance` (m/s, rad/s, N s).
inline void expectTowerAtRest(const Tower& tower, int levels, double tolerance) {
  for (int level = 0; level < levels; ++level) {
    const ContactBody& box = tower.bodies[level];
    EXPECT_LE(box.linearVelocity.norm(), tolerance) << level;
    EXPECT_LE(box.angularVelocity.norm(), tolerance) << level;
    Vec3 carried = Vec3::Zero();  // by the corners under this box
    for (int corner = 0; corner < 4; ++corner)
      carried += tower.contacts[4 * level + corner].impulse;
    EXPECT_NEAR(carried.z(), (levels - level) * kG * kH, tolerance) << level;
    EXPECT_NEAR(carried.head<2>().norm(), 0.0, tolerance) << level;
  }
}

}  // namespace carom::core::contact::test_scenes
