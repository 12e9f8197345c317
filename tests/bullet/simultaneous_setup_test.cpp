// A simultaneous impact solved on a kept setup (detail::resolveSimultaneously's `kept`): lcp mode
// strikes the same contacts again in a later round of a step and solves on what the first impact
// built. Checked to give, bit for bit, what a fresh build gives, and to keep nothing for a jointed
// impact, whose problem is built on its joints' null space.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "simultaneous_impact.h"

namespace carom {
namespace {

using core::Vec3;
using core::impact::ContactBody;
using detail::kImmovable;
using detail::SimultaneousContact;
using detail::SimultaneousOutcome;
using detail::SimultaneousSetup;

ContactBody box(double mass, const Vec3& at, const Vec3& v, const Vec3& w) {
  ContactBody body;
  body.inverseMass = 1 / mass;
  const double moment = mass * 0.1 * 0.1 * 2 / 3;  // a cube of half side 0.1 m
  body.inverseInertiaWorld = Vec3(1 / moment, 0.8 / moment, 1.1 / moment).asDiagonal();
  body.centerOfMass = at;
  body.linearVelocity = v;
  body.angularVelocity = w;
  return body;
}

// Three boxes falling onto the ground and onto each other, four contacts, with friction and
// restitution.
struct Scene {
  std::vector<ContactBody> bodies;
  std::vector<SimultaneousContact> contacts;
};

Scene threeBoxes() {
  core::impact::Material material;
  material.restitution = 0.4;
  material.friction = 0.3;
  Scene s;
  s.bodies = {box(1.0, {0.0, 0.1, 0.0}, {0.2, -1.0, 0.0}, {0.0, 0.5, 1.0}),
              box(2.0, {0.05, 0.3, 0.0}, {0.1, -1.6, 0.1}, {0.3, 0.0, -0.4}),
              box(0.5, {0.0, 0.5, 0.05}, {0.0, -2.5, 0.2}, {-0.6, 0.0, 0.3})};
  const Vec3 up = Vec3::UnitY();
  s.contacts = {{kImmovable, 0, {-0.1, 0.0, 0.0}, up, material},
                {kImmovable, 0, {0.1, 0.0, 0.05}, up, material},
                {0, 1, {0.05, 0.2, 0.0}, up, material},
                {1, 2, {0.02, 0.4, 0.05}, up, material}};
  return s;
}

SimultaneousOutcome resolve(Scene& s, std::shared_ptr<const SimultaneousSetup>* kept) {
  return detail::resolveSimultaneously(
      s.bodies, s.contacts, Vec3::Zero(),
      [](const auto&, const auto&) { return core::routh::ImpactPolicy{}; }, {}, kept);
}

void expectSameOutcome(const Scene& a, const SimultaneousOutcome& outcomeA, const Scene& b,
                       const SimultaneousOutcome& outcomeB) {
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    EXPECT_EQ(a.bodies[i].linearVelocity, b.bodies[i].linearVelocity) << "body " << i;
    EXPECT_EQ(a.bodies[i].angularVelocity, b.bodies[i].angularVelocity) << "body " << i;
  }
  EXPECT_EQ(outcomeA.impulse, outcomeB.impulse);
  EXPECT_EQ(outcomeA.normalVelocityBefore, outcomeB.normalVelocityBefore);
  EXPECT_EQ(outcomeA.normalVelocityAfter, outcomeB.normalVelocityAfter);
  EXPECT_EQ(outcomeA.energyChange, outcomeB.energyChange);
}

TEST(SimultaneousSetup, AKeptSetupGivesWhatAFreshBuildGives) {
  Scene kept = threeBoxes(), fresh = threeBoxes();
  std::shared_ptr<const SimultaneousSetup> setup;
  const SimultaneousOutcome first = resolve(kept, &setup);
  ASSERT_NE(setup, nullptr) << "the first impact keeps what it built";
  const SimultaneousSetup* built = setup.get();
  expectSameOutcome(kept, first, fresh, resolve(fresh, nullptr));
  // A second impact on the same contacts, the bodies where they were, at other velocities: the
  // bounce of the first sent the top box back down onto the middle one.
  for (Scene* s : {&kept, &fresh}) {
    s->bodies[2].linearVelocity = Vec3(0.1, -1.5, 0.0);
    s->bodies[1].angularVelocity += Vec3(0.2, 0.0, -0.1);
  }
  const SimultaneousOutcome second = resolve(kept, &setup);
  EXPECT_EQ(setup.get(), built) << "solved on the kept setup, not a new one";
  expectSameOutcome(kept, second, fresh, resolve(fresh, nullptr));
  EXPECT_FALSE(second.impulse.empty());
}

TEST(SimultaneousSetup, AJointedImpactKeepsNothing) {
  Scene s = threeBoxes();
  std::vector<core::contact::JointRow> joints(1);
  joints[0].bodyA = 0;  // the boxes' centres held apart along y: a rod between them
  joints[0].bodyB = 1;
  joints[0].linearA = -Vec3::UnitY();
  joints[0].linearB = Vec3::UnitY();
  std::shared_ptr<const SimultaneousSetup> setup;
  detail::resolveSimultaneously(
      s.bodies, s.contacts, Vec3::Zero(),
      [](const auto&, const auto&) { return core::routh::ImpactPolicy{}; }, joints, &setup);
  EXPECT_EQ(setup, nullptr);
}

}  // namespace
}  // namespace carom
