// Contacts and momentum bookkeeping shared by the impact-law tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "carom/core/impact/contact.h"
#include "carom/error.h"
#include "support/errors.h"
#include "support/random.h"

namespace carom::test {

using core::Mat3;
using core::Vec3;
using core::impact::Contact;
using core::impact::ContactBody;
using core::impact::ImpactOutcome;

// A movable body: mass in [e⁻¹, e] kg, a full random inertia, centre within 1 m of the origin,
// velocities up to 2 m/s and 2 rad/s.
inline ContactBody randomBody(Random& random) {
  ContactBody body;
  body.inverseMass = std::exp(random.uniform(-1.0, 1.0));
  body.inverseInertiaWorld = random.inertia().inverse();
  body.inverseInertiaWorld =
      0.5 * (body.inverseInertiaWorld + body.inverseInertiaWorld.transpose());
  body.centerOfMass = random.vector(1.0);
  body.linearVelocity = random.vector(2.0);
  body.angularVelocity = random.vector(2.0);
  return body;
}

// Two random asymmetric bodies touching at a random point with a random normal; the velocities
// are reversed if needed so that the bodies approach.
inline Contact randomContact(Random& random) {
  Contact contact{randomBody(random), randomBody(random), random.vector(0.5), random.unitVector()};
  if (contact.normal.dot(core::impact::relativeVelocity(contact)) > 0.0) {
    for (ContactBody* body : {&contact.a, &contact.b}) {
      body->linearVelocity = -body->linearVelocity;
      body->angularVelocity = -body->angularVelocity;
    }
  }
  return contact;
}

// A unit tangent of the contact, random.
inline Vec3 randomTangent(Random& random, const Vec3& normal) {
  Vec3 t;
  do {
    t = random.vector(1.0);
    t -= t.dot(normal) * normal;
  } while (t.norm() < 0.1);
  return t.normalized();
}

// The contact with the outcome's velocities (the pre-impact state of a next impact).
inline Contact after(const Contact& contact, const ImpactOutcome& outcome) {
  Contact next = contact;
  next.a.linearVelocity = outcome.linearVelocityA;
  next.a.angularVelocity = outcome.angularVelocityA;
  next.b.linearVelocity = outcome.linearVelocityB;
  next.b.angularVelocity = outcome.angularVelocityB;
  return next;
}

// The contact with every velocity reversed (time reversal).
inline Contact reversed(const Contact& contact) {
  Contact next = contact;
  for (ContactBody* body : {&next.a, &next.b}) {
    body->linearVelocity = -body->linearVelocity;
    body->angularVelocity = -body->angularVelocity;
  }
  return next;
}

// Total linear momentum m_A v_A + m_B v_B (movable bodies only).
inline Vec3 linearMomentum(const Contact& c) {
  return c.a.linearVelocity / c.a.inverseMass + c.b.linearVelocity / c.b.inverseMass;
}

// Total angular momentum about `origin`: Σ J ω + m (x − origin) × v (movable bodies only).
inline Vec3 angularMomentum(const Contact& c, const Vec3& origin) {
  Vec3 total = Vec3::Zero();
  for (const ContactBody* body : {&c.a, &c.b}) {
    total += body->inverseInertiaWorld.inverse() * body->angularVelocity +
             (body->centerOfMass - origin).cross(body->linearVelocity) / body->inverseMass;
  }
  return total;
}

// nᵀKn written out as the textbook frictionless-impact denominator,
// 1/m_A + 1/m_B + (r_A × n)ᵀ J_A⁻¹ (r_A × n) + (r_B × n)ᵀ J_B⁻¹ (r_B × n).
inline double normalInverseMass(const Contact& c) {
  const Vec3 an = (c.point - c.a.centerOfMass).cross(c.normal);
  const Vec3 bn = (c.point - c.b.centerOfMass).cross(c.normal);
  return c.a.inverseMass + c.b.inverseMass + an.dot(c.a.inverseInertiaWorld * an) +
         bn.dot(c.b.inverseInertiaWorld * bn);
}

// The classical frictionless impulse on B with restitution e: −(1 + e)(n·Δu)/(nᵀKn) n.
inline Vec3 frictionlessImpulse(const Contact& c, double restitution) {
  const double approach = c.normal.dot(core::impact::relativeVelocity(c));
  return -(1.0 + restitution) * approach / normalInverseMass(c) * c.normal;
}

// A uniform slender rod (m = 1 kg, L = 1 m) at 45° whose lower end hits fixed ground (A), normal
// +z, in the x–z plane, translating with `velocity` (Jia & Wang digest §7 test 10). About its
// centre J = (1/12)(I − ââᵀ) on the plane normal to its axis â, so with r = −â/2,
// K = (1/m)(4I − 3ââᵀ) = [[2.5, 0, −1.5], [0, 4, 0], [−1.5, 0, 2.5]].
inline Contact rodOnGround(const Vec3& velocity) {
  const Vec3 axis = Vec3(1.0, 0.0, 1.0).normalized();
  Contact contact;
  contact.point = Vec3::Zero();
  contact.normal = Vec3::UnitZ();
  contact.b.inverseMass = 1.0;
  contact.b.inverseInertiaWorld = 12.0 * (Mat3::Identity() - axis * axis.transpose());
  contact.b.centerOfMass = 0.5 * axis;
  contact.b.linearVelocity = velocity;
  return contact;
}

}  // namespace carom::test
