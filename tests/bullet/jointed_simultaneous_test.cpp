// A simultaneous impact on jointed bodies (detail::resolveSimultaneously with joint rows): the
// joints' null space is found block by block, for the bodies each set of rows joins. Checked for
// what the impact must keep whatever the blocks: every row held after it, the reported contact and
// joint impulses accounting for every body's change of momentum, no energy made, and the same
// outcome whatever order the bodies and rows come in.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "carom/core/contact/joint_rows.h"
#include "simultaneous_impact.h"

namespace carom {
namespace {

using core::Vec3;
using core::contact::JointRow;
using core::impact::ContactBody;
using detail::kImmovable;
using detail::SimultaneousContact;
using detail::SimultaneousOutcome;

ContactBody box(double mass, const Vec3& at, const Vec3& v, const Vec3& w) {
  ContactBody body;
  body.inverseMass = 1 / mass;
  const double moment = mass * 0.1 * 0.1 * 2 / 3;  // a cube of half side 0.1 m
  body.inverseInertiaWorld = Vec3::Constant(1 / moment).asDiagonal();
  body.centerOfMass = at;
  body.linearVelocity = v;
  body.angularVelocity = w;
  return body;
}

// A ball joint at `pivot` between bodies a and b: three rows, v_B + ω_B × r_B − v_A − ω_A × r_A =
// 0.
void addBallJoint(std::vector<JointRow>& rows, const std::vector<ContactBody>& bodies, int a, int b,
                  const Vec3& pivot) {
  const Vec3 rA = pivot - bodies[a].centerOfMass, rB = pivot - bodies[b].centerOfMass;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = Vec3::Unit(k);
    JointRow row;
    row.bodyA = a;
    row.bodyB = b;
    row.linearA = -e;
    row.angularA = -rA.cross(e);
    row.linearB = e;
    row.angularB = rB.cross(e);
    rows.push_back(row);
  }
}

double rowVelocity(const std::vector<ContactBody>& bodies, const JointRow& row) {
  const ContactBody& a = bodies[row.bodyA];
  const ContactBody& b = bodies[row.bodyB];
  return row.linearA.dot(a.linearVelocity) + row.angularA.dot(a.angularVelocity) +
         row.linearB.dot(b.linearVelocity) + row.angularB.dot(b.angularVelocity);
}

double kineticEnergy(const std::vector<ContactBody>& bodies) {
  double energy = 0;
  for (const ContactBody& body : bodies) {
    energy +=
        0.5 * body.linearVelocity.squaredNorm() / body.inverseMass +
        0.5 * body.angularVelocity.dot(body.inverseInertiaWorld.inverse() * body.angularVelocity);
  }
  return energy;
}

// Two hinged-like pairs (ball joints) and a free box, falling onto the ground and onto each other:
// bodies 0–1 one block of rows, 2–3 another, 4 none; five contacts reach all of them.
struct Scene {
  std::vector<ContactBody> bodies;
  std::vector<JointRow> joints;
  std::vector<SimultaneousContact> contacts;
};

Scene pilesOfPairs() {
  core::impact::Material material;
  material.restitution = 0.4;
  material.friction = 0.3;
  Scene s;
  s.bodies = {box(1.0, {0.0, 0.1, 0.0}, {0.2, -1.0, 0.0}, {0.0, 0.5, 1.0}),
              box(2.0, {0.2, 0.1, 0.0}, {0.1, -1.2, 0.1}, {0.3, 0.0, -0.4}),
              box(1.5, {0.0, 0.3, 0.05}, {-0.1, -2.0, 0.0}, {0.2, 0.1, 0.0}),
              box(0.5, {0.0, 0.5, 0.05}, {0.0, -2.5, 0.2}, {-0.6, 0.0, 0.3}),
              box(0.8, {0.2, 0.3, 0.0}, {0.0, -3.0, -0.1}, {0.0, 0.0, 0.7})};
  addBallJoint(s.joints, s.bodies, 0, 1, {0.1, 0.1, 0.0});
  addBallJoint(s.joints, s.bodies, 2, 3, {0.0, 0.4, 0.05});
  // The rows need not hold before the impact: its velocities are projected onto those they allow,
  // by impulses along the rows, and they are checked after it, as what it must establish.
  const Vec3 up = Vec3::UnitY();
  s.contacts = {{kImmovable, 0, {0.0, 0.0, 0.0}, up, material},
                {kImmovable, 1, {0.25, 0.0, 0.05}, up, material},
                {0, 2, {0.0, 0.2, 0.05}, up, material},
                {1, 4, {0.2, 0.2, 0.0}, up, material},
                {2, 4, {0.1, 0.3, 0.02}, Vec3(1, 0, 0), material}};
  return s;
}

SimultaneousOutcome resolve(Scene& s) {
  return detail::resolveSimultaneously(
      s.bodies, s.contacts, Vec3::Zero(),
      [](const auto&, const auto&) { return core::routh::ImpactPolicy{}; }, s.joints);
}

TEST(JointedSimultaneousImpact, HoldsEveryBlocksRowsAndAccountsForTheMomentum) {
  Scene s = pilesOfPairs();
  const std::vector<ContactBody> before = s.bodies;
  const SimultaneousOutcome outcome = resolve(s);
  for (const JointRow& row : s.joints)
    EXPECT_NEAR(rowVelocity(s.bodies, row), 0.0, 1e-9);
  EXPECT_LE(kineticEnergy(s.bodies) - kineticEnergy(before), 1e-12);
  EXPECT_LE(outcome.energyChange, 1e-12);
  ASSERT_EQ(outcome.jointImpulses.size(), static_cast<Eigen::Index>(s.joints.size()));
  // Each body's change of momentum is the contacts' impulses on it plus the joint rows'.
  std::vector<Vec3> linear(s.bodies.size(), Vec3::Zero()), angular(s.bodies.size(), Vec3::Zero());
  for (std::size_t i = 0; i < s.contacts.size(); ++i) {
    const SimultaneousContact& c = s.contacts[i];
    const Vec3& p = outcome.impulse[i];  // on B, −p on A
    for (const auto& [index, sign] : {std::pair{c.bodyA, -1.0}, {c.bodyB, 1.0}}) {
      if (index == kImmovable) continue;
      linear[index] += sign * p;
      angular[index] += sign * (c.point - before[index].centerOfMass).cross(p);
    }
  }
  for (std::size_t r = 0; r < s.joints.size(); ++r) {
    const JointRow& row = s.joints[r];
    const double lambda = outcome.jointImpulses(static_cast<Eigen::Index>(r));
    linear[row.bodyA] += lambda * row.linearA;
    angular[row.bodyA] += lambda * row.angularA;
    linear[row.bodyB] += lambda * row.linearB;
    angular[row.bodyB] += lambda * row.angularB;
  }
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    const Vec3 dp =
        (s.bodies[b].linearVelocity - before[b].linearVelocity) / s.bodies[b].inverseMass;
    const Vec3 dL = s.bodies[b].inverseInertiaWorld.inverse() *
                    (s.bodies[b].angularVelocity - before[b].angularVelocity);
    EXPECT_LT((dp - linear[b]).norm(), 1e-9) << "body " << b;
    EXPECT_LT((dL - angular[b]).norm(), 1e-9) << "body " << b;
  }
  // The free box took something (the impact reached every block).
  EXPECT_GT((s.bodies[4].linearVelocity - before[4].linearVelocity).norm(), 0.1);
}

// Two boxes on a ball joint, the lower one falling onto the ground as fast as the upper one
// rises: the joint's projection alone stops the pair, and nothing is left for the contact. The
// modes size Halm–Posa's caps by the fastest approach (a quarter of its stopping impulse in lcp
// mode), none here; the pair leaves at rest on the row impulses alone.
TEST(JointedSimultaneousImpact, AContactTheJointsAloneStopTakesNoImpulse) {
  core::impact::Material material;
  material.restitution = 0.5;
  material.friction = 0.3;
  std::vector<ContactBody> bodies = {box(1.0, {0.0, 0.1, 0.0}, {0.0, -1.0, 0.0}, Vec3::Zero()),
                                     box(1.0, {0.0, 0.3, 0.0}, {0.0, 1.0, 0.0}, Vec3::Zero())};
  std::vector<JointRow> joints;
  addBallJoint(joints, bodies, 0, 1, {0.0, 0.2, 0.0});
  const std::vector<SimultaneousContact> contacts = {
      {kImmovable, 0, {0.0, 0.0, 0.0}, Vec3::UnitY(), material},
      {kImmovable, 0, {0.1, 0.0, 0.0}, Vec3::UnitY(), material}};
  const auto byFastestApproach = [](const Eigen::VectorXd& approach,
                                    const Eigen::VectorXd& effectiveMass) {
    core::routh::ImpactPolicy policy;
    policy.kind = core::routh::PolicyKind::kEqualRate;
    policy.stepSize = approach.cwiseProduct(effectiveMass).maxCoeff() / 4;
    return policy;
  };
  const std::vector<ContactBody> before = bodies;
  const SimultaneousOutcome outcome =
      detail::resolveSimultaneously(bodies, contacts, Vec3::Zero(), byFastestApproach, joints);
  for (const Vec3& impulse : outcome.impulse)
    EXPECT_EQ(impulse, Vec3::Zero());
  for (const ContactBody& body : bodies) {
    EXPECT_LT(body.linearVelocity.norm(), 1e-12);
    EXPECT_LT(body.angularVelocity.norm(), 1e-12);
  }
  for (const JointRow& row : joints)
    EXPECT_NEAR(rowVelocity(bodies, row), 0.0, 1e-12);
  EXPECT_NEAR(outcome.energyChange, -kineticEnergy(before), 1e-12);
  ASSERT_EQ(outcome.jointImpulses.size(), 3);
  // Along y the row's impulse stops both: 1 N s on each, in opposite senses.
  EXPECT_NEAR(std::abs(outcome.jointImpulses(1)), 1.0, 1e-12);
}

// The bodies listed in reverse and the rows shuffled: the blocks come in another order, and each
// body leaves at the same velocity.
TEST(JointedSimultaneousImpact, OutcomeDoesNotDependOnTheOrderOfBodiesAndRows) {
  Scene s = pilesOfPairs();
  Scene t = s;
  const int n = static_cast<int>(s.bodies.size());
  const auto moved = [n](int index) { return index == kImmovable ? kImmovable : n - 1 - index; };
  std::reverse(t.bodies.begin(), t.bodies.end());
  for (SimultaneousContact& c : t.contacts)
    c.bodyA = moved(c.bodyA), c.bodyB = moved(c.bodyB);
  for (JointRow& row : t.joints)
    row.bodyA = moved(row.bodyA), row.bodyB = moved(row.bodyB);
  std::rotate(t.joints.begin(), t.joints.begin() + 4, t.joints.end());
  resolve(s);
  resolve(t);
  for (int b = 0; b < n; ++b) {
    EXPECT_LT((s.bodies[b].linearVelocity - t.bodies[n - 1 - b].linearVelocity).norm(), 1e-9);
    EXPECT_LT((s.bodies[b].angularVelocity - t.bodies[n - 1 - b].angularVelocity).norm(), 1e-9);
  }
}

}  // namespace
}  // namespace carom
