// carom::DynamicsWorld: a btDiscreteDynamicsWorld whose step is chosen by carom::Config's
// solver.kind (INTERFACES.md §1–2). `bullet` is the base class's step, untouched; `variational`
// replaces Bullet's per-step integration by the LGVI flow with impacts located and resolved at
// their instant and persistent contacts held by a velocity-level LCP (ARCHITECTURE.md "One step").
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "carom/bullet/config.h"
#include "carom/bullet/impact_event.h"
#include "carom/bullet/impact_solver.h"
#include "carom/error.h"

namespace carom {

/// What the last internal step of a variational world did beyond the ordinary.
struct StepDiagnostics {
  int impacts = 0;  ///< impacts resolved in the step, landings brought to rest included
  /// Of those, the landings (variational mode; 0 in the others): contacts found approaching at
  /// most at the resting speed, stopped and held as persistent contacts instead of struck, each
  /// holding its contact group again.
  int landings = 0;
  int persistentContacts = 0;  ///< contact points held by the persistent-contact LCP
  ///< Islands at rest (nothing in them could strike within the step): held once at the start of the
  ///< step and flowed to its end with no impact located.
  int restingIslands = 0;
  /// Energy removed from islands with persistent contacts whose step would otherwise have gained
  /// energy (J): the contact time-stepping's error where a held body turns about an edge or corner,
  /// of order m g h² (world_energy_guard.cpp). Taken from the island's kinetic energy, and where
  /// the island ends the step at rest, by moving its bodies back along their paths over the step.
  /// Zero for sliding and rolling bodies; round-off for bodies at rest.
  double energyRemoved = 0;
  /// Islands whose overlaps deeper than 10 µm at the end of the step were pushed apart by their
  /// positions, the lift's potential energy taken from their kinetic energy (world_drift.cpp).
  int driftCorrections = 0;
  /// Islands joined within the step: a struck body of one reached a body of another before the end
  /// of the step, and the two were run again from its start as one (world_island_rerun.cpp). The
  /// number of such reruns.
  int islandsJoined = 0;
  /// Islands at rest taken as a repeat of the last step (still_islands.cpp): that step left every
  /// body where it found it (velocities within 1e-12 m/s, poses within that times the step), and
  /// this one finds, bit for bit, what it wrote and everything else it read (loads, masses, shapes,
  /// materials, static partners). The step would leave them there again, so they stay, with the
  /// last step's contact impulses, without a flow, a gap query or a solve: a tower at rest costs
  /// its broadphase. Counted among restingIslands too.
  int stillIslands = 0;
  /// Simultaneous impacts of more contacts than solver.simultaneousContacts, resolved as one
  /// Anitescu–Potra impact by sweeps instead of the model's LCPs (simultaneous_impact.h); their
  /// events' law says so.
  int impactsBySweeps = 0;
  /// Simultaneous impacts of more than 32 contacts under the sequential model or on jointed bodies
  /// (which the sweeps do not hold), resolved one contact at a time in turn; their events' law
  /// says so.
  int impactsInTurn = 0;
  /// The impact search's work in the step, reruns included: gap evaluations at probe instants
  /// (each an LGVI sub-step of the pair's bodies and a gap query), and all gap queries of shape
  /// pairs (probes included). For benchmarks and profiling; neither is a limit.
  int locationProbes = 0;
  int gapQueries = 0;
  /// True when a body reached solver.maxEventsPerStep events in the step before it had finished:
  /// every pair of it was then held as a persistent contact whatever its speed, the other pairs'
  /// events resolved as usual (a Zeno guard; the step never hangs). `message` says where.
  bool eventLimitReached = false;
  std::string message;
};

/// carom::Error for a pair of objects that a variational step refuses (a deep overlap when
/// stepping starts, contacts the persistent-contact solve cannot hold), with the two objects, so
/// that a program can name them in its own terms (`carom run` adds the scene's body names). The
/// message names them by their index in getCollisionObjectArray(), shape and position.
class PairError : public Error {
 public:
  PairError(const std::string& what, const btCollisionObject* first,
            const btCollisionObject* second)
      : Error(what), m_first(first), m_second(second) {}
  const btCollisionObject* first() const { return m_first; }
  const btCollisionObject* second() const { return m_second; }

 private:
  const btCollisionObject* m_first;
  const btCollisionObject* m_second;
};

namespace detail {
struct VariationalStepMemory;

/// The constraint solver of a carom::DynamicsWorld, built before its btDiscreteDynamicsWorld base
/// that needs it (base-from-member): carom::ImpactSolver in lcp mode, none otherwise (the base
/// class then creates and owns Bullet's stock sequential-impulse solver).
struct WorldSolver {
  explicit WorldSolver(const Config& config);
  std::unique_ptr<ImpactSolver> m_impactSolver;
};
}  // namespace detail

class DynamicsWorld : private detail::WorldSolver, public btDiscreteDynamicsWorld {
 public:
  /// As btDiscreteDynamicsWorld, plus the config: `bullet` steps with Bullet's stock solver, `lcp`
  /// with carom::ImpactSolver (Bullet integrates), `variational` with carom's own step.
  DynamicsWorld(btDispatcher* dispatcher, btBroadphaseInterface* broadphase,
                btCollisionConfiguration* collisionConfiguration, const Config& config = Config());
  ~DynamicsWorld() override;

  const Config& getConfig() const { return m_config; }
  SolverKind getSolverKind() const { return m_config.solver.kind; }

  /// Variational mode holds btPoint2PointConstraint, btHingeConstraint, btSliderConstraint and
  /// btFixedConstraint (to another body or to a static one such as
  /// btTypedConstraint::getFixedBody()) as holonomic constraints of the constrained LGVI, and
  /// refuses with carom::Error, naming it, any other type and any enabled limit, motor or finite
  /// breaking threshold (docs/modes.md). lcp mode refuses, naming it, a type carom::ImpactSolver
  /// does not support (requireSupportedJoint) and adds the others; `bullet` mode adds every joint
  /// as the base class does. A null constraint is refused in every mode.
  void addConstraint(btTypedConstraint* constraint,
                     bool disableCollisionsBetweenLinkedBodies = false) override;

  /// btDiscreteDynamicsWorld::addRigidBody adds through this one. In variational mode the next step
  /// first checks the objects added since the last step against every object: a pair that can touch
  /// (as the broadphase's filter and the dispatcher's needsResponse say) overlapping by more than
  /// 1 mm is refused with carom::PairError naming both objects and the depth, and the world is left
  /// as it was (no mode can push such a pair apart without making energy). Until then the objects
  /// stay to be checked; a scene file's bodies are checked when it is read (carom::Scene).
  void addCollisionObject(btCollisionObject* collisionObject,
                          int collisionFilterGroup = btBroadphaseProxy::StaticFilter,
                          int collisionFilterMask = btBroadphaseProxy::AllFilter ^
                                                    btBroadphaseProxy::StaticFilter) override;
  void removeRigidBody(btRigidBody* body) override;
  void removeCollisionObject(btCollisionObject* collisionObject) override;

  /// Gives `body` the config's material `name` (INTERFACES.md §2). A body without one uses Bullet's
  /// own restitution and friction, combined by Bullet's global combiners, with Stronge's law (or
  /// its partner's law when the partner has a carom material). Throws carom::Error naming the
  /// material when the config does not define it; nothing changes then.
  void setMaterial(const btCollisionObject* body, const std::string& name);
  /// The body's carom material name, or nullptr when it has none.
  const std::string* getMaterial(const btCollisionObject* body) const;

  /// Called once per contact of every impact, in the order they happen, during stepSimulation,
  /// after each internal step for the impacts resolved in it (variational mode: by their instants,
  /// every island's together; lcp mode: those carom::ImpactSolver resolved).
  void setImpactCallback(ImpactCallback callback) { m_impactCallback = std::move(callback); }
  /// Every impact since the last clearImpactEvents(), oldest first.
  const std::vector<ImpactEvent>& getImpactEvents() const { return m_impactEvents; }
  void clearImpactEvents() { m_impactEvents.clear(); }

  const StepDiagnostics& getLastStepDiagnostics() const { return m_lastStep; }

  /// As btDiscreteDynamicsWorld's, except that a step that throws (a refused body, a joint in lcp
  /// mode, a failed solve) leaves the world as it was before the call: bodies' poses, velocities,
  /// forces and activation, the fixed-step clock, impact events and warm starts.
  int stepSimulation(btScalar timeStep, int maxSubSteps = 1,
                     btScalar fixedTimeStep = btScalar(1.) / btScalar(60.)) override;

 protected:
  void internalSingleStepSimulation(btScalar timeStep) override;

 private:
  friend class VariationalStep;

  void variationalSingleStep(double timeStep);
  /// Throws carom::Error for the first deep overlap of an object in m_unchecked at the start of the
  /// step (world_overlaps.cpp) and changes nothing; without one, empties m_unchecked.
  void refuseDeepOverlaps(double timeStep);

  void recordImpact(const ImpactEvent& event);
  void forget(const btCollisionObject* object);

  Config m_config;
  std::map<const btCollisionObject*, std::string> m_materials;
  /// Variational mode: objects added since the last step that passed refuseDeepOverlaps.
  std::unordered_set<const btCollisionObject*> m_unchecked;
  /// A persistent contact: its pair, and its compound children (−1 for a shape that is not a
  /// compound) and point's feature (vertex number, −1 for the single witness point, −2 − k for the
  /// k-th face crossing or patch corner).
  using ContactKey =
      std::pair<std::pair<const btCollisionObject*, const btCollisionObject*>, std::array<int, 3>>;
  /// Persistent-contact impulses of the previous step (warm start).
  std::map<ContactKey, btVector3> m_warmStart;
  /// Variational mode: an island the last step left where it found it (still_islands.cpp): the
  /// bytes of what the next step must find to repeat it, and what the step gave besides its
  /// unchanged bodies.
  struct StillIsland {
    std::vector<unsigned char> inputs;
    int persistentContacts = 0;
    double energyRemoved = 0;  ///< J
    std::vector<std::pair<ContactKey, btVector3>> warmStart;
  };
  /// The last step's still islands, by their first body.
  std::unordered_map<const btCollisionObject*, StillIsland> m_stillIslands;

  /// What stepSimulation restores when a step throws (world_step_guard.cpp).
  struct BodySnapshot {
    btRigidBody* body;
    btTransform world, interpolation;
    btVector3 linearVelocity, angularVelocity, interpolationLinear, interpolationAngular;
    btVector3 force, torque;  ///< the user's, applied before the step
    int activation;
    btScalar deactivationTime;
  };
  struct StepSnapshot {
    std::vector<BodySnapshot> bodies;
    btScalar localTime;
    double simulatedTime;
    std::size_t impactEvents;
    std::map<ContactKey, btVector3> warmStart;
    StepDiagnostics lastStep;
    std::unique_ptr<ImpactSolver> impactSolver;  ///< a copy of lcp mode's solver
  };
  StepSnapshot snapshot() const;
  void restore(StepSnapshot& before);

  ImpactCallback m_impactCallback;
  std::vector<ImpactEvent> m_impactEvents;
  StepDiagnostics m_lastStep;
  double m_simulatedTime = 0;  ///< sum of the internal steps taken (s)
  /// Variational mode: the step's lists, kept for the next step's reuse (variational_step.h).
  std::unique_ptr<detail::VariationalStepMemory> m_stepMemory;
};

}  // namespace carom
