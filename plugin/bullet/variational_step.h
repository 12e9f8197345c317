// The variational step of carom::DynamicsWorld (ARCHITECTURE.md "One step", stages 1–6), as named
// stages over the step's bodies and candidate pairs. Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "carom/bullet/dynamics_world.h"
#include "carom/bullet/gap.h"
#include "carom/core/body.h"
#include "carom/core/contact/persistent_contact.h"
#include "carom/core/impact/contact.h"
#include "carom/core/impact/law.h"
#include "carom/core/impact/material.h"
#include "carom/core/lgvi.h"
#include "centre_motion.h"
#include "mesh_triangles.h"
#include "separation_bound.h"
#include "variational_joints.h"
#include "vertex_contacts.h"

namespace carom {

// Two shapes closer than this count as touching: their contacts are collected into one impact, or
// held as persistent contacts (m). Far above GJK's ~1e-9 m noise, far below any visible gap.
inline constexpr double kContactTolerance = 1e-6;
// A touching contact whose normal speed is at most the step's resting speed is resting, held by the
// persistent-contact LCP instead of an impact law: this (m/s) plus what the largest load adds in
// one step (|g| h = 0.16 m/s at 60 Hz). Within a step a resting body's free corner approaches at up
// to |g| h; as impacts, those approaches would make a box at rest chatter on its corners, each
// bounce lifting it.
inline constexpr double kRestingSpeed = 0.05;
// Where the impact search stops (m): at a probed instant where the pair's gap, with its slack,
// is within this of touching, a millionth of the contact tolerance; bracketing the instant further
// would move the contact by less than this. Just after a contact it resolved a pair's gap with its
// slack is the slack, at least kContactTolerance: the rule cannot stop there
// (core::RootSettings::gapTolerance).
inline constexpr double kLocatedGap = 1e-12;
// How much deeper than when it went quiet a quiet pair (PairTrack::quiet) may sink before it counts
// again (m), doubled each further time in the step. A held contact is a velocity constraint at one
// instant: on a spinning body, or where the closest points run along an edge, the pair goes on
// closing after the hold, and left quiet for the rest of the step it would sink unchecked. The
// doubling bounds how often a pair is held again in a step; a hundred contact tolerances keeps
// the ratchet of ever smaller landings, whose every step is the contact tolerance, away.
inline constexpr double kQuietDepth = 1e-4;

// An active dynamic body of the step: Bullet's body and its double-precision state.
struct StepBody {
  btRigidBody* rigidBody;
  core::MassProperties mass;
  // Its state at the current instant of the step (VariationalStep::m_now), read and written through
  // VariationalStep::stateNow and setStateNow: an event's advance leaves a body no joint holds
  // `behind`, flowed there from its anchor only when something reads it (issue 28's own clocks).
  core::BodyState current;
  core::ExternalLoad load;  // gravity (per body) and the user's force and torque, held constant
  double reach;             // the farthest point of its shape, margin included, from its centre (m)
  bool rotationLocked;      // its angular factor is zero (motion_factors.h): no impulse turns it
  // The largest |ω × q|² / ωᵀJω over the points q of its shape (1/kg; 0 when its rotation is
  // locked, and left 0 for a body no joint holds, as only jointedMotion reads it): a point of it
  // turns at most at √(2 T k) with rotational energy T.
  double turningInverseMass = 0;
  // The state its trial was flowed from and that instant (a fraction of the step): its state at an
  // instant t of the step is the flow from there over t − anchorTime, the trial at t = 1 (the
  // search's probes and the events' advances both; a joint group's members are flowed on from
  // their states now). Advanced by the events' sub-flows instead, a spinning body would drift from
  // the path its trial ends on by the discrete flow's failure to compose (F̃[a]F̃[b] ≠ F̃[a + b]; a
  // centimetre in a step at 40 rad/s), and the search would probe a path the step does not take.
  core::BodyState anchor{};
  double anchorTime = 0;
  // The sub-steps the trial's flow from the anchor took (core::flowInSubsteps): the flows to
  // earlier instants take as many, or the path would jump where a shorter flow needs fewer.
  int anchorSubsteps = 1;
  // Which of the step's anchorings set its anchor (VariationalStep::m_anchorings).
  int anchoring = 0;
  bool behind = false;  // `current` is of an earlier instant than the step's now
  // The acceleration its loads give its centre (m/s²): gravity and the user's force.
  core::Vec3 loadAcceleration() const { return load.gravity + mass.inverseMass() * load.force; }
};

// How long a pair's gap stays above −margin from an instant on, and the bound that certifies it
// (VariationalStep::apartFor): margin + separation ≥ above + slope t − ½ curvature t² ≥ 0 for
// 0 ≤ t ≤ span (s), forward or backward in time.
struct Apart {
  double span = 0;       // s
  double above = 0;      // m
  double slope = 0;      // m/s
  double curvature = 0;  // m/s²
  double atLeast(double t) const { return above + t * (slope - 0.5 * curvature * t); }
};

// A free sphere's first touch in closed form (world_sphere_impacts.cpp): the instant (s from now)
// at which a pair's gap plus its slack is zero, if any; `decided` where its absence is certain
// too (two free spheres, a free sphere and a static plane; against a static box, a face's root
// over the face, or a face the centre never comes within reach of; its edges and corners not).
struct SphereRoot {
  std::optional<double> t;
  bool decided;
};

// A body's centre in `state`, moving under its loads.
inline CentreMotion centreMotionOf(const StepBody& body, const core::BodyState& state) {
  return {state.x, body.mass.inverseMass() * state.gamma, body.loadAcceleration()};
}

// Where a body was when a pair's gap was found (a fixed object does not move).
struct Pose {
  core::Vec3 x;
  core::Mat3 R;
};

// How far a body's rigid motion from (x0, R0) to (x1, R1) can move a point of it within `reach` of
// its centre (m): at most |Δx| + ‖ΔR‖ reach (the Frobenius norm bounds the spectral one).
inline double travelBound(const core::Vec3& x0, const core::Mat3& R0, const core::Vec3& x1,
                          const core::Mat3& R1, double reach) {
  return (x1 - x0).norm() + (R1 - R0).norm() * reach;
}

// How far any point of a body within `reach` of its centre may be moved, over the rest of the step,
// by a change of its trial from `before` to `after` (m): both at the end of the step, the old
// flowed from its anchor over `span` (s), the new from the same pose now. Its centre's move grows
// linearly from now (the flow's translation is exact ballistics): largest at the end. Its turn's
// change grows from zero now too, by the changed spin and the flows' failure to compose, both about
// linearly in time over a small turn: twice its value at the end bounds it (kTurnChangeMargin;
// tests/bullet/path_drift_test.cpp). ∞ where either momentum may turn the body by more than
// kMostFlowTurn over `span` (`smallestMoment`: its least principal moment, kg m²): beyond that the
// flow from the anchor and the one from now part by more.
inline double pathDrift(const core::BodyState& before, const core::BodyState& after, double reach,
                        double smallestMoment, double span) {
  constexpr double kTurnChangeMargin = 2;
  if (std::max(before.Pi.norm(), after.Pi.norm()) / smallestMoment * span > kMostFlowTurn)
    return std::numeric_limits<double>::infinity();
  return (after.x - before.x).norm() + kTurnChangeMargin * (after.R - before.R).norm() * reach;
}

// How far a point of `body` within its reach moves along the flow from its anchor between τ0 and
// τ1 ≥ τ0 after it (s), with no flow: its centre's move exactly (Tran & Leok (5.9a) is ballistic),
// its turn at its largest angular speed |Π|/J_min with closingBound's margin for the discrete
// rotation (tests/bullet/path_drift_test.cpp). ∞ where the flow to τ1 may turn it by more than
// kMostFlowTurn: the flows to two instants, each in sub-steps of its own length, part by more.
double anchoredTravelBound(const StepBody& body, double tau0, double tau1);

// Where `object`, if the step does not flow it, is at `instant` (a fraction of a step of
// `timeStep`): a kinematic body moves at the velocity Bullet gave it
// (btRigidBody::saveKinematicState) and reaches its world transform at the end of the step; any
// other object stays at its world transform (a dynamic body's pose at the start of the step).
btTransform unflowedPoseAt(const btCollisionObject& object, double instant, double timeStep);

// Index of a pair member that is not a step body (static, kinematic or sleeping): immovable.
inline constexpr int kFixed = -1;
// A pair member's child index where its shape is not a compound.
inline constexpr int kWholeShape = -1;

// A compound shape's pairs are its children's (compoundChildrenOf), each a
// convex shape with vertices, patch corners and impacts of its own: paired as one shape, whose gap
// is its closest child's, a compound lying on two children would be held at that child's witness
// point alone and rock into the ground.
struct CandidatePair {
  const btCollisionObject* a;
  const btCollisionObject* b;
  int bodyA;  // index into the step bodies, or kFixed
  int bodyB;
  int childA;  // the child of A's compound shape, or kWholeShape
  int childB;
  // Added to the gap for impact detection (m): pairs touching or overlapping at the start of the
  // step may close by up to kContactTolerance more before that counts as an impact, so resting
  // contacts and round-off never trigger one (they are persistent contacts).
  double slack = 0;
  // Its mesh triangle, if a side is one, faces the body with its winding turned round: the side of
  // the triangle that the body's shape's interiorPointOf was on when the pair was made is its
  // front (a mesh's winding need not face its bodies), and the triangle is solid behind it
  // (gapBehindTriangle).
  bool reversed = false;
  // Its two bodies' bounding spheres stay apart over their motion (world_distant_pairs.cpp): it
  // joins no island, and wakes when either body's motion changes so that they may meet.
  bool distant = false;
  // Where its next exact gap starts, if an ellipsoid pair: kept through the step's queries of the
  // pair (geometryAt hands it to gapOf), which move it, whatever else of the pair is constant.
  mutable detail::CoreWitness witness{};
  // A step body of the pair: A's, or B's where A is fixed (a pair has one at least).
  int movingBody() const { return bodyA != kFixed ? bodyA : bodyB; }
};

// One contact point of a pair, in the core's convention (normal from A into B).
struct PairContact {
  CandidatePair pair;
  core::Vec3 point;
  core::Vec3 normal;
  int feature;  // vertexFeature(), crossingFeature(), or −1 for the gap's witness point
  double gap;   // how far it is from touching (m), 0 when it touches
};

// The contacts of an impact or a hold, each once. Neighbouring triangles of a mesh (or children
// of a compound), each a pair of its own, touch a body on their common edge or corner at one point:
// a ball landing on a triangle's edge would be two impacts of the same contact, and as two rows of
// the hold's LCP the same contact makes it redundant, where Gauss–Seidel converges slowly.
class DistinctContacts {
 public:
  // Whether `contact` repeats none added before: the same two objects touching at the same point
  // (within kSamePoint) along the same normal.
  bool add(const PairContact& contact);

 private:
  // Those of pairs of children: a pair of whole shapes is the only pair of its two objects, and
  // an island's hold would otherwise compare each of its contacts with all the others.
  std::vector<PairContact> m_kept;
};

// A set of step bodies joined by candidate pairs (fixed objects join nothing): what happens in one
// island cannot reach another within the step, so each runs its own impact loop (stage 4) and its
// own persistent-contact LCP (stage 5), and an impact costs work in its island only.
struct Island {
  std::vector<int> bodies;  // step-body indices
  std::vector<int> pairs;   // candidate-pair indices
};

// What the step knows of a candidate pair beyond its geometry, kept from event to event. The
// impact search reads the first members of every pair of the island at every event: they share
// the track's first cache line.
struct PairTrack {
  // Provided (defaulted in variational_step.cpp), so that value-initialising a track, every pair's
  // at every step, does not zero its 670 bytes first: each member that needs a value has one
  // below, and the poses are read only once their gaps are set.
  PairTrack();

  bool touched = false;  // it has touched at vertices in this step (held, struck or grazed)
  bool closing = false;  // its trial poses penetrate (earliestImpact)
  // Closing at most at its resting speed at the start of the step (isResting, for the start of the
  // step's hold).
  bool closesAtRest = false;
  bool trialGapExact = false;  // trialGap, below, is exact
  // Its path comes within touching inside the step though its trial poses are apart (sweptImpact):
  // a fast body meeting a thin one. Found with impactAt, kept until impactAt is found again.
  bool swept = false;
  // Its gap was under the swept search's floor when that search last asked (sweptImpact), which
  // then leaves its path inside the step unsearched: its gap now is asked at each event instead, a
  // dip below touching an impact there, and after the island's last event its path to the end of
  // the step is searched coarser (nearDip; both in earliestImpact).
  bool nearUnsearched = false;
  // Found again at the instant it had just been held or grazed, with nothing struck, or held by the
  // Zeno guard (runIsland): its closing is left to the persistent contacts until an impact changes
  // one of its bodies or its gap falls below `quietFloor` (quietPair).
  bool quiet = false;
  double quietFloor = 0;  // m
  // Its gap at the trial poses (m), found with its bodies at trialGapPoses: exact until one of
  // their trial poses is flowed again (refreshTrials), a lower bound after (trialGapAtLeast).
  std::optional<double> trialGap;
  // That lower bound, once found, until one of its bodies' trial poses is flowed again: the impact
  // search asks it of every pair of the island at every event, and the trial poses of a pile's
  // bodies change only where a hold or impact has reached them.
  std::optional<double> trialGapBound;
  // Its next impact (a fraction of the step, or ∞), until its trial poses change, it touches
  // (markTouching) or the instant comes without it being resolved (runIsland). An ∞ found by the
  // swept search outlives a change of the trial poses that its clearance covers (refreshTrials).
  std::optional<double> impactAt;
  // What the swept search that found impactAt = ∞ certified (sweptImpact): Φ at least this (m)
  // over the rest of the step along the paths it searched (0: nothing), when its bodies' drifts
  // (VariationalStep::m_drift) summed to clearanceDrift.
  double clearance = 0;
  double clearanceDrift = 0;
  int quietings = 0;  // quietPair's, in this step
  // Whether it has landed in the step, and the second-order closing of its gap under its bodies'
  // free flow found when it landed again (m/s², > 0 closing; turningClosure): what its holds for
  // the rest of the step take in, over `turningSpan` at most (s; noteLanding).
  bool landed = false;
  double turning = 0;
  double turningSpan = 0;
  // Its gap at the start of the step, and the slack it sets, not found yet (addPair).
  bool startGapPending = false;
  Pose trialGapPoses[2];
  // Its vertices' vertexGap at the trial poses (A's, then B's; empty when not known), until one of
  // its bodies' trial poses is flowed again.
  std::vector<double> vertexTrialGaps;
  // Its gap at its bodies' poses now (gapNow), found at the instant numbered gapNowInstant
  // (VariationalStep::m_instant): it holds until runIsland flows the bodies on. Optional, so that
  // a track is made without writing a gap (a step makes one per candidate pair).
  std::optional<Gap> gapNow;
  int gapNowInstant = -1;
  // The last gap found at the poses of some instant (m), and those poses: a lower bound of its gap
  // at any later poses, less how far they have moved since (gapNowAtLeast). That instant, and the
  // number of the step's anchorings then (VariationalStep::m_anchorings): a body anchored no later
  // has been on its anchor's flow since.
  std::optional<double> lastGap;
  Pose lastGapPoses[2];
  double lastGapAt = 0;
  int lastGapAnchorings = 0;
  // The sum of its two shapes' smallest half-widths (m, smallestHalfWidth), once asked.
  std::optional<double> halfWidths;
};

// What an island's run changes outside its own held contacts, kept so that the run can be
// discarded (world_island_rerun.cpp).
// Stage 3's tracks need no copy: each was then a PairTrack whose start gap is pending (addPair);
// nor its bodies' pair lists, which the runs only append to.
struct StartOfStep {
  std::vector<Island> islands;  // as findIslands made them, before any body joined one
  std::vector<CandidatePair> pairs;
  std::vector<std::pair<btVector3, btVector3>> searched;
  std::vector<core::BodyState> trial;
  std::vector<detail::JointImpulses> jointsTrial;  // per joint group, as m_jointsTrial
};

// A body's mass properties with the Bullet values they were made from (massOf).
struct KnownMass {
  btScalar inverseMass;
  btVector3 inverseInertia;  // getInvInertiaDiagLocal
  core::MassProperties mass;

  bool madeFrom(const btRigidBody& body) const;
};

namespace detail {
// The per-step lists of a variational step, kept by its world from step to step: each step fills
// them afresh (clear() empties them first), and made anew they cost about 1,000 allocations a step
// for 100 balls. Lists of lists keep their inner lists' memory too. Nothing in them carries from
// one step into the next but `masses`, which clear() keeps.
struct VariationalStepMemory {
  void clear();

  // Per step body of the last step, its mass properties: a body at the same place this step with
  // the same Bullet values takes them (readBodies) instead of checking and factoring its inertia
  // again.
  std::vector<KnownMass> masses;

  std::vector<StepBody> bodies;
  std::vector<core::BodyState> start, trial;
  std::vector<int> slot, islandOf, indexOf, eventsOf;
  std::vector<CandidatePair> pairs;
  std::vector<PairTrack> tracks;
  std::vector<char> apartAllStep;
  std::vector<bool> stale;
  std::vector<std::pair<btVector3, btVector3>> searched, reached;
  std::vector<int> grown;
  std::vector<std::vector<int>> pairsOf;
  std::vector<double> deviation, drift;
  std::vector<carom::Island> islands;  // the step's islands (VariationalStep::run)
  StartOfStep startOfStep;
  core::contact::PersistentContactWorkspace contactWorkspace;
};
}  // namespace detail

class VariationalStep {
 public:
  // `memory` lends the step its lists (emptied here) for as long as it lives.
  VariationalStep(DynamicsWorld& world, double timeStep, detail::VariationalStepMemory& memory);
  // Runs stages 1–6 and writes the bodies back. Throws carom::Error before changing any body for
  // a body without finite inertia; when a rotation solve or an impact-time search fails it throws
  // before the write-back (the bodies keep their poses; damping has been applied).
  StepDiagnostics run();

 private:
  struct HeldContact {
    core::contact::PersistentContact contact;
    // Lever arms p − x (m) as worldLever() reads them: body-frame R_0ᵀ(p − x_0) for a vertex,
    // world-frame p − x_0 for a witness point.
    core::Vec3 leverA, leverB;
    CandidatePair pair;
    int feature;
    int island;
    double span;  // the fraction of the step it was held over (`remaining` when held)
    int p;        // its candidate pair
    DynamicsWorld::ContactKey key() const {
      return {{pair.a, pair.b}, {pair.childA, pair.childB, feature}};
    }
  };

  // What an island's run added to the step's diagnostics: taken back with a discarded run.
  struct IslandCounts {
    int impacts = 0, landings = 0, persistentContacts = 0, restingIslands = 0, stillIslands = 0,
        impactsBySweeps = 0, impactsInTurn = 0;
  };
  // An island's standing as a still island (still_islands.cpp).
  struct Stillness {
    bool repeated = false;  // taken as the last step's repeat, not run
    bool heldOnce = false;  // run as an island at rest: held once, flowed to the end
  };

  // Stage 1: the active dynamic bodies as core states.
  void readBodies();
  // StepBody::turningInverseMass of the bodies of m_joints' groups.
  void readJointedTurning();
  // The joint motors' kicks of the step (variational_limits.h), before the step's start is kept;
  // their impulses start m_jointsKicked and m_jointsNow.
  void kickMotors();
  // The bodies take their trial states (m_trial), their joint groups the trials' joint impulses.
  void takeTrials(const std::vector<int>& bodies);
  // Stage 6 for the joints: each group's joint impulses of the step to Bullet
  // (detail::writeJointImpulses: feedback, applied impulse, breaking); a disabled joint of a step
  // body zeroed, as Bullet's solver zeroes every joint it is given.
  void writeJoints();
  // Stages 4 and 5 for island `id`, its impact events and diagnostics kept apart as its own.
  // An island already linked to another (m_links) is not run: its run would be taken back.
  void runAndCount(std::vector<Island>& islands, int id);
  // runAndCount for each of `ids`, the islands with fewer bodies first (stably).
  void runSmallestFirst(std::vector<Island>& islands, std::vector<int> ids);
  // Whether island `id` is linked to another within the step (m_links): its run, taken back and
  // run again with the other's (rerunLinkedIslands), need go no further.
  bool linked(int id) const;
  // Islands joined within the step (world_island_rerun.cpp): a body struck in one island can reach
  // a body of another before the step ends, which that island's run, on its own time, did not
  // see. Such islands (m_links) are run again from the start of the step as one island, until no
  // run reaches another island's body.
  void rerunLinkedIslands(std::vector<Island>& islands);
  // Takes back island `id`'s run: its bodies (and the free fliers it took in) as at the start of
  // the step, its pairs as findCandidatePairs left them, its held contacts, events and counts
  // dropped. Returns its bodies and pairs at the start of the step.
  Island discardRun(std::vector<Island>& islands, int id);
  // The trial poses, over `remaining`, of the island's bodies struck or held since theirs was
  // flowed (m_stale); an untouched body's trial still holds.
  // Returns those bodies.
  std::vector<int> refreshTrials(const Island& island, double remaining);
  // Pairs an impact has made possible (world_pair_refresh.cpp): candidate pairs come from the
  // bodies' free flight, and a struck body may now reach a body beyond its swept AABB.
  void findNewPartners(Island& island, int id, const std::vector<int>& moved, double elapsed);
  // Distant pairs (world_distant_pairs.cpp): stage 3 marks them before findIslands; a moved
  // body's deviation is recorded, and its distant pairs whose spheres may now meet wake (pairs of
  // the island, or links).
  void markDistantPairs();
  void wakeDistantPairs(Island& island, int id, int body, double elapsed);
  // Whether the bounding spheres of `body`, from its state now, and of `partner` may come within
  // twice the contact margin before the end of the step: the partner flows from its state now where
  // it is in the island, else on its free flight from the start of the step, widened by how far its
  // own island's run took it from there (m_deviation).
  bool mayMeet(int body, int partner, bool partnerInIsland, double elapsed) const;
  // Whether the bounding sphere of `body`, from its state now, may come within twice the contact
  // margin of the static plane or static box `fixed` before the end of the step; true for any
  // other object.
  bool mayReach(int body, const btCollisionObject& fixed, double elapsed) const;
  // Where a body's centre would be, and how it would move, at `elapsed` on the free flight stage 3
  // swept.
  CentreMotion freeFlightAt(int body, double elapsed) const;
  // A body in no island (free flight so far) brought to the island's instant and made one of its
  // bodies, with its joint group.
  void joinFreeFlier(Island& island, int id, int body, double elapsed);
  // A body that no joint holds, flowed by `fraction` of the step from `from` (its free LGVI flow),
  // in `fewestSubsteps` equal sub-steps or more (core::flowInSubsteps); the count taken goes to
  // `substeps` where given.
  core::BodyState flowBody(int index, const core::BodyState& from, double fraction,
                           int fewestSubsteps = 1, int* substeps = nullptr) const;
  // Body `index`'s trial flowed from `state` at `instant` (a fraction of the step): its anchor
  // (StepBody::anchor) from here on.
  void anchorAt(int index, const core::BodyState& state, double instant);
  // A body that no joint holds at `instant` of the step: flowed from its anchor.
  core::BodyState anchoredStateAt(int index, double instant) const;
  // Joint group g's bodies (detail::JointGroup, in its order) flowed together by `fraction` of the
  // step from `from(body)` by the constrained LGVI (core::joints::flow, RATTLE): their joints held
  // at the end to core::joints::JointSettings' tolerance, their velocities along them.
  // Also the impulses its joints gave over the flow.
  detail::GroupStep flowGroup(int g, double fraction,
                              const std::function<const core::BodyState&(int)>& from) const;
  // Flows `bodies` (every body of a joint group among them with its whole group) by `fraction` of
  // the step from `from(body)`, giving each its new state through `to(body, state)` and each joint
  // group's joint impulses over the flow through `impulses(group, impulses)` where given.
  using GroupImpulses = std::function<void(int, const detail::JointImpulses&)>;
  void flowBodies(const std::vector<int>& bodies, double fraction,
                  const std::function<const core::BodyState&(int)>& from,
                  const std::function<void(int, const core::BodyState&)>& to,
                  const GroupImpulses& impulses = nullptr);
  // Body `index` flowed by `fraction` of the step from the island's instant now, with its joint
  // group if it has one (an impact search's probe). A group's last flows are kept (m_groupProbes):
  // a pair of two of its bodies probes it twice at each instant, and pairs probe it at the same
  // cap (earliestImpact).
  core::BodyState probeBody(int index, double fraction) const;
  // A body's last flow (flowBody): the swept search bounds a pair at the instant it has just
  // probed, an event's probes flow a body of several pairs to the same instants (the cap, the end
  // of the step), and the island's advance repeats the located pair's (a third of the bin's flows).
  struct BodyFlow {
    double fraction = std::numeric_limits<double>::quiet_NaN();  // none yet: equal to no fraction
    int fewestSubsteps = 1;
    core::BodyState from, to;
    int substeps = 1;
  };
  struct GroupProbe {
    double fraction;
    std::vector<core::BodyState> from, to;  // the group's bodies' states, in its order
  };
  static constexpr std::size_t kGroupProbesKept = 4;
  // Whether a joint holds the step body (kFixed: no).
  bool jointed(int index) const { return index != kFixed && m_joints.groupOf[index] >= 0; }
  double driftOf(int index) const { return index == kFixed ? 0.0 : m_drift[index]; }
  // Whether two step bodies move as one in an impact: the same body, or joined by joints.
  bool linked(int a, int b) const {
    return a != kFixed && b != kFixed &&
           (a == b || (jointed(a) && m_joints.groupOf[a] == m_joints.groupOf[b]));
  }
  // How jointed body `index` can move over τ (s) from now: its joint group's centre of mass at
  // `velocity` under `acceleration` (zero where a joint holds the group to the world), and any
  // point of the body at most `travel` (m) from where that carries it.
  // The joints do no work, and where none holds the group to the world their forces cancel in
  // its momentum P: its centre of mass moves at V = P/M under ā = Σ(m_i g_i + F_i)/M (exact in the
  // discrete flow too: the joints' impulses cancel in it). The kinetic energy about it,
  // T' = T − ½M|V|² (König), then grows no faster than the loads' power relative to it,
  // P' ≤ C √(2T'), C = Σ_i |m_i (g_i − ā) + F_i|/√m_i + |τ_i|/√J_min,i, so √T' ≤ √T'_0 + C τ/√2
  // (0 under gravity alone). The body's centre moves relative to the group's at u with
  // Σ_j m_j u_j = 0: ½ m|u|² M/(M − m) ≤ the energy that motion takes; a point q turns at
  // |ω × q| ≤ √(2 T_rot k) (StepBody::turningInverseMass). By Cauchy–Schwarz over the two shares,
  // any point moves relative to the group's centre at most at √(2T' (1/m − 1/M + k)). Held to
  // the world: the same with the whole energy T, 1/m and no centre-of-mass motion.
  struct JointedMotion {
    core::Vec3 velocity = core::Vec3::Zero();      // m/s
    core::Vec3 acceleration = core::Vec3::Zero();  // m/s²
    double travel = 0;                             // m
  };
  JointedMotion jointedMotion(int index, double tau) const;
  // A contact's two sides with their joint groups, as the core's jointed problems take them: the
  // bodies (an immovable side with its own velocity), the groups' joint rows among them, and the
  // contact's sides' places.
  struct JointedProblem {
    std::vector<int> involved;  // step bodies, kFixed for an immovable side
    std::vector<core::impact::ContactBody> bodies;
    std::vector<core::contact::JointRow> rows;
    int a = -1, b = -1;
    std::vector<std::pair<int, std::size_t>> groups;  // each joint group's, and its first row
  };
  // Adds the impulses `lambda` of the problem's rows (a strike's or a hold's, with the joints
  // held) to its joint groups' m_jointsNow.
  void addJointImpulses(const JointedProblem& problem, const Eigen::VectorXd& lambda);
  JointedProblem jointedProblemOf(const CandidatePair& pair, const core::impact::ContactBody& sideA,
                                  const core::impact::ContactBody& sideB) const;
  // Adds step body `index` (kFixed: the immovable `side`, a body of its own each time) to
  // `problem`, with its joint group's bodies and rows where it is jointed; returns its place.
  int addToProblem(JointedProblem& problem, int index, const core::impact::ContactBody& side) const;
  // Calls visit(group, slots, states) once for each joint group with a body in the island: its
  // bodies' places (m_slot) and states now, in the group's order.
  using JointGroupVisit = std::function<void(const detail::JointGroup&, const std::vector<int>&,
                                             const std::vector<core::BodyState>&)>;
  void forEachJointGroup(const Island& island, const JointGroupVisit& visit) const;
  // The island's joint rows at its bodies' states now, between their places m_slot.
  std::vector<core::contact::JointRow> islandJointRows(const Island& island) const;
  // The island's joints' stops touching now (detail::touchingStopRows) between their places m_slot,
  // those that some motion of `bodies` (the hold's) can change.
  std::vector<core::contact::JointRow> islandStopRows(
      const Island& island, const std::vector<core::impact::ContactBody>& bodies) const;
  // The island's persistent-contact LCP (core::contact::solvePersistentContacts) on `bodies`
  // (lcpBodiesOf, fixed objects after), with its joints' rows held at their velocities
  // (core::contact::solveJointsAndContacts) where it has any.
  core::contact::PersistentContactReport solveHeldContacts(
      const Island& island, std::vector<core::impact::ContactBody>& bodies,
      std::vector<core::contact::PersistentContact>& contacts,
      const core::contact::PersistentContactSettings& settings) const;
  // One contact's law on the jointed system (core::contact::applyHeldLaw): the joints' rows held,
  // the impulse moving every body of the struck bodies' joint groups. `after` gets the contact's
  // bodies' velocities after it; nullopt where the joints hold the contact still.
  std::optional<core::impact::ImpactOutcome> resolveJointed(const CandidatePair& pair,
                                                            const core::impact::Contact& c,
                                                            const core::impact::ImpactLaw& law,
                                                            core::impact::Contact& after);
  // Stage 3: pairs whose AABBs, swept from the start of the step to the trial poses, overlap; and
  // the islands they make.
  void findCandidatePairs();
  // The candidate pairs of the two objects (one per pair of their compounds' children), unless
  // they need no response or neither moves: appended to m_pairs. Their gaps now give their slack;
  // left for later (`startGapNow` false: stage 3's pairs, whose island a still island's repeat may
  // leave unrun), findStartGap finds them when their island runs.
  void addPair(const btCollisionObject* a, const btCollisionObject* b, bool startGapNow = true);
  void findStartGap(int p);
  // The children of `object`'s shape to pair with `partner`: a compound's children
  // (compoundChildrenOf), or the triangles of a mesh or heightfield within the box last searched
  // for the partner (m_searched) that are not paired with it yet, each kept in m_triangles.
  std::vector<int> childrenToPair(const btCollisionObject* object,
                                  const btCollisionObject* partner);
  // Whether the pair's mesh triangle, as the mesh winds it, faces away from its body's shape's
  // interiorPointOf now (CandidatePair::reversed); false for a pair without one.
  bool facesAway(const CandidatePair& pair) const;
  int stepIndexOf(const btCollisionObject* object) const;  // kFixed for one that is not
  void findIslands(std::vector<Island>& islands);          // and m_slot
  // Whether nothing in the island can strike within the step (world_resting_island.cpp): every
  // pair its free flight closes (trial poses closer than touching) closes at most at its resting
  // speed (closesAtRestingSpeed). Marks the island's closing pairs (PairTrack::closing) and those
  // of them that close at most at their resting speed (PairTrack::closesAtRest).
  bool isResting(const Island& island);
  // Whether closing pair p closes at most at its resting speed, on average over the step and at
  // each of its contacts now (within the holding reach, and the vertices its trial poses sink in).
  bool closesAtRestingSpeed(int p);
  // After an island's hold at the start of the step: whether a pair's trial poses, flowed again
  // where the hold changed a body, still come closer than touching; where every body of the island
  // creeps (isCreeping), closer by more than kQuietDepth than the pair's gap now.
  bool closesAfterHold(Island& island, int id);
  // Whether every body of the island, none of them jointed, moves by at most kQuietDepth over the
  // step from its pose now to its trial pose (|Δx| + ‖ΔR‖ reach): a pile whose hold has stopped
  // short of converging, Gauss–Seidel crawling on its redundant contacts, not a body that rolls,
  // slides or walks.
  bool isCreeping(const Island& island) const;
  // Stages 4 and 5 for one island, from the start of the step to its end.
  void runIsland(Island& island, int id);
  // Still islands (still_islands.cpp). The bytes of everything the island's run reads, in a fixed
  // order, its bodies as the step read them or, `atEnd`, as it will write them; nullopt for an
  // island with a joint or a kinematic partner, never taken as still.
  std::optional<std::vector<unsigned char>> stillInputsOf(const Island& island, bool atEnd) const;
  // Whether island `id` is one the last step left still (DynamicsWorld::m_stillIslands), found as
  // that step left it: then its bodies stay as they are, its counts are the last step's, and it is
  // not run.
  bool repeatStillIsland(const Island& island, int id);
  // Whether the island, held once and flowed (Stillness::heldOnce), ends the step where it started
  // it: every body's velocities within the start-of-step hold's tolerance ε, its pose within ε h.
  bool endedStill(const Island& island) const;
  Stillness& stillnessOf(int id);
  // Flows the island's bodies on by `alpha` of the step (to its next impact).
  void advanceIsland(const Island& island, double alpha);
  // Leaves pair p's closing to the persistent contacts (PairTrack::quiet) until its gap falls
  // kQuietDepth below its gap now, twice as far each further time in the step.
  void quietPair(int p);
  // Pair p has changed in what earliestImpact reads of it: its next scan looks at it again.
  void rescan(int p) { m_apartAllStep[p] = false; }
  // Whether `track` holds its pair's gap at the bodies' poses now (PairTrack::gapNow).
  bool knowsGapNow(const PairTrack& track) const {
    return track.gapNow && track.gapNowInstant == m_instant;
  }
  // d²Φ/dt² of pair p's gap along its bodies' free flow from now, less what their loads give
  // along the gap's normal, with its sign turned: > 0 where the gap closes at second order (a
  // normal turning with a spinning body, closest points running over a curved surface). A hold is
  // a velocity constraint at one instant; such a pair closes again after it and lands again
  // within hundredths of the step, 1 µm deeper each time (docs/measurements.md).
  double turningClosure(int p) const;
  // Pair p lands at `elapsed`: PairTrack::landed, and where it has landed before in the step, its
  // PairTrack::turning and turningSpan.
  void noteLanding(int p, double elapsed);
  // Pair p's second-order closing `closing` (m/s², turningClosure) held from `elapsed` on: its
  // PairTrack::turning and turningSpan.
  void noteTurning(int p, double closing, double elapsed);
  // After the start of the step's hold of island `id`: the smooth pairs it holds (whole shapes)
  // whose gap the hold's flow closes at second order by more than kAnticipatedDip over the step get
  // their closing held (noteTurning). Returns whether any did: the island is then held again.
  bool holdTurningPairs(int id);
  // The gap of a pair with its step bodies at the given states (nullptr: an object that is not a
  // step body), those at `instant` of the step (a fraction of it).
  PairGeometry geometryAt(const CandidatePair& pair, const core::BodyState* a,
                          const core::BodyState* b, double instant) const;
  Gap gapAt(const CandidatePair& pair, const core::BodyState* a, const core::BodyState* b,
            double instant) const;
  // Where `object` is at `instant` of the step: at `state` for a step body, else unflowedPoseAt.
  btTransform poseAt(const btCollisionObject& object, const core::BodyState* state,
                     double instant) const;
  // Pair p's gap at its bodies' poses now: queried once per instant of its island (the poses
  // change only where runIsland flows the island to its next impact), though the impact, the hold
  // and the next search all read it.
  const Gap& gapNow(int p);
  // Whether pair p can touch now: it has touched in the step (a slack), or its trial poses
  // penetrate. The others' gaps need no query.
  bool mayTouch(int p) const {
    return m_pairs[p].slack > 0 || m_tracks[p].closing || m_tracks[p].swept;
  }
  const core::BodyState* currentOf(int index) const {
    return index == kFixed ? nullptr : &stateNow(index);
  }
  // Step body `index`'s state now (StepBody::current), flowed from its anchor first where an
  // advance has left it behind; to be changed in place (an impulse, a correction); replaced.
  const core::BodyState& stateNow(int index) const {
    StepBody& body = m_bodies[index];
    if (body.behind) catchUp(index);
    return body.current;
  }
  core::BodyState& stateNowToChange(int index) {
    stateNow(index);
    return m_bodies[index].current;
  }
  void setStateNow(int index, const core::BodyState& state) {
    m_bodies[index].current = state;
    m_bodies[index].behind = false;
  }
  // Flows a body left behind to the current instant (stateNow).
  void catchUp(int index) const;
  const core::BodyState* trialOf(int index) const {
    return index == kFixed ? nullptr : &m_trial[index];
  }
  // The pair's contact points now: the vertices of a polyhedron's face or edge within `reach` (m)
  // of touching, where faces overlap the corners of the overlap, and the gap's witness point
  // where those do not hold it.
  std::vector<PairContact> contactsNow(int p, double reach = kContactTolerance);
  // Pair p's gap witness point as a contact, unless it lies within the holding reach of the
  // outline of `contacts` (the pair's), which hold it as closely as a hold reaches.
  std::optional<PairContact> witnessBeyond(int p, const std::vector<PairContact>& contacts);
  // The vertices of pair p's polyhedra that its trial poses sink in, as contacts where they are
  // now (at their gaps), less those already among `contacts`.
  void addSinkingVertices(int p, std::vector<PairContact>& contacts);
  // Pair p's vertices' vertexGap at the trial poses, A's then B's (PairTrack::vertexTrialGaps).
  const std::vector<double>& vertexTrialGapsOf(int p);
  // Pair p touches now at `distance` (m) with the contacts `touching`: held, struck or grazed. It
  // may then close by kContactTolerance more before its gap sees an impact, and the impacts of a
  // polyhedron's vertices are located on their own gaps for the rest of the step.
  void markTouching(int p, double distance, const std::vector<PairContact>& touching);
  // A step body's state now (currentOf) or at its trial pose (trialOf); nullptr for kFixed.
  using StateOf = const core::BodyState* (VariationalStep::*)(int) const;
  // Where the pair's step bodies are at `stateOf`'s states (a fixed side's pose is left as it is).
  void posesOf(const CandidatePair& pair, StateOf stateOf, Pose poses[2]) const;
  // How far a point of step body `index` within its reach may have moved from the pose `then` to
  // its state by `stateOf` (m, travelBound; 0 for kFixed).
  double travelFrom(const Pose& then, int index, StateOf stateOf) const;
  // A lower bound (m) of the pair's gap at `stateOf`'s states, from its `gap` at the poses `then`,
  // less each body's travelBound since.
  double gapLessMotion(double gap, const CandidatePair& pair, const Pose then[2],
                       StateOf stateOf) const;
  // A lower bound of pair p's gap at its bodies' poses now (m), with no gap query where the last
  // one found (PairTrack::lastGap) still bounds it; exact where gapNow is known. A body left
  // behind (StepBody::behind) on the flow it was on then is not flowed for it: its travel since is
  // flowTravelBound's.
  double gapNowAtLeast(int p) const;
  // anchoredTravelBound of step body `index` from instant `from` to `to` (fractions of the step).
  double flowTravelBound(int index, double from, double to) const;
  // A body's linear momentum now and a bound of |Π| now, with no flow of a body left behind: γ
  // grows by the loads' impulse exactly (Tran & Leok (5.9b)), and the torque-free flow keeps |Π|.
  struct Momentum {
    core::Vec3 linear;
    double angularAtMost;
  };
  Momentum momentumNow(int index) const;
  // How much closer (m) pair p's shapes can come over `fraction` of the step from now, in free
  // flight (conservative advancement): their relative translation under the loads, exactly
  // quadratic in the LGVI flow (Tran & Leok (5.9a)), plus each body's reach turned at its largest
  // angular speed |Π|/J_min (|Π| is kept by the torque-free flow), with a margin for the discrete
  // rotation. Infinite beside a kinematic object. A pair that is apart by more than this at its
  // cap cannot be the island's next impact, and costs no probe.
  double closingBound(int p, double fraction) const;
  // A lower bound of pair p's gap at the trial poses (m), exact wherever the bound leaves it
  // closer than kContactTolerance to closing (trialGap + slack < 0): a rigid motion moves no point
  // of a shape further than |Δx| + ‖ΔR‖ reach, so a pair found apart by more than its bodies'
  // trial poses have moved since needs no new gap query (after a landing re-holds a pile, most of
  // its pairs).
  double trialGapAtLeast(int p);
  // Stage 4: the fraction of the step from now (`elapsed` of it taken) to the island's earliest
  // impact, or +∞ when its trial poses penetrate nowhere, and in m_nextPair the pair whose gap or
  // vertex gives it. Marks the pairs whose trial poses penetrate (PairTrack::closing), the only
  // ones besides those touching since the step's start (slack > 0) that can be touching at the
  // impact.
  double earliestImpact(const Island& island, double elapsed);
  // Pair p's impact within `remaining` (a fraction of the step from now) though its trial poses are
  // apart by phiTrial − slack (world_swept_impact.cpp): a fast body passing through a thin one, or
  // a gap that dips below touching inside the step and comes back. Conservative advancement
  // (Mirtich 1996) along its bodies' flows, each advance as far as apartFor keeps the pair apart
  // and at least its Φ over a bound of its closing speed, so that no advance passes the first
  // touch. Not asked of a pair nearer than kSweptFloor now (nearDip searches those).
  // The fraction at which Φ comes within half the contact tolerance of touching; or, after
  // kMaxSweptAdvances advances without touching, the fraction reached, searched on from there.
  std::optional<double> sweptImpact(int p, double slack, double phiTrial, double remaining);
  // A pair that sweptImpact left unsearched (PairTrack::nearUnsearched) searched over `remaining`
  // at a coarser resolution: advanced by (Φ + kSweptFloor) over the bound of its closing speed (or
  // as far as apartFor keeps it above −kSweptFloor), its gap cannot fall more than kSweptFloor
  // below touching between two probes, so a dip deeper than that is found, its instant then located
  // between the probe inside and the one before. nullopt where there is none, and for a pair
  // touching now or of a mesh triangle or compound child; after kMaxSweptAdvances advances, the
  // fraction reached. Asked where the island has no other event to come in the step: between a
  // busy island's events its struck dips deepened the bin's overlaps (docs/measurements.md).
  std::optional<double> nearDip(int p, double slack, double remaining);
  // Step body `index` (kFixed: nullptr) at `alpha` of the step from now: its current state at 0,
  // else its probe flow written to `state`.
  const core::BodyState* probedAt(int index, double alpha, core::BodyState& state) const;
  // How long (s) pair's gap stays above −margin, and the bound that says so, from its bodies'
  // states a and b at `anchor` (a fraction of the step from now, on their flows from their anchors,
  // StepBody::anchor, which end at `remaining` from now), forward or backward in time: each shape's
  // separation from the plane through the other's support point along the gap's `normal` (from B
  // towards A), the plane turning with the other's body (separation_bound.h). nullopt where neither
  // bounds it: a mesh's triangle, a kinematic or jointed body, or one turning by more than half a
  // radian on its flow from its anchor to `remaining`.
  std::optional<Apart> apartFor(const CandidatePair& pair, const core::BodyState* a,
                                const core::BodyState* b, double anchor, double remaining,
                                const btVector3& normal, double margin, bool backward) const;
  // Step body `index`'s motion from `state` for separationBound (zero for kFixed), or nullopt
  // (apartFor): `state` at `anchor` of the step from now, on its flow from its anchor.
  std::optional<BodyMotion> motionOf(int index, const core::BodyState* state, double anchor,
                                     double remaining, bool backward) const;
  // Where apartFor bounds neither side, whether pair p may pass through within `remaining`: it can
  // close by more than its shapes' half-widths.
  bool mayPassThrough(int p, double remaining);
  // The earliest impact within `remaining`, if before `cap` (else `cap`), of a vertex of pair `p`
  // not touching now, after others have touched in the step (a box resting or struck on an edge
  // tipping onto its face, or rocking back): the pair's gap stays at the touching contact's zero
  // and cannot see it.
  double earliestVertexImpact(int p, double remaining, double cap);
  // The root of φ (of the pair's geometry at a probe), from φ = phiNow now to phiTrial < 0 at
  // `remaining`, if it comes before `cap` (a fraction of the step from now, ∞ for none): one probe
  // at the cap tells a pair still open there, whose root cannot be the island's next impact (its
  // bracket there would give a later one). Each probe flows the pair's bodies from the current
  // instant. Where φ is the pair's gap plus `slack`, two free spheres are located in closed form
  // (sphereImpact), with no probe.
  std::optional<double> locateImpactBefore(const CandidatePair& pair, double phiNow,
                                           double remaining, double phiTrial, double cap,
                                           const std::function<double(const PairGeometry&)>& phiOf,
                                           std::optional<double> slack = std::nullopt) const;
  // The instant in [lo, hi] (fractions of the step from now) at which φ = phiAt first falls below
  // zero, from phiLo ≥ 0 to phiHi < 0, bracketed to kLocatedGap (core::locateRoot). Throws
  // carom::Error where the search fails.
  static double locateInstant(const std::function<double(double)>& phiAt, double lo, double phiLo,
                              double hi, double phiHi);
  // Where the pair is two whole spheres of step bodies outside joint groups with equal loads per
  // unit mass (gravity alone): the first instant within `remaining` (a fraction of the step from
  // now) at which their gap plus `slack` is zero, in closed form (world_sphere_impacts.cpp); none
  // where it does not apply or the closed form disagrees with the bracket the caller found.
  std::optional<double> sphereImpact(const CandidatePair& pair, double slack,
                                     double remaining) const;
  // sphereImpact's closed form (SphereRoot); nullopt where none applies.
  std::optional<SphereRoot> sphereRoot(const CandidatePair& pair, double slack) const;
  // A root's instant `t` (s from now) as a fraction of the step, where it comes within `remaining`.
  std::optional<double> fractionWithin(const std::optional<double>& t, double remaining) const;
  // Resolves the impact at the current instant: the island's touching contacts that approach
  // faster than their resting speed, and records its events. The slower ones are persistent
  // contacts' business. Changes nothing for a landing (contacts approach, none faster than the
  // resting speed) or a graze (none approaches).
  enum class Outcome { kImpact, kLanding, kGraze };
  Outcome resolveImpact(const Island& island, double elapsed);
  // One contact by its pair's impact law; several by the simultaneous model. `event` carries the
  // instant and the contact count; the rest is filled in per contact.
  void resolveOne(const PairContact& contact, const core::impact::Contact& c, ImpactEvent event);
  // Contacts struck one after the other, each by its pair's law, those still approaching when
  // their turn comes; `overCap`, when not 0, the size of a simultaneous impact that this resolves
  // in turn (detail::simultaneousPath; its events' law says so).
  void resolveOneByOne(const std::vector<PairContact>& contacts, ImpactEvent event,
                       std::size_t overCap = 0);
  void resolveSimultaneous(const std::vector<PairContact>& contacts,
                           const std::vector<core::impact::Contact>& geometry, ImpactEvent event);
  // Stage 5: the island's contacts touching now that approach at most at the resting speed
  // (restingSpeedOf) become persistent for the rest of the step (`remaining`, a fraction of it):
  // a plastic LCP stops what approaches, then the LCP against the loads gives an impulse applied
  // half now (applyHeldImpulse) and half at the end of the step (stopHeldContacts). At the start of
  // the step a contact that separates is left free, unless its pair closes within the step at most
  // at its resting speed (closesAtRestingSpeed: held as an island at rest holds it); on a landing
  // inside the step one that separates at up to a h/2 (the half impulse's doing) stays held; the
  // Zeno guard holds as a landing does, and its pair (m_nextPair) at any speed, closing in or
  // touching, with its vertices sinking in the trial poses as speculative contacts
  // (addSinkingVertices); a landing keeps holding the pairs held earlier in the step that their
  // half impulses have since lifted apart within the holding reach, as speculative contacts. An
  // island at rest (isResting) holds as at the start of the step, and every pair closing or within
  // the holding reach as speculative contacts, separating ones included, whose allowance closes
  // them at the end of the step.
  // A landing holds its contact group only (landingGroupOf), unless the island has joints. The
  // start of the step's hold is taken `again` where holdTurningPairs has found pairs whose closing
  // it must hold (turningHoldSettings).
  enum class Hold { kStartOfStep, kLanding, kGuard, kResting };
  void holdRestingContacts(const Island& island, int id, double remaining, Hold mode,
                           bool again = false);
  // Per step body, whether it is in the landing's contact group: the bodies joined, through the
  // pairs `held` (those the landing's hold would hold) and the contacts held earlier in the step in
  // island `id`, to a pair of `seeds` (the landing's own, and those whose held contacts approach:
  // the island's hold would stop them now, and left alone each would land on its own). No contact
  // joins the group to another body: its hold is the island's restricted to it, and the other
  // groups' holds go on as they were.
  std::vector<bool> landingGroupOf(int id, const std::vector<int>& held,
                                   const std::vector<int>& seeds) const;
  // A sticking contact a pin would hold: a jointed body's sphere on a static object.
  struct PinPoint {
    int body;                  // the jointed body whose sphere touches
    core::Vec3 point, centre;  // the sphere's bottom and centre now (m, world)
    double gap;                // m, the pair's gap now
    core::Vec3 normal;         // away from the ground
    double separating;         // m/s, the bottom's speed along `normal` now
    double friction;           // the pair's Coulomb coefficient
  };
  struct HeldPoint {
    int p;
    PairContact contact;
  };
  // Where a pin of pair p's contact would hold, if one side is a static object and the other a
  // jointed body's sphere.
  std::optional<PinPoint> pinPointOf(int p, const PairContact& contact);
  // Sticking contacts held at the position level (world_pinned_contacts.cpp): at a hold other than
  // the Zeno guard's, the contacts of joint group g (each its pair's one, a sphere of the group's
  // on a static object, touching or within the holding reach: a walker's stance feet) are held over
  // the rest of the step (`remaining`) as temporary joints (a pin each: the rows of its three that
  // the group's joints and the other pins do not hold already) in the group's constrained LGVI flow
  // instead of the velocity-level hold, if the pinned flow's impulse at every one pushes (its
  // normal part > 0) strictly within its friction cone; one whose impulse pulls while it separates
  // faster than the resting speed is let go, and the rest pinned again. Per contact whether it was
  // pinned (the others let go); empty where none was pinned, all then held at the velocity level.
  std::vector<bool> pinStickingContacts(int g, const std::vector<HeldPoint>& contacts,
                                        double remaining);
  // Takes joint group g's pins out of its system (their rows no longer flow with it) and marks its
  // bodies stale; nothing where it has none. dropIslandPins: of every group of the island.
  void dropPins(int g);
  void dropIslandPins(const Island& island);
  // The normal speed up to which a contact of a pair of `material` is resting (m/s): kRestingSpeed
  // plus what the loads add in one step where the material loses energy; kRestingSpeed for an
  // elastic pair, whose slow bounces must stay bounces (there is no Zeno sequence to cut short).
  double restingSpeedOf(const core::impact::Material& material) const;
  // The bodies of an island's persistent-contact LCP: its bodies at their m_slot; lcpIndexOf adds
  // a fixed object where a contact side touches one. Where `group` is given (a landing's,
  // landingGroupOf), a body outside it has its inverse mass only (no contact of the hold touches
  // it).
  std::vector<core::impact::ContactBody> lcpBodiesOf(
      const Island& island, const std::vector<bool>* group = nullptr) const;
  int lcpIndexOf(int index, const btCollisionObject* object,
                 std::vector<core::impact::ContactBody>& bodies) const;
  // Keeps the held impulses for the next step's warm start and ends every island's held contacts.
  void applyPersistentEnd(const std::vector<Island>& islands);
  void stopHeldContacts(const Island& island, int id);
  // Removes what an island with persistent contacts gained over the step (world_energy_guard.cpp).
  void guardIslandEnergy(const Island& island);
  // Body `index`'s potential energy now less at `from`, less its user loads' work from there (J).
  double loadsEnergyChange(int index, const core::BodyState& from) const;
  double kineticEnergyOf(const Island& island) const;  // J
  // Takes `energy` (J) from the island's kinetic energy `kinetic`, all of it where it has less:
  // every body's momenta scaled alike, so no contact between them starts to close.
  void takeKineticEnergy(const Island& island, double energy, double kinetic);
  // Gap drift corrected without injecting energy (world_drift.cpp): pairs deeper than
  // kDriftAllowance at the end of the step are pushed apart by positions only, as far as the
  // island's kinetic energy pays for the lift.
  void correctIslandDrift(const Island& island);
  // Stage 6.
  void writeBodies();

  core::impact::ContactBody contactBodyOf(int index, const btCollisionObject* object) const;
  core::impact::Material materialOf(const btCollisionObject* a, const btCollisionObject* b) const;
  void applyVelocities(int index, const core::Vec3& v, const core::Vec3& omega);

  // An impulse (on B, −impulse on A) at a held contact: γ += impulse, Π += Rᵀ(r × impulse) with
  // r the contact's lever arm now (worldLever); on a jointed body through its joints
  // (core::contact::applyHeldImpulse), which keep their velocities.
  void applyHeldImpulse(const HeldContact& held, const core::Vec3& impulse);
  // Before an island's contacts are held again inside the step: what its earlier holds gave ahead
  // of time is taken back (see world_persistent.cpp).
  // Only the contacts of bodies in `group` where one is given (landingGroupOf).
  void settleEarlierHolds(int id, double remaining, const std::vector<bool>* group);
  // A held contact's lever arm on body `index` in the world frame now. A polyhedron's vertex
  // (feature ≥ 0) is a material point and turns with the body; the gap's witness point
  // (feature −1, a smooth shape's or an edge crossing's) is not: a rolling ball's contact stays
  // under its centre, and a lever turned with the ball would put the normal impulse ahead of it and
  // spin it up.
  core::Vec3 worldLever(const HeldContact& held, int index, const core::Vec3& lever) const;

  DynamicsWorld& m_world;
  double m_timeStep;
  // The instant (a fraction of the step) the step bodies' states are at: the island's being run,
  // or the end of the step.
  double m_now = 0;
  // The instants the islands' runs have flowed their bodies to, counted over the step: a pair's gap
  // now (PairTrack::gapNow) holds while this is the number it was found at.
  int m_instant = 0;
  // The anchors set in the step so far (anchorAt), numbering them (StepBody::anchoring).
  int m_anchorings = 0;
  std::vector<StepBody>& m_bodies;
  std::vector<KnownMass>& m_knownMasses;  // detail::VariationalStepMemory::masses
  // The step bodies' joint groups (variational_joints.h), flowed together.
  detail::StepJoints m_joints;
  // Per joint group, its last kGroupProbesKept probes' flows (probeBody), oldest first.
  mutable std::vector<std::vector<GroupProbe>> m_groupProbes;
  // Per step body, its last flow (flowBody).
  mutable std::vector<BodyFlow> m_lastFlows;
  // The memory of the step's contact solves (solveHeldContacts), one at a time.
  core::contact::PersistentContactWorkspace& m_contactWorkspace;
  // Per joint group, the impulses its joints gave (detail::JointImpulse) since the step's start
  // along the flows, strikes and kicks that led to its bodies' states: the motors' kicks (at
  // m_start), the states now (m_bodies), the trial states (m_trial). A flow taken back (a probe, a
  // trial flowed again) counts nothing.
  std::vector<detail::JointImpulses> m_jointsKicked, m_jointsNow, m_jointsTrial;
  double m_restingSpeed = kRestingSpeed;  // this step's (m/s)
  // How far from touching a held pair's vertices are held too (m): within the step the
  // kick–flow–kick moves a held body by up to a h²/8 about its rest pose, and a corner nearer the
  // ground than that, left free, would strike it every step (a box rocking from corner to corner,
  // sinking by the contact tolerance each time). kContactTolerance + a h²/4 for the largest load a.
  // Such a vertex is held as a speculative contact, free to close its gap over the rest of the
  // step.
  double m_holdingReach = kContactTolerance;
  std::vector<core::BodyState>& m_start;  // per step body: its state at the start of the step
  std::vector<core::BodyState>& m_trial;  // per step body: its trial pose (stage 2)
  std::vector<int>& m_slot;      // per step body: its place in its island's body list, or −1
  std::vector<int>& m_islandOf;  // per step body: its island, or −1
  // Step bodies by their objects' place in the world's collision object array, kFixed where none.
  std::vector<int>& m_indexOf;
  std::vector<CandidatePair>& m_pairs;
  std::vector<PairTrack>& m_tracks;  // per pair
  // Per pair: earliestImpact found it apart for the rest of the step (its instant ∞, not left near
  // by the swept search), and nothing that earliestImpact reads of it has changed since (its trial
  // gap, slack, quietness and instant): its scans skip it without reading its track. Cleared
  // wherever one of those changes (rescan).
  std::vector<char>& m_apartAllStep;
  std::vector<bool>& m_stale;  // per step body: struck or held since its trial was flowed
  // Per step body: a box the broadphase has been searched over for its partners (stage 3's swept
  // AABB, then the last box findNewPartners searched): a body moved within it has no new partner.
  std::vector<std::pair<btVector3, btVector3>>& m_searched;
  // Per step body: the box that bounds every box searched for it (stage 3's, then
  // findNewPartners'), which bounds its path so far in the step. The broadphase holds only
  // stage 3's boxes: a body another island's run has taken beyond them is found by this one.
  std::vector<std::pair<btVector3, btVector3>>& m_reached;
  // The step bodies whose m_reached a run has grown beyond stage 3's box, in the order they grew.
  std::vector<int>& m_grown;
  std::vector<std::vector<int>>& m_pairsOf;  // per step body: its candidate pairs
  // The triangles of meshes and heightfields paired in the step (childrenToPair), by mesh shape
  // and triangle number: a pair's child shape there (geometryAt).
  // A triangle is kept as the mesh winds it and reversed, as pairs face it
  // (CandidatePair::reversed), with the triangles across its edges (gapOf keeps its normals
  // among the surface's there).
  struct MeshChild {
    std::unique_ptr<btTriangleShape> shape;
    TriangleNeighbours neighbours;
  };
  std::map<std::tuple<const btCollisionShape*, int, bool>, MeshChild> m_triangles;
  // The boxes that meet triangles, each as sharpBox makes it, made when a query first needs it.
  mutable std::map<const btBoxShape*, std::unique_ptr<btBoxShape>> m_sharpBoxes;
  std::vector<HeldContact> m_held;
  int m_nextPair = -1;           // the pair of the island's earliest impact (earliestImpact)
  std::vector<int>& m_eventsOf;  // per step body: the step's events its pairs have had
  // Per step body: how far its island's run has taken it, at most, from the free flight stage 3
  // swept (m, over the whole step; world_distant_pairs.cpp). 0 until its run changes its motion.
  std::vector<double>& m_deviation;
  // Per step body: how far, in all, its path over the rest of the step may have moved from the
  // paths of the searches before (m, pathDrift summed over its trials' changes; ∞ once a joint
  // group's flow has changed it). A pair's swept search holds while its bodies' drifts since have
  // not used up its clearance (PairTrack::clearance).
  std::vector<double>& m_drift;
  StepDiagnostics m_diagnostics;
  // StepDiagnostics::locationProbes and gapQueries, counted by the const queries.
  mutable int m_probes = 0;
  mutable int m_gapQueries = 0;
  StartOfStep& m_startOfStep;
  std::vector<Island>& m_islands;  // the step's, as findIslands made them and runs joined them
  // Islands whose runs reached each other's bodies within the step (findNewPartners).
  std::vector<std::pair<int, int>> m_links;
  int m_running = -1;  // the island being run
  // The step's impact events, with the island that resolved them, recorded to the world once the
  // step is done: an island run again drops the events of its first run.
  std::vector<std::pair<int, ImpactEvent>> m_events;
  std::vector<IslandCounts> m_countsOf;  // per island
  std::vector<Stillness> m_stillness;    // per island
};

}  // namespace carom
