// carom::ImpactSolver: carom's "lcp" mode for an unmodified btDiscreteDynamicsWorld. Bullet keeps
// broadphase, narrowphase, islands and position integration; in solveGroup carom integrates the
// bodies' forces (as Bullet's own solver does, digest §1.4), resolves impacts by the materials'
// laws and holds the remaining contacts by a velocity-level LCP with Coulomb friction.
//
//   carom::ImpactSolver solver(config);
//   btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &collisionConfiguration);
//   solver.setMaterial(ball, "rubber");
//
// One solveGroup call, stage by stage (plugin/bullet/impact_solver.cpp):
//   1. gather: the manifolds' responding points become contacts (normal from A into B, that is
//      −m_normalWorldOnB), warm-started from the points' stored impulses; where one shape is a
//      smooth one with flat or straight features (a cylinder, a capsule, a cone), or a polyhedron
//      (a box, a convex hull) touches a static or kinematic object, the contacts are instead the
//      corners of the patch the pair touches along at the step's poses, as in variational mode:
//      Bullet's manifold gains one point of such a pair per step, keeps each as a point of the
//      body and drops the points a slide carries away, so it holds a rolling cylinder behind and
//      beside its line of contact and a sliding box on one or two corners;
//   2. forces: v += h M⁻¹ F, ω += h J⁻¹ τ plus Bullet's gyroscopic term, exactly what
//      btSequentialImpulseConstraintSolver adds;
//   3. impacts: every contact that approached faster than the resting threshold *before* the
//      force kick (so a body resting under gravity is never an impact, as in Bullet's restitution)
//      and still approaches and closes within the step after it is an impact, resolved on the
//      post-kick velocities; one per group of touching bodies goes to its material pair's law
//      (core::impact::applyLaw), several to the simultaneous model of Config::solver.simultaneous
//      (core::routh, with the contacts' restitution);
//   4. contacts: core::contact::solvePersistentContacts over the closing contacts, in at most
//      btContactSolverInfo::m_numIterations sweeps (Bullet's solver iterations, 10 by default;
//      set as for stock Bullet, by world.getSolverInfo().m_numIterations), fewer where they
//      converge. Warm-started from the manifold, a stack needs no more: more sweeps do not make
//      a pyramid of boxes creep less (docs/measurements.md);
//   5. drift: penetration deeper than `allowedPenetration` is removed by moving the bodies
//      (pseudo velocities that change positions only, like Bullet's split impulse), and the
//      potential energy a lift gives is taken from the island's kinetic energy (its velocities
//      scaled alike) where it has that much;
//   6. write back velocities and the contact impulses (m_appliedImpulse, lateral impulses and
//      directions; a patch corner's in the solver) for the next step's warm start, and record the
//      impact events.
//
// Joints (btTypedConstraint): btPoint2PointConstraint, btHingeConstraint, btSliderConstraint,
// btConeTwistConstraint and btGeneric6DofSpring2Constraint (btFixedConstraint is one) without
// springs. Each enabled joint's rows are Bullet's own (getInfo1/getInfo2, as Bullet's solver takes
// them), with Bullet's position bias taken out of their targets: getInfo2 is asked at 1/h and 2/h,
// and its bias, linear in that rate, is the difference (a stop's bounce and a motor's speed stay).
//   - stage 3: an impact on a jointed body is resolved on the jointed system: the law is applied
//     to the contact's inverse mass matrix with the joints' equality rows held
//     (core::contact::heldInverseMassMatrix, core::impact::contactWithResponse) and its impulse
//     moves every body the joints join. Several contacts of jointed bodies struck in one step
//     are one Halm–Posa impact on the velocities the equality rows allow (simultaneous_impact.h);
//   - stage 4: the equality rows are solved exactly (a factorization of J M⁻¹ Jᵀ), limit and motor
//     rows and the contacts by sweeps, in turn with them (core::contact::solveJointsAndContacts;
//     at most m_numIterations rounds, reported in lastStepWarnings() when it is reached); the
//     equality rows are then held on positions (SHAKE): the velocities are corrected until the
//     poses Bullet integrates from them keep the rows' position errors to 1e-10, so a pendulum
//     neither loses energy to the velocity rows' (ωh)² per step nor gains any. A joint
//     whose impulse in a row reaches its breaking threshold breaks in that step, which is solved
//     again without it (stock Bullet caps the row at the threshold instead);
//   - stage 5: the rows' position errors are removed by moving the bodies (pseudo velocities, as
//     for the contacts, the equality rows exactly), never through their velocities: a Baumgarte
//     bias in the velocity target would give the bodies kinetic energy it then keeps. What such a
//     move lifts against gravity is paid from the island's kinetic energy as for the contacts;
//   - stage 6: joint feedback (enableFeedback) filled as Bullet's solver fills it, the joint's
//     applied impulse, and breaking, written once every island is solved (allSolved).
// Any other joint type, a spring, a soft row (cfm or damping) and m_numIterations < 1 are refused:
// solveGroup throws carom::Error before changing anything.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "carom/bullet/config.h"
#include "carom/bullet/impact_event.h"
#include "carom/core/contact/persistent_contact.h"

namespace carom {

struct ImpactSolverSettings {
  /// A contact is an impact when it approaches faster than this (m/s) before the step's force
  /// kick. Default 0.05 m/s: well above what the contact LCP leaves at a resting contact (its
  /// tolerance is 1e-12 m/s), and a bounce slower than it would rise e²·0.13 mm at most. Bullet's
  /// own threshold (m_restitutionVelocityThreshold, 0.2 m/s) is measured after the kick and so
  /// must exceed g·h; this one need not, since the kick never counts.
  double restingThreshold = 0.05;
  /// Penetration (m) left alone by the drift correction, so that resting contacts stay in the
  /// manifold instead of flickering. Default 1e-4 m.
  double allowedPenetration = 1e-4;
  /// Fraction of the remaining penetration removed per step (dimensionless, (0, 1]). Default 0.2,
  /// Bullet's erp2: the correction spreads over a few steps and stacks settle without popping.
  double driftCorrection = 0.2;
  /// Projected Gauss–Seidel sweeps of the drift correction. Default 10, Bullet's m_numIterations.
  int driftIterations = 10;
};

namespace detail {
/// The impulses (N s, on B) of contact points that no manifold point stores (a smooth shape's patch
/// corners, plugin/bullet/impact_solver_island.h), by the pair's two objects and the point's
/// feature, for the next step's warm start.
using PatchImpulses =
    std::map<std::tuple<const btCollisionObject*, const btCollisionObject*, int>, btVector3>;

/// What a joint took in a step, written to it once every island is solved.
struct JointWrite {
  btTypedConstraint* joint = nullptr;
  btScalar appliedImpulse = 0;  ///< the last row's, as Bullet's solver leaves it
  bool breaks = false;
  btJointFeedback feedback;  ///< written when the joint has a feedback record
};

struct Island;     // plugin/bullet/impact_solver_island.h
class WorkerPool;  // plugin/bullet/worker_pool.h

/// The memory of the island solves, kept from step to step: made afresh each step, a pile's island
/// and contact lists (tens to hundreds of kB) would come from the system and go back to it, a
/// page fault per page each step wherever the heap shrinks after them. It carries nothing from
/// one step into the next, so a copy is new, empty memory.
struct IslandMemory {
  IslandMemory();
  ~IslandMemory();
  IslandMemory(const IslandMemory&);
  IslandMemory& operator=(const IslandMemory&);

  std::unique_ptr<Island> island;                       ///< the island being solved
  std::vector<core::impact::ContactBody> states;        ///< its bodies, for the contact solve
  std::vector<core::contact::PersistentContact> held;   ///< its closing contacts
  core::contact::PersistentContactWorkspace workspace;  ///< the contact solve's own
  std::unique_ptr<WorkerPool> workers;  ///< the impact rounds' helper threads (solver.threads)
};
}  // namespace detail

/// Throws carom::Error naming the joint's type unless carom's lcp mode supports it (see the stages
/// above): `where` starts the message.
void requireSupportedJoint(const btTypedConstraint& joint, const std::string& where);

class ImpactSolver : public btConstraintSolver {
 public:
  explicit ImpactSolver(Config config = Config(), ImpactSolverSettings settings = {});

  /// Gives `body` the config's material `name`. Throws carom::Error for a null body or an
  /// undefined name, changing nothing. Contacts between two such bodies use
  /// config.material(a, b); a body with a material against one without uses its own material;
  /// two bodies without use Bullet's combined m_restitution and m_friction (the manifold point's,
  /// both products by default) as a Newton material, the law stock Bullet applies.
  void setMaterial(const btCollisionObject* body, const std::string& name);
  void clearMaterial(const btCollisionObject* body);

  /// One line per solve of the last step that stopped at its cap (a joint solve's rounds or
  /// position corrections); empty when every one converged.
  const std::vector<std::string>& lastStepWarnings() const { return lastStepWarnings_; }

  const std::vector<ImpactEvent>& events() const { return events_; }
  void clearEvents() { events_.clear(); }
  /// Moves the events since the last clear to the end of `into` and clears them: no copy of each
  /// event's law string, and this solver's list keeps its memory for the next step.
  void moveEventsTo(std::vector<ImpactEvent>& into) {
    into.insert(into.end(), std::make_move_iterator(events_.begin()),
                std::make_move_iterator(events_.end()));
    events_.clear();
  }

  btScalar solveGroup(btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds,
                      int numManifolds, btTypedConstraint** constraints, int numConstraints,
                      const btContactSolverInfo& info, btIDebugDraw* debugDrawer,
                      btDispatcher* dispatcher) override;
  /// Called by Bullet before the step's islands: forgets what a step that threw left pending.
  void prepareSolve(int numBodies, int numManifolds) override;
  void allSolved(const btContactSolverInfo& info, btIDebugDraw* debugDrawer) override;
  void reset() override;
  /// Bullet has no value for a foreign solver; it checks the type only for multibody worlds.
  btConstraintSolverType getSolverType() const override { return BT_SEQUENTIAL_IMPULSE_SOLVER; }

 private:
  Config config_;
  ImpactSolverSettings settings_;
  std::unordered_map<const btCollisionObject*, std::string> materials_;
  std::vector<ImpactEvent> events_;
  double time_ = 0.0;  ///< start of the current step (s)
  ///< The patch corners' impulses held in the previous step (read) and in this one (written).
  detail::PatchImpulses previousPatchImpulses_;
  detail::PatchImpulses patchImpulses_;
  std::vector<detail::JointWrite> jointWrites_;  ///< this step's, written by allSolved
  detail::IslandMemory islandMemory_;            ///< each island's solve's
  std::vector<std::string> warnings_, lastStepWarnings_;
};

}  // namespace carom
