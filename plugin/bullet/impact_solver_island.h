// What one ImpactSolver::solveGroup call works on: the bodies and the manifolds' contact points in
// the core's terms (carom::core::impact), and the stages of the step that act on them. Internal
// to the adapter; impact_solver.h describes the stages.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <functional>
#include <vector>

#include "bt_eigen.h"
#include "carom/bullet/impact_solver.h"
#include "carom/core/contact/persistent_contact.h"
#include "carom/core/impact/material.h"

namespace carom::detail {

struct IslandBody {
  const btCollisionObject* object = nullptr;
  btRigidBody* dynamic = nullptr;   // null for static, kinematic and non-rigid objects
  core::impact::ContactBody state;  // zero inverse mass and inertia unless dynamic
  // The step's velocity change from forces, torques and gyroscopic terms (m/s, rad/s).
  core::Vec3 forceKickLinear = core::Vec3::Zero();
  core::Vec3 forceKickAngular = core::Vec3::Zero();
};

struct IslandContact {
  // Where the warm-start impulse is read and written; null for a patch corner, whose impulse the
  // solver keeps by its feature (PatchImpulses).
  btManifoldPoint* source = nullptr;
  int feature = 0;  // a patch corner's (vertex_contacts.h)
  int bodyA = 0;    // indices into Island::bodies: the manifold's body 0 and body 1
  int bodyB = 0;
  core::Vec3 point = core::Vec3::Zero();    // midway between the two witness points (m)
  core::Vec3 normal = core::Vec3::UnitZ();  // unit, from A into B: −m_normalWorldOnB
  double distance = 0.0;                    // signed gap (m), < 0 penetrating
  double normalVelocityBeforeForces = 0.0;  // (v_B − v_A)·n at the point (m/s) at gather time
  core::impact::Material material;
  core::Vec3 impulse = core::Vec3::Zero();  // persistent-contact impulse on B (N s), warm start
};

struct Island {
  std::vector<IslandBody> bodies;
  std::vector<IslandContact> contacts;
  double timeStep = 0.0;  // h (s)
};

using MaterialLookup = std::function<core::impact::Material(
    const btCollisionObject* a, const btCollisionObject* b, const btManifoldPoint& point)>;

// Stage 1: every dynamic body of `bodies` and every object of a responding manifold point within
// the manifold's processing threshold. A manifold with a point, one of whose shapes is a smooth
// one with flat or straight features (a cylinder, a capsule, a cone: support_contacts.h) or a
// polyhedron on a static or kinematic object, and neither a compound nor a mesh, gives instead the
// contact points carom finds where the pair's shapes are (pair_contacts.h: the corners of the patch
// within the manifold's breaking threshold, and the gap's witness point beyond their outline),
// warm-started from `patchImpulses`.
Island gatherIsland(btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds,
                    int numManifolds, btDispatcher* dispatcher, double timeStep,
                    const MaterialLookup& materialOf, const PatchImpulses& patchImpulses);

// Relative velocity of B's material point minus A's along the normal (m/s).
double normalVelocity(const Island& island, const IslandContact& contact);

// Stage 2: the external force, torque and gyroscopic kick of btSequentialImpulseConstraintSolver
// (initSolverBody and convertBodies) of every dynamic body, into IslandBody::forceKick*.
void computeForces(Island& island, const btContactSolverInfo& info);
// Adds `fraction` of the kick to the bodies' velocities.
void applyForces(Island& island, double fraction);

// Stage 3: resolves the impacts and returns one event per impact contact (time left at 0).
std::vector<ImpactEvent> resolveImpacts(Island& island, const Config& config,
                                        const ImpactSolverSettings& settings);

// Stage 4: the persistent contacts (those closing within the step) by core::contact, in at most
// `sweeps` sweeps.
core::contact::PersistentContactReport solveContacts(Island& island, int sweeps);

// Stage 5: moves penetrating bodies apart, and takes the potential energy a lift gives from the
// island's kinetic energy.
void correctDrift(Island& island, const ImpactSolverSettings& settings);

// Stage 6: velocities to the dynamic bodies, impulses to the manifold points and the patch
// corners' to `patchImpulses`.
void writeBack(const Island& island, PatchImpulses& patchImpulses);

}  // namespace carom::detail
