// A simultaneous impact of more contacts than its model's LCPs take, as one Anitescu–Potra impact
// solved by sweeps (detail::resolveBySweeps, solver.simultaneous_contacts): checked against
// Lemke's solution of the same law, for the conservation laws an impact keeps, and in both modes'
// worlds.
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bullet/world_scene.h"
#include "carom/bullet/impact_solver.h"
#include "simultaneous_impact.h"
#include "support/errors.h"

namespace carom {
namespace {

using core::Mat3;
using core::Vec3;
using core::impact::ContactBody;
using detail::kImmovable;
using detail::SimultaneousContact;
using detail::SimultaneousOutcome;

// A box of `mass` (kg) and half extents `half` (m) at `at`, moving at v and ω (world frame).
ContactBody boxBody(double mass, const Vec3& half, const Vec3& at, const Vec3& v, const Vec3& w) {
  ContactBody body;
  body.inverseMass = 1 / mass;
  const Vec3 squares = half.cwiseProduct(half);
  const Vec3 inertia(mass / 3 * (squares.y() + squares.z()), mass / 3 * (squares.x() + squares.z()),
                     mass / 3 * (squares.x() + squares.y()));
  body.inverseInertiaWorld = inertia.cwiseInverse().asDiagonal();
  body.centerOfMass = at;
  body.linearVelocity = v;
  body.angularVelocity = w;
  return body;
}

core::impact::Material materialWith(double restitution, double friction) {
  core::impact::Material material;
  material.restitution = restitution;
  material.friction = friction;
  return material;
}

// The four bottom corners of `body` (half extents `half`, axis-aligned) on `below` (or the
// ground), normal +y.
void addCorners(std::vector<SimultaneousContact>& contacts, const ContactBody& body, int index,
                int below, const Vec3& half, const core::impact::Material& material) {
  for (const double x : {-half.x(), half.x()}) {
    for (const double z : {-half.z(), half.z()}) {
      contacts.push_back(
          {below, index, body.centerOfMass + Vec3(x, -half.y(), z), Vec3::UnitY(), material});
    }
  }
}

// Three boxes of different sizes and masses stacked on the ground, all approaching what is below
// them at different speeds and turning: twelve contacts, a redundant four at each face.
struct Stack {
  std::vector<ContactBody> bodies;
  std::vector<SimultaneousContact> contacts;
};

Stack stackOf(double restitution, double friction) {
  const core::impact::Material material = materialWith(restitution, friction);
  const Vec3 halves[3] = {{0.5, 0.2, 0.4}, {0.3, 0.15, 0.3}, {0.2, 0.1, 0.25}};
  const double masses[3] = {3.0, 1.0, 0.4};
  const Vec3 velocities[3] = {{0.1, -1.0, 0.0}, {-0.2, -2.0, 0.1}, {0.0, -3.0, 0.3}};
  const Vec3 spins[3] = {{0.2, 0.0, -0.1}, {-0.3, 0.4, 0.2}, {0.5, -0.2, 0.1}};
  Stack stack;
  double y = 0;
  for (int i = 0; i < 3; ++i) {
    y += halves[i].y();
    stack.bodies.push_back(
        boxBody(masses[i], halves[i], Vec3(0.05 * i, y, 0), velocities[i], spins[i]));
    y += halves[i].y();
    addCorners(stack.contacts, stack.bodies.back(), i, i == 0 ? kImmovable : i - 1, halves[i],
               material);
  }
  return stack;
}

Vec3 linearMomentum(const std::vector<ContactBody>& bodies) {
  Vec3 p = Vec3::Zero();
  for (const ContactBody& body : bodies)
    p += body.linearVelocity / body.inverseMass;
  return p;
}

// About the origin: Σ x × m v + J ω.
Vec3 angularMomentum(const std::vector<ContactBody>& bodies) {
  Vec3 l = Vec3::Zero();
  for (const ContactBody& body : bodies) {
    l += body.centerOfMass.cross(body.linearVelocity / body.inverseMass) +
         body.inverseInertiaWorld.inverse() * body.angularVelocity;
  }
  return l;
}

double normalVelocity(const std::vector<ContactBody>& bodies, const SimultaneousContact& contact) {
  return contact.normal.dot(core::impact::relativeVelocity(detail::contactOf(bodies, contact)));
}

SimultaneousOutcome byLemke(std::vector<ContactBody>& bodies,
                            const std::vector<SimultaneousContact>& contacts) {
  return detail::resolveSimultaneously(bodies, contacts, Vec3::Zero(),
                                       [](const auto&, const auto&) {
                                         core::routh::ImpactPolicy policy;
                                         policy.kind = core::routh::PolicyKind::kSimultaneous;
                                         return policy;
                                       });
}

// Without friction the inelastic Anitescu–Potra velocity is unique (the kinetic-energy projection
// onto the velocities that close no contact), and with one e at every contact so is its
// restitution: the sweeps and Lemke solve the same law, each to its own tolerance.
TEST(SimultaneousSweeps, MatchesLemkesAnitescuPotraImpactWithoutFriction) {
  for (const double e : {0.0, 0.5}) {
    Stack sweeps = stackOf(e, 0.0), lemke = stackOf(e, 0.0);
    const SimultaneousOutcome bySweeps =
        detail::resolveBySweeps(sweeps.bodies, sweeps.contacts, Vec3::Zero());
    byLemke(lemke.bodies, lemke.contacts);
    EXPECT_TRUE(bySweeps.message.empty()) << bySweeps.message;
    // The sweeps stop where a sweep changes no contact's velocity by more than 1e-4 of the
    // fastest approach (3 m/s); what is left of the exact answer is of that order.
    for (std::size_t b = 0; b < sweeps.bodies.size(); ++b) {
      EXPECT_LT((sweeps.bodies[b].linearVelocity - lemke.bodies[b].linearVelocity).norm(), 3e-3)
          << "e " << e << ", body " << b;
      EXPECT_LT((sweeps.bodies[b].angularVelocity - lemke.bodies[b].angularVelocity).norm(), 3e-2)
          << "e " << e << ", body " << b;
    }
    // The stack ends no faster than its restitution sends it: v_n⁺ ≤ e v_n⁻ contact by contact
    // on average, and the bodies move up.
    EXPECT_GT(sweeps.bodies[2].linearVelocity.y(), -1e-3);
  }
}

// An impact among free bodies (no immovable partner) keeps their linear and angular momentum:
// every contact's impulse acts on both bodies, equal and opposite, at one point.
TEST(SimultaneousSweeps, KeepsTheMomentumOfFreeBodiesAndMakesNoEnergy) {
  for (const double friction : {0.0, 0.3, 1.0}) {
    Stack stack = stackOf(0.7, friction);
    // The bottom box flies too: its ground contacts go, the others stay.
    stack.contacts.erase(stack.contacts.begin(), stack.contacts.begin() + 4);
    stack.contacts[1].material.restitution = 0.2;  // a different e at one contact
    const Vec3 p0 = linearMomentum(stack.bodies), l0 = angularMomentum(stack.bodies);
    const SimultaneousOutcome outcome =
        detail::resolveBySweeps(stack.bodies, stack.contacts, Vec3::Zero());
    EXPECT_LT((linearMomentum(stack.bodies) - p0).norm(), 1e-12 * p0.norm()) << friction;
    EXPECT_LT((angularMomentum(stack.bodies) - l0).norm(), 1e-12 * (1 + l0.norm())) << friction;
    EXPECT_LE(outcome.energyChange, 0.0) << friction;
    for (std::size_t i = 0; i < stack.contacts.size(); ++i) {
      EXPECT_NEAR(outcome.normalVelocityAfter[i], normalVelocity(stack.bodies, stack.contacts[i]),
                  1e-12);
      // No contact still closing beyond what the sweeps' tolerance leaves.
      EXPECT_GT(outcome.normalVelocityAfter[i], -1e-3) << friction << ", contact " << i;
    }
  }
}

// Random impacts (bodies, points, normals, restitution and friction drawn at random) never make
// energy: the compression's every local solve lowers it, and the restitution is scaled down where
// it would add any.
TEST(SimultaneousSweeps, NeverMakesEnergy) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), share(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<ContactBody> bodies;
    for (int b = 0; b < 4; ++b) {
      bodies.push_back(boxBody(0.5 + 2 * share(random),
                               Vec3(0.1 + share(random), 0.1 + share(random), 0.1 + share(random)),
                               Vec3(unit(random), unit(random), unit(random)),
                               Vec3(unit(random), unit(random), unit(random)),
                               Vec3(unit(random), unit(random), unit(random))));
    }
    std::vector<SimultaneousContact> contacts;
    for (int c = 0; c < 12; ++c) {
      const int a = static_cast<int>(5 * share(random)) - 1;  // kImmovable … 3
      int b = static_cast<int>(4 * share(random));
      if (b == a) b = (b + 1) % 4;
      contacts.push_back({a, b, Vec3(unit(random), unit(random), unit(random)),
                          Vec3(unit(random), unit(random), unit(random)).normalized(),
                          materialWith(share(random), share(random))});
    }
    double before = 0;
    for (const ContactBody& body : bodies)
      before += core::impact::kineticEnergy({body, ContactBody{}});
    const SimultaneousOutcome outcome = detail::resolveBySweeps(bodies, contacts, Vec3::Zero());
    double after = 0;
    for (const ContactBody& body : bodies)
      after += core::impact::kineticEnergy({body, ContactBody{}});
    EXPECT_LE(after - before, 1e-12 * before) << "trial " << trial;
    EXPECT_NEAR(outcome.energyChange, after - before, 1e-12 * before) << "trial " << trial;
  }
}

// Solved in the frame where its immovable partners rest (a lift moving up): the same impact seen
// from a frame moving with the lift, velocities shifted by the lift's.
TEST(SimultaneousSweeps, IsTheSameImpactInTheFrameOfAMovingPartner) {
  const Vec3 lift(0.3, 1.5, -0.2);
  Stack still = stackOf(0.5, 0.4), moving = stackOf(0.5, 0.4);
  for (ContactBody& body : moving.bodies)
    body.linearVelocity += lift;
  detail::resolveBySweeps(still.bodies, still.contacts, Vec3::Zero());
  detail::resolveBySweeps(moving.bodies, moving.contacts, lift);
  for (std::size_t b = 0; b < still.bodies.size(); ++b) {
    EXPECT_LT((moving.bodies[b].linearVelocity - lift - still.bodies[b].linearVelocity).norm(),
              1e-12);
    EXPECT_LT((moving.bodies[b].angularVelocity - still.bodies[b].angularVelocity).norm(), 1e-12);
  }
}

TEST(SimultaneousSweeps, TheModelAndTheJointsChooseThePath) {
  SolverSettings solver;  // routh, 8 contacts by the LCPs
  using detail::SimultaneousPath;
  EXPECT_EQ(detail::simultaneousPath(solver, 8, false), SimultaneousPath::kLcps);
  EXPECT_EQ(detail::simultaneousPath(solver, 9, false), SimultaneousPath::kSweeps);
  EXPECT_EQ(detail::simultaneousPath(solver, 9, true), SimultaneousPath::kLcps);  // jointed
  EXPECT_EQ(detail::simultaneousPath(solver, 33, true), SimultaneousPath::kInTurn);
  solver.simultaneous = SimultaneousModel::simultaneous;
  solver.simultaneousContacts = 1;
  EXPECT_EQ(detail::simultaneousPath(solver, 2, false), SimultaneousPath::kSweeps);
  solver.simultaneous = SimultaneousModel::sequential;
  EXPECT_EQ(detail::simultaneousPath(solver, 32, false), SimultaneousPath::kLcps);
  EXPECT_EQ(detail::simultaneousPath(solver, 33, false), SimultaneousPath::kInTurn);
}

TEST(SimultaneousSweeps, AContactCountOutOfRangeIsRefused) {
  for (const int contacts : {0, 33}) {
    Config config;
    config.solver.simultaneousContacts = contacts;
    test::expectErrorNaming([&] { ImpactSolver solver(config); }, "solver.simultaneousContacts");
    for (const SolverKind kind : {SolverKind::lcp, SolverKind::variational}) {
      config.solver.kind = kind;
      test::expectErrorNaming([&] { test::Scene<DynamicsWorld> scene(config); },
                              "solver.simultaneousContacts");
    }
  }
}

// A slab of nine boxes in one rigid body (a btCompoundShape) dropped flat onto the ground: 36
// corners strike at once, more than the LCPs take, and the slab rebounds as one body, straight up
// at e times its approach.
struct SlabLanding {
  std::vector<ImpactEvent> events;
  double approach = 0, spin = 0;  // m/s at the start of the landing step, rad/s after it
  int bySweeps = 0, inTurn = 0;   // events whose law says so
};

SlabLanding dropSlab(SolverKind kind, SimultaneousModel model) {
  Config config = test::configWithMaterial(kind, ImpactLawKind::kStronge, 0.5, 0.5);
  config.solver.simultaneous = model;
  test::Scene<DynamicsWorld> scene(config);
  scene.useMultipointManifolds();
  scene.world().setMaterial(scene.addGround(), "test");
  auto* slab = new btCompoundShape();
  for (int i = 0; i < 9; ++i) {
    const btVector3 at(0.45 * (i % 3 - 1), 0, 0.45 * (i / 3 - 1));
    slab->addChildShape(btTransform(btQuaternion::getIdentity(), at),
                        new btBoxShape(btVector3(0.2, 0.1, 0.2)));
  }
  btRigidBody* body = scene.add(slab, 9.0, btVector3(0, 0.15, 0));  // 5 cm to fall
  scene.world().setMaterial(body, "test");
  SlabLanding landing;
  for (int step = 0; step < 60 && landing.events.empty(); ++step) {
    landing.approach = -body->getLinearVelocity().y();
    scene.world().stepSimulation(1.0 / 240, 1, 1.0 / 240);
    landing.events = scene.world().getImpactEvents();
  }
  landing.spin = body->getAngularVelocity().length();
  for (const ImpactEvent& event : landing.events) {
    landing.bySweeps += event.law.find("by sweeps") != std::string::npos;
    landing.inTurn += event.law.find("in turn") != std::string::npos;
  }
  for (int i = 0; i < slab->getNumChildShapes(); ++i)
    delete slab->getChildShape(i);
  return landing;
}

TEST(SimultaneousSweeps, ASlabLandingFlatOnItsNineBoxesReboundsStraight) {
  for (const SolverKind kind : {SolverKind::lcp, SolverKind::variational}) {
    const SlabLanding landing = dropSlab(kind, SimultaneousModel::routh);
    // Variational mode strikes all 36 corners; lcp mode those of Bullet's manifolds, three or
    // four of each box's.
    const int contacts = static_cast<int>(landing.events.size());
    EXPECT_GE(contacts, kind == SolverKind::lcp ? 27 : 36) << toString(kind);
    EXPECT_EQ(landing.bySweeps, contacts) << toString(kind);
    for (const ImpactEvent& event : landing.events)
      EXPECT_EQ(event.contacts, contacts) << toString(kind);
    // Stronge's e of a flat landing is Newton's: every corner leaves at e v⁻, and the slab
    // without turning.
    for (const ImpactEvent& event : landing.events) {
      EXPECT_NEAR(event.normalVelocityAfter, -0.5 * event.normalVelocityBefore,
                  1e-3 * -event.normalVelocityBefore)
          << toString(kind);
    }
    EXPECT_LT(landing.spin, 1e-3 * landing.approach) << toString(kind);
    std::printf("[ measured ] %s: %d contacts, corner 0 from %.6f to %.6f m/s, spin %.2e rad/s\n",
                toString(kind), contacts, landing.events[0].normalVelocityBefore,
                landing.events[0].normalVelocityAfter, landing.spin);
  }
}

TEST(SimultaneousSweeps, TheSequentialModelStrikesTheSlabInTurn) {
  const SlabLanding landing = dropSlab(SolverKind::variational, SimultaneousModel::sequential);
  ASSERT_FALSE(landing.events.empty());
  EXPECT_EQ(landing.bySweeps, 0);
  EXPECT_EQ(landing.inTurn, static_cast<int>(landing.events.size()));
}

}  // namespace
}  // namespace carom
