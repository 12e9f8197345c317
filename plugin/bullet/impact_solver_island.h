// What one ImpactSolver::solveGroup call works on: the bodies and the manifolds' contact points in
// the core's terms (carom::core::impact), and the stages of the step that act on them. Internal
// to the adapter; impact_solver.h describes the stages.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "bt_eigen.h"
#include "carom/bullet/impact_solver.h"
#include "carom/core/contact/joint_rows.h"
#include "carom/core/contact/persistent_contact.h"
#include "carom/core/contact/separation.h"
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

// One row of an enabled joint, as its getInfo2 writes it (Bullet's own Jacobian and bounds).
struct IslandJointRow {
  btTypedConstraint* joint = nullptr;
  // Indices into Island::bodies; `target` is the row's velocity target without Bullet's position
  // bias (a motor's speed, a stop's bounce), `impulse` the velocity solve's (N s or N m s).
  core::contact::JointRow row;
  // The bias getInfo2 adds for the row's position error, as a velocity over one step (m/s or
  // rad/s): the velocity that removes the error over the step.
  double drift = 0.0;
  int rowInJoint = 0;  // this row's number among its joint's getInfo2 rows
};

struct Island {
  std::vector<IslandBody> bodies;
  std::unordered_map<const btCollisionObject*, int> index;  // of bodies, by object
  std::vector<IslandContact> contacts;
  double timeStep = 0.0;  // h (s)
  // The island's joints (disabled ones too: their feedback is cleared, as Bullet does), their
  // enabled rows, and the joints broken in this step.
  std::vector<btTypedConstraint*> joints;
  std::vector<IslandJointRow> jointRows;
  std::set<const btTypedConstraint*> broken;
  // The equality rows of the unbroken joints, solved exactly (null without joint rows), and the
  // indices of their rows in jointRows, in the system's order.
  std::unique_ptr<core::contact::JointSystem> held;
  std::vector<std::size_t> heldRows;
  std::vector<bool> jointed;  // per body: a row of `held` moves it

  // Empties every member, the lists keeping their memory (IslandMemory).
  void clear();
};

// The index of `object` in island.bodies, added (static, kinematic or dynamic as it is) if absent.
int bodyIndex(Island& island, const btCollisionObject* object);

// The bodies' states in island order, for the core's solvers.
std::vector<core::impact::ContactBody> statesOf(const Island& island);
// The same into `states`, whose memory it reuses.
void statesOf(const Island& island, std::vector<core::impact::ContactBody>& states);

using MaterialLookup = std::function<core::impact::Material(
    const btCollisionObject* a, const btCollisionObject* b, const btManifoldPoint& point)>;

// Stage 1: every dynamic body of `bodies` and every object of a responding manifold point within
// the manifold's processing threshold. A manifold with a point, one of whose shapes is a smooth
// one with flat or straight features (a cylinder, a capsule, a cone: support_contacts.h) or a
// polyhedron on a static or kinematic object, and neither a compound nor a mesh, gives instead the
// contact points carom finds where the pair's shapes are (pair_contacts.h: the corners of the patch
// within the manifold's breaking threshold, and the gap's witness point beyond their outline),
// warm-started from `patchImpulses`.
void gatherIsland(Island& island, btCollisionObject** bodies, int numBodies,
                  btPersistentManifold** manifolds, int numManifolds, btDispatcher* dispatcher,
                  double timeStep, const MaterialLookup& materialOf,
                  const PatchImpulses& patchImpulses);

// Relative velocity of B's material point minus A's along the normal (m/s).
double normalVelocity(const Island& island, const IslandContact& contact);

// Stage 1, joints: the rows of every enabled joint of `constraints` by getInfo1 and getInfo2, and
// the system of their equality rows. Throws carom::Error before anything changes for a joint type
// carom does not support (requireSupportedJoint) and for a row with constraint force mixing or
// damping (a soft row, which this solve does not take).
void gatherJoints(Island& island, btTypedConstraint** constraints, int numConstraints,
                  const btContactSolverInfo& info);

// Stage 2: the external force, torque and gyroscopic kick of btSequentialImpulseConstraintSolver
// (initSolverBody and convertBodies) of every dynamic body, into IslandBody::forceKick*.
void computeForces(Island& island, const btContactSolverInfo& info);
// Adds `fraction` of the kick to the bodies' velocities.
void applyForces(Island& island, double fraction);

// Stage 3: resolves the impacts and appends one event per impact contact to `events` (time left
// at 0): the solver's own list, kept from step to step, where a list made per step grew to a few
// hundred kilobytes at a pile's landing, its pages faulted in afresh each time. `workers`: the
// threads beside the caller's for a round's impact groups (solver.threads), made when a round first
// needs them and kept.
void resolveImpacts(Island& island, const Config& config, const ImpactSolverSettings& settings,
                    std::unique_ptr<WorkerPool>& workers, std::vector<ImpactEvent>& events);

// Stage 4: the persistent contacts (those closing within the step) by core::contact, in at most
// `sweeps` sweeps, in `memory`.
core::contact::PersistentContactReport solveContacts(Island& island, int sweeps,
                                                     IslandMemory& memory);
// Stage 4 with joints: the joint rows and the closing contacts in one problem
// (core::contact::solveJointsAndContacts) in at most info.m_numIterations rounds of at most as many
// contact sweeps. A joint one of whose rows takes an impulse at or beyond its breaking threshold
// breaks: it is put in island.broken and the step's problem is solved again without it.
//
// The equality rows are then held at position level (SHAKE, Ryckaert, Ciccotti & Berendsen 1977):
// their velocities are corrected until the poses Bullet will integrate from them
// (btTransformUtil::integrateTransform, as btRigidBody::predictIntegratedTransform) have the rows'
// position errors of the step's start to kPositionTolerance, each correction the exact solve of
// the rows' Jacobian at the step's start against the errors' change at the predicted poses
// (getInfo2 there). The errors themselves are removed on positions (stage 5), not through the
// velocities, which would give the bodies kinetic energy. With Bullet's semi-implicit Euler this
// is a symplectic constrained integrator: a pendulum keeps its energy within a bounded
// oscillation, where holding the rows at velocity level alone loses energy every step (the
// velocity, tangent at the step's start, leaves the joint's manifold by (ωh)² of its energy each
// step, which the next projection takes away).
core::contact::JointSolveReport solveJoints(Island& island, const btContactSolverInfo& info);
// The equality rows' position tolerance of solveJoints (m, or rad for an angular row), and its cap
// on corrections, reported when reached: a correction gains a factor of about (ωh)² (ω the bodies'
// turn rate), so a few suffice for anything the step can integrate.
inline constexpr double kPositionTolerance = 1e-10;
inline constexpr int kMaxPositionCorrections = 20;

// The island's contacts for the contact solvers, each allowed to close by its gap within the step
// (approach = max(gap, 0)/h): a speculative point further away than the bodies come must not stop
// them, and whether they come is known only after the solve (two bricks stacked fall together
// before the solve, and the one below is stopped by it). In the order of island.contacts.
std::vector<core::contact::PersistentContact> solverContacts(const Island& island);
// The same into `held`, whose memory it reuses.
void solverContacts(const Island& island, std::vector<core::contact::PersistentContact>& held);

// Stage 5: moves penetrating bodies apart and jointed bodies back onto their joints, and takes the
// potential energy a lift gives from the island's kinetic energy.
// Returns why the joints' part stopped at its cap, empty when it did not.
std::string correctDrift(Island& island, const ImpactSolverSettings& settings);
// Stage 5's joint part: changes the pseudo velocities (one per body) by what brings every joint
// row's position error at the step's start to zero over the step (IslandJointRow::drift; the
// equality rows exactly, the limit rows only push).
core::contact::JointSolveReport holdJointPositions(
    const Island& island, std::vector<core::contact::PseudoVelocity>& pseudo);

// Stage 6: velocities to the dynamic bodies, impulses to the manifold points and the patch
// corners' to `patchImpulses`, and what the joints took to `joints` (written to them by
// ImpactSolver::allSolved, once every island has been solved).
void writeBack(const Island& island, PatchImpulses& patchImpulses, std::vector<JointWrite>& joints);
// Stage 6's joint part: per joint of the island, its feedback (Bullet's writeBackJoints: each row's
// Jacobian times its impulse over h), its last row's impulse, and whether it broke.
void writeJoints(const Island& island, std::vector<JointWrite>& joints);

}  // namespace carom::detail
