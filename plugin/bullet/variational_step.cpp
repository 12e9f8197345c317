// The variational step of carom::DynamicsWorld, stage by stage (ARCHITECTURE.md "One step"):
//   1 readBodies               active dynamic bodies → double-precision (x, R, γ, Π)
//   2 trial flow               LGVI flow F̃[h] of every body (Tran & Leok (5.9)): trial poses;
//                              bodies joined by joints flowed together by the constrained LGVI
//                              (core::joints::flow), here and wherever a body is flowed
//   3 findCandidatePairs       Bullet's broadphase with AABBs swept to the trial poses; the pairs
//                              join the bodies into islands (findIslands), each run on its own:
//   5 holdRestingContacts      resting/sliding contacts: velocity-level LCP, half its impulse
//                              before the flow and a plastic stop at the end (kick–flow–kick keeps
//                              a resting body still); at the start of the step, after a landing.
//                              A joint group's one sticking contact with a static object, a sphere
//                              on its side, is pinned instead: held at the position level in the
//                              group's constrained flow until the step's next event
//                              (world_pinned_contacts.cpp)
//   4 impact loop              earliest impact on the signed gaps of pairs and of touching
//                              polyhedra's vertices (core::locateRoot, each probe an LGVI sub-step
//                              plus a gap query), the island advanced to it, the contacts resolved,
//                              new partners of the struck bodies paired (world_pair_refresh.cpp),
//                              repeated for the rest of the step (Tran & Leok Algorithm 5.2,
//                              generalised to many bodies), at most solver.maxEventsPerStep times
//                              per body
//   6 writeBodies              poses and velocities back to Bullet; writeJoints, each joint's
//                              impulse over the step (feedback, applied impulse, breaking)
#include "variational_step.h"

#include "mesh_triangles.h"
#include "pair_contacts.h"
#include "sphere_gap.h"
#include "support_contacts.h"

#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <LinearMath/btTransformUtil.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>
#include <unordered_map>

#include "bt_eigen.h"
#include "carom/core/event.h"
#include "carom/core/joints/jointed_flow.h"
#include "carom/error.h"
#include "disjoint_sets.h"
#include "vertex_contacts.h"

namespace carom {

using detail::toBt;
using detail::toEigen;

namespace {

// The LGVI's rotation over a sub-step turns by about |ω| τ, not exactly: a quarter more is far
// above the difference at the angles a flow takes (under a quarter turn per sub-step).
constexpr double kRotationMargin = 1.25;

// Whether `contacts` already has a point at `point` (within kSamePoint).
bool listedAt(const std::vector<PairContact>& contacts, const core::Vec3& point) {
  return std::any_of(contacts.begin(), contacts.end(), [&](const PairContact& contact) {
    return (contact.point - point).norm() <= kSamePoint;
  });
}

}  // namespace

PairTrack::PairTrack() = default;

namespace detail {

void VariationalStepMemory::clear() {
  bodies.clear();
  start.clear();
  trial.clear();
  slot.clear();
  islandOf.clear();
  indexOf.clear();
  eventsOf.clear();
  pairs.clear();
  tracks.clear();
  apartAllStep.clear();
  stale.clear();
  searched.clear();
  reached.clear();
  grown.clear();
  for (std::vector<int>& list : pairsOf)
    list.clear();
  deviation.clear();
  drift.clear();
  for (carom::Island& island : islands) {
    island.bodies.clear();
    island.pairs.clear();
  }
}

}  // namespace detail

VariationalStep::VariationalStep(DynamicsWorld& world, double timeStep,
                                 detail::VariationalStepMemory& memory)
    : m_world(world),
      m_timeStep(timeStep),
      m_bodies(memory.bodies),
      m_knownMasses(memory.masses),
      m_contactWorkspace(memory.contactWorkspace),
      m_start(memory.start),
      m_trial(memory.trial),
      m_slot(memory.slot),
      m_islandOf(memory.islandOf),
      m_indexOf(memory.indexOf),
      m_pairs(memory.pairs),
      m_tracks(memory.tracks),
      m_apartAllStep(memory.apartAllStep),
      m_stale(memory.stale),
      m_searched(memory.searched),
      m_reached(memory.reached),
      m_grown(memory.grown),
      m_pairsOf(memory.pairsOf),
      m_eventsOf(memory.eventsOf),
      m_deviation(memory.deviation),
      m_drift(memory.drift),
      m_startOfStep(memory.startOfStep),
      m_islands(memory.islands) {
  memory.clear();
}

StepDiagnostics VariationalStep::run() {
  // A joint the step cannot hold is refused before any body changes.
  for (int c = 0; c < m_world.getNumConstraints(); ++c) {
    btTypedConstraint& joint = *m_world.getConstraint(c);
    if (joint.isEnabled()) detail::requireVariationalJoint(joint, "variational step");
  }
  readBodies();
  {
    std::vector<btRigidBody*> rigidBodies;
    std::vector<core::MassProperties> masses;
    rigidBodies.reserve(m_bodies.size());
    masses.reserve(m_bodies.size());
    for (const StepBody& body : m_bodies) {
      rigidBodies.push_back(body.rigidBody);
      masses.push_back(body.mass);
    }
    m_joints = detail::stepJointsOf(m_world, rigidBodies, masses, m_timeStep);
  }
  readJointedTurning();
  m_groupProbes.resize(m_joints.groups.size());
  kickMotors();
  for (const StepBody& body : m_bodies) {
    m_start.push_back(body.current);  // no body is behind before the islands run
    const double load = body.loadAcceleration().norm();
    m_restingSpeed = std::max(m_restingSpeed, kRestingSpeed + load * m_timeStep);
    m_holdingReach =
        std::max(m_holdingReach, kContactTolerance + 0.25 * load * m_timeStep * m_timeStep);
  }
  const int bodyCount = static_cast<int>(m_bodies.size());
  m_eventsOf.assign(bodyCount, 0);
  m_deviation.assign(bodyCount, 0.0);
  m_drift.assign(bodyCount, 0.0);
  m_trial.resize(bodyCount);
  m_lastFlows.assign(bodyCount, {});
  std::vector<int> all(bodyCount);
  std::iota(all.begin(), all.end(), 0);
  flowBodies(
      all, 1.0, [&](int body) -> const core::BodyState& { return stateNow(body); },
      [&](int body, const core::BodyState& state) {
        m_trial[body] = state;
        anchorAt(body, stateNow(body), 0);
      },
      [&](int g, const detail::JointImpulses& impulses) {
        m_jointsTrial[g] = impulses;
        detail::addImpulses(m_jointsNow[g], m_jointsTrial[g]);
      });
  findCandidatePairs();
  markDistantPairs();
  std::vector<Island>& islands = m_islands;
  findIslands(islands);
  std::vector<int> fliers;  // a body in no pair flies free
  for (int body = 0; body < bodyCount; ++body) {
    if (m_slot[body] < 0) fliers.push_back(body);
  }
  takeTrials(fliers);
  // Assigned list by list, which reuses the lists' memory (a new StartOfStep would not).
  m_startOfStep.islands = islands;
  m_startOfStep.pairs = m_pairs;
  m_startOfStep.searched = m_searched;
  m_startOfStep.trial = m_trial;
  m_startOfStep.jointsTrial = m_jointsTrial;
  std::vector<int> order(islands.size());
  std::iota(order.begin(), order.end(), 0);
  runSmallestFirst(islands, std::move(order));
  rerunLinkedIslands(islands);
  m_now = 1;
  applyPersistentEnd(islands);
  writeBodies();
  writeJoints();
  // In the order they happened: the islands ran one after the other.
  std::stable_sort(m_events.begin(), m_events.end(),
                   [](const auto& a, const auto& b) { return a.second.time < b.second.time; });
  for (const auto& [island, event] : m_events)
    m_world.recordImpact(event);
  m_diagnostics.locationProbes = m_probes;
  m_diagnostics.gapQueries = m_gapQueries;
  return m_diagnostics;
}

void VariationalStep::runSmallestFirst(std::vector<Island>& islands, std::vector<int> ids) {
  // A small island whose run reaches a large one's body links it before its turn, and the large
  // one does not run (runAndCount); run first, the large one's run up to where it reached the small
  // one would be taken back.
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
    return islands[a].bodies.size() < islands[b].bodies.size();
  });
  for (const int id : ids)
    runAndCount(islands, id);
}

void VariationalStep::runAndCount(std::vector<Island>& islands, int id) {
  m_countsOf.resize(islands.size());
  if (linked(id)) return;
  const StepDiagnostics before = m_diagnostics;
  m_running = id;
  runIsland(islands[id], id);
  m_countsOf[id] = {m_diagnostics.impacts - before.impacts,
                    m_diagnostics.landings - before.landings,
                    m_diagnostics.persistentContacts - before.persistentContacts,
                    m_diagnostics.restingIslands - before.restingIslands,
                    m_diagnostics.stillIslands - before.stillIslands,
                    m_diagnostics.impactsBySweeps - before.impactsBySweeps,
                    m_diagnostics.impactsInTurn - before.impactsInTurn};
}

bool VariationalStep::linked(int id) const {
  return std::any_of(m_links.begin(), m_links.end(),
                     [id](const auto& link) { return link.first == id || link.second == id; });
}

void VariationalStep::runIsland(Island& island, int id) {
  // At the start of the step a contact that separates is left free, however slowly: held, the
  // half impulse would carry it up through the step as if supported, and the body would rise and
  // gain energy. It lands within the step if it must, unless its pair closes at most at its
  // resting speed: then it is held as a speculative contact that closes at the end of the step.
  // Inside the step a held body separates at up to a h/2 from the half impulse, and its contacts
  // stay held. An island at rest is held once and flows to the end of the step, unless its hold
  // has left a pair closing (a push into a neighbour beyond the holding reach, a turn): the impact
  // loop then takes the step from its holds.
  m_now = 0;
  if (repeatStillIsland(island, id)) {
    m_now = 1;
    return;
  }
  for (const int p : island.pairs) {
    if (m_tracks[p].startGapPending) findStartGap(p);
  }
  const bool resting = isResting(island);
  const Hold start = resting ? Hold::kResting : Hold::kStartOfStep;
  holdRestingContacts(island, id, 1.0, start);
  if (resting && !closesAfterHold(island, id)) {
    takeTrials(island.bodies);
    m_now = 1;
    ++m_diagnostics.restingIslands;
    stillnessOf(id).heldOnce = true;
    return;
  }
  if (holdTurningPairs(id)) holdRestingContacts(island, id, 1.0, start, /*again=*/true);
  double elapsed = 0;  // α_Σ: the fraction of the step already taken
  int lastPair = -1;   // the pair of the last event, if a landing or graze
  while (true) {
    const double remaining = 1.0 - elapsed;
    findNewPartners(island, id, refreshTrials(island, remaining), elapsed);
    if (linked(id)) break;  // its run will be taken back
    const double alpha = earliestImpact(island, elapsed);
    if (!(alpha < remaining)) break;  // free flight to the end of the step
    // The Zeno guard counts events per body: a Zeno sequence of ever smaller bounces is one body's
    // (or a few), while a busy island has many bodies with a few events each: counted per island,
    // a busy island would spend its events early in every step, and the guard's holds would leave
    // its bodies overlapping.
    const CandidatePair next = m_pairs[m_nextPair];  // a copy: m_pairs grows as partners are found
    const int events = std::max(next.bodyA == kFixed ? 0 : m_eventsOf[next.bodyA],
                                next.bodyB == kFixed ? 0 : m_eventsOf[next.bodyB]);
    advanceIsland(island, alpha);
    elapsed += alpha;
    // The event's contacts are contacts again, held or struck as such (world_pinned_contacts.cpp).
    dropIslandPins(island);
    if (events >= m_world.getConfig().solver.maxEventsPerStep) {
      // The pair is held at its instant, whatever its speed (the plastic stop dissipates), instead
      // of an endless series of impacts, and goes quiet; the rest of the island's events go on.
      // Holding every touching and closing contact of the island and ending its step instead would
      // leave what the hold pushes into a neighbour there.
      m_diagnostics.eventLimitReached = true;
      m_diagnostics.message =
          "solver.maxEventsPerStep (" + std::to_string(events) +
          ") events of one body in the step at t = " + std::to_string(m_world.m_simulatedTime) +
          " s; its next pair was held as a persistent contact";
      holdRestingContacts(island, id, 1.0 - elapsed, Hold::kGuard);
      quietPair(m_nextPair);
      lastPair = -1;
    } else {
      // A landing below the resting speed would otherwise start a Zeno sequence of ever smaller
      // bounces inside the step: its contacts are held for the rest of the step instead.
      const Outcome outcome = resolveImpact(island, elapsed);
      if (outcome == Outcome::kLanding) {
        ++m_diagnostics.landings;
        noteLanding(m_nextPair, elapsed);
        holdRestingContacts(island, id, 1.0 - elapsed, Hold::kLanding);
      }
      // A landing or graze found again at once by the same pair made no progress: the hold or the
      // graze dealt with its contacts, and its gap closes again within round-off of this instant (a
      // deep overlap of smooth shapes, whose penetration depth is noisier than the contact
      // tolerance; a held contact that rolls). Found again and again, it would use up the step's
      // events and end the step in the Zeno guard, each event holding the whole island again.
      constexpr double kSameInstant = 1e-9;  // of the step: below the impact search's resolution
      if (outcome != Outcome::kImpact && m_nextPair == lastPair && alpha <= kSameInstant)
        quietPair(m_nextPair);
      lastPair = outcome == Outcome::kImpact ? -1 : m_nextPair;
      for (const int body : {next.bodyA, next.bodyB}) {
        if (body != kFixed) ++m_eventsOf[body];
      }
      ++m_diagnostics.impacts;
    }
    for (const int p : island.pairs) {  // instants that have come are found again from here
      if (m_apartAllStep[p]) continue;
      std::optional<double>& impactAt = m_tracks[p].impactAt;
      if (impactAt && *impactAt <= elapsed) impactAt.reset();
    }
  }
  takeTrials(island.bodies);
  m_now = 1;
}

void VariationalStep::takeTrials(const std::vector<int>& bodies) {
  for (const int body : bodies) {
    setStateNow(body, m_trial[body]);
    if (jointed(body)) m_jointsNow[m_joints.groupOf[body]] = m_jointsTrial[m_joints.groupOf[body]];
  }
}

void VariationalStep::advanceIsland(const Island& island, double alpha) {
  m_now += alpha;
  // A joint group's bodies are flowed on with their group; the others are flowed from their
  // anchors when first read (stateNow): between two events a pile's event reads about half of its
  // island's bodies.
  std::vector<int> jointedBodies;
  for (const int body : island.bodies) {
    if (jointed(body)) {
      jointedBodies.push_back(body);
      continue;
    }
    m_bodies[body].behind = true;
  }
  flowBodies(
      jointedBodies, alpha, [&](int body) -> const core::BodyState& { return stateNow(body); },
      [&](int body, const core::BodyState& state) { setStateNow(body, state); },
      [&](int g, const detail::JointImpulses& impulses) {
        detail::addImpulses(impulses, m_jointsNow[g]);
      });
  ++m_instant;  // every gap now found before is of the poses before
}

void VariationalStep::noteLanding(int p, double elapsed) {
  PairTrack& track = m_tracks[p];
  if (!track.landed) {
    track.landed = true;
    return;
  }
  // Smooth pairs only: a polyhedron's gap is the least of its vertices' and faces', and its second
  // difference where that changes hands is no pair's closing.
  const std::vector<PairContact> touching = contactsNow(p);
  const bool smooth = std::all_of(touching.begin(), touching.end(),
                                  [](const PairContact& contact) { return contact.feature == -1; });
  if (smooth) noteTurning(p, std::max(0.0, turningClosure(p)), elapsed);
}

void VariationalStep::noteTurning(int p, double closing, double elapsed) {
  // A second-order closing held over the rest of the step is an extrapolation: the pair's bodies
  // must turn by little over it (kTurnHeld). A pair that turns further is held over a shorter span
  // (PairTrack::turningSpan), after which it lands again and its closing is found anew: held with
  // no closing, it closes again at once and lands every √(2 tol/κ), 92 µs for a spinning box and
  // ellipsoid in a pile (κ ≈ 240 m/s²).
  constexpr double kTurnHeld = 0.1;  // rad
  const auto spin = [&](int body) {  // a sphere's turn leaves its surface where it is
    if (body == kFixed) return 0.0;
    const StepBody& b = m_bodies[body];
    if (b.rigidBody->getCollisionShape()->getShapeType() == SPHERE_SHAPE_PROXYTYPE) return 0.0;
    return (b.mass.inverseInertia() * stateNow(body).Pi).norm();
  };
  PairTrack& track = m_tracks[p];
  const CandidatePair& pair = m_pairs[p];
  const double spinRate = spin(pair.bodyA) + spin(pair.bodyB);  // rad/s
  const double remaining = (1 - elapsed) * m_timeStep;          // s
  track.turning = closing;
  track.turningSpan = remaining;
  if (spinRate * remaining > kTurnHeld) {
    // It comes back inside the step, at about half the hold's lift (span × κ): within the resting
    // speed, it lands again there rather than strikes and chatters.
    track.turningSpan = kTurnHeld / spinRate;
    if (track.turning > 0) {
      track.turningSpan =
          std::min(track.turningSpan, restingSpeedOf(materialOf(pair.a, pair.b)) / track.turning);
    }
  }
}

bool VariationalStep::holdTurningPairs(int id) {
  // The start of the step's hold gives each body half its impulse now; where the impulses leave a
  // pair's bodies turning (a pile's holds stall with its contacts' velocities still changing by
  // 1e-5–1e-4 m/s per sweep), its gap closes at second order after the hold and the pair lands
  // again within the step, 1 µm deeper, each landing holding its whole contact group again.
  // Smooth pairs only, as noteLanding's (every contact held at a witness point), and of whole
  // shapes: a mesh triangle's or compound child's closing changes hands at its edges (a cylinder
  // rolling over mesh edges lost speed to it).
  // kAnticipatedDip: ½κh² (m), a dip of 7 µm (κ = 0.05 m/s² at 60 Hz); at 0.02 m/s² the 200-body
  // bin's deepest overlap reached 0.35 mm (docs/measurements.md).
  constexpr double kAnticipatedDip = 7e-6;
  // The island's held contacts as (pair, smooth), in pair order: sized by the island, not by the
  // step's pairs, which a scene of a thousand small islands would clear for each of them.
  std::vector<std::pair<int, bool>> held;
  for (const HeldContact& contact : m_held) {
    if (contact.island == id) held.emplace_back(contact.p, contact.feature == -1);
  }
  std::sort(held.begin(), held.end());
  bool any = false;
  for (auto first = held.begin(); first != held.end();) {
    const int p = first->first;
    const auto end = std::find_if(first, held.end(), [p](const auto& c) { return c.first != p; });
    const bool smooth = std::all_of(first, end, [](const auto& c) { return c.second; });
    first = end;
    const CandidatePair& pair = m_pairs[p];
    if (!smooth || pair.childA != kWholeShape || pair.childB != kWholeShape) continue;
    const double closing = turningClosure(p);
    if (!(0.5 * closing * m_timeStep * m_timeStep > kAnticipatedDip)) continue;
    noteTurning(p, closing, 0);
    any = true;
  }
  return any;
}

double VariationalStep::turningClosure(int p) const {
  // Three gaps along the free flow, δ of the step apart: a hundredth of a step, where a pair that
  // lands again every few hundredths closes by κδ²h² ≈ 1e-7 m at κ = 5 m/s², far above the gap's
  // round-off.
  constexpr double kDelta = 0.01;
  const CandidatePair& pair = m_pairs[p];
  const auto flowed = [&](int body, double fraction) {
    return body == kFixed ? core::BodyState{} : probeBody(body, fraction);
  };
  double phi[3];
  btVector3 normal(0, 0, 0);  // the first gap's
  for (int k = 0; k < 3; ++k) {
    const core::BodyState a = flowed(pair.bodyA, k * kDelta), b = flowed(pair.bodyB, k * kDelta);
    const Gap g = gapAt(pair, pair.bodyA == kFixed ? nullptr : &a,
                        pair.bodyB == kFixed ? nullptr : &b, m_now + k * kDelta);
    phi[k] = g.distance;
    if (k == 0) normal = g.normal;
  }
  const double dt = kDelta * m_timeStep;
  const auto loadOf = [&](int body) {
    return body == kFixed ? core::Vec3::Zero().eval() : m_bodies[body].loadAcceleration();
  };
  // The normal points from B towards A: the gap grows with A's acceleration along it.
  const double loads = toEigen(normal).dot(loadOf(pair.bodyA) - loadOf(pair.bodyB));
  return -((phi[2] - 2 * phi[1] + phi[0]) / (dt * dt) - loads);
}

void VariationalStep::quietPair(int p) {
  PairTrack& track = m_tracks[p];
  rescan(p);
  track.quiet = true;
  track.quietFloor = gapNow(p).distance - std::ldexp(kQuietDepth, track.quietings++);
  track.impactAt.reset();
}

namespace {

// Whether two states are the same to the bit: a flow is a function of its start and span alone, so
// a memo found by comparing both holds through whatever changes the states, with no invalidation
// to miss.
bool sameState(const core::BodyState& a, const core::BodyState& b) {
  return a.x == b.x && a.R == b.R && a.gamma == b.gamma && a.Pi == b.Pi;
}

}  // namespace

core::BodyState VariationalStep::flowBody(int index, const core::BodyState& from, double fraction,
                                          int fewestSubsteps, int* substeps) const {
  if (fraction == 0) {  // an anchored body's state at its anchor's own instant
    if (substeps != nullptr) *substeps = fewestSubsteps;
    return from;
  }
  BodyFlow& last = m_lastFlows[index];
  if (last.fraction == fraction && last.fewestSubsteps == fewestSubsteps &&
      sameState(last.from, from)) {
    if (substeps != nullptr) *substeps = last.substeps;
    return last.to;
  }
  const StepBody& body = m_bodies[index];
  // A body spinning faster than one step's rotation solve reaches (about 1/h rad/s) is flowed in
  // sub-steps of the same map.
  core::NewtonSettings newton;
  newton.residual = false;  // the status is all the step reads
  const core::FlowResult result =
      core::flowInSubsteps(body.mass, from, fraction * m_timeStep, body.load,
                           core::kMaxFlowSubsteps, newton, fewestSubsteps);
  if (!result.ok()) {
    throw Error("variational step: the LGVI rotation solve failed for a body spinning at " +
                std::to_string(core::angularVelocityWorld(body.mass, from).norm()) +
                " rad/s, even in " + std::to_string(result.substeps) + " sub-steps (" +
                std::string(core::toString(result.rotation.status)) + ")");
  }
  last.fraction = fraction;  // field by field: no temporary BodyFlow of two states
  last.fewestSubsteps = fewestSubsteps;
  last.from = from;
  last.to = result.state;
  last.substeps = result.substeps;
  if (substeps != nullptr) *substeps = result.substeps;
  return result.state;
}

void VariationalStep::anchorAt(int index, const core::BodyState& state, double instant) {
  StepBody& body = m_bodies[index];
  body.anchor = state;
  body.anchorTime = instant;
  body.anchorSubsteps = 1;
  body.anchoring = ++m_anchorings;
  // The trial's sub-steps: a memo hit where the trial was just flowed from this state.
  if (!jointed(index)) flowBody(index, state, 1.0 - instant, 1, &body.anchorSubsteps);
}

void VariationalStep::catchUp(int index) const {
  StepBody& body = m_bodies[index];
  body.current = anchoredStateAt(index, m_now);
  body.behind = false;
}

core::BodyState VariationalStep::anchoredStateAt(int index, double instant) const {
  const StepBody& body = m_bodies[index];
  return flowBody(index, body.anchor, instant - body.anchorTime, body.anchorSubsteps);
}

detail::GroupStep VariationalStep::flowGroup(
    int g, double fraction, const std::function<const core::BodyState&(int)>& from) const {
  const detail::JointGroup& group = m_joints.groups[g];
  std::vector<core::BodyState> states;
  std::vector<core::ExternalLoad> loads;
  for (const int body : group.bodies) {
    states.push_back(from(body));
    loads.push_back(m_bodies[body].load);
  }
  // As a free body's flow (core::flowInSubsteps): where a step turns a body too far for its
  // rotation solve, or Newton's method on the joints does not converge, the step is taken in 2, 4,
  // … up to core::kMaxFlowSubsteps equal sub-steps of the same map.
  const auto flow = [&](const core::joints::JointedSystem& system,
                        const std::vector<core::BodyState>& begin, double h) {
    core::joints::JointedFlowResult result;
    int substeps = 1;
    for (; substeps <= core::kMaxFlowSubsteps; substeps *= 2) {
      detail::GroupStep step{begin, detail::JointImpulses(system.joints().size())};
      for (int i = 0; i < substeps; ++i) {
        result = core::joints::flow(system, step.states, h / substeps, loads);
        if (!result.ok()) break;
        // Λ at the sub-step's start, N at its end (jointed_flow.h (1), (4)).
        detail::addRowImpulses(system, step.states, result.startImpulse, step.impulses);
        detail::addRowImpulses(system, result.states, result.endImpulse, step.impulses);
        step.states = result.states;
      }
      if (result.ok()) return step;
    }
    std::ostringstream message;  // the residual in m or rad, which std::to_string shows as 0
    message << "variational step: the constrained LGVI of " << group.bodies.size()
            << " jointed bodies (" << system.joints().size() << " joints) did not converge in "
            << substeps / 2 << " sub-steps (" << core::toString(result.status) << ", residual "
            << std::setprecision(3) << result.residual << " after " << result.iterations
            << " Newton iterations)";
    throw Error(message.str());
  };
  // Joint stops (variational_limits.h) are struck inside the flow, wherever it is asked.
  return detail::flowWithStops(group.system, group.drives, states, fraction * m_timeStep, flow);
}

void VariationalStep::flowBodies(const std::vector<int>& bodies, double fraction,
                                 const std::function<const core::BodyState&(int)>& from,
                                 const std::function<void(int, const core::BodyState&)>& to,
                                 const GroupImpulses& impulses) {
  std::vector<bool> flowed(m_joints.groups.size(), false);
  for (const int body : bodies) {
    if (!jointed(body)) {
      to(body, flowBody(body, from(body), fraction));
      continue;
    }
    const int g = m_joints.groupOf[body];
    if (flowed[g]) continue;
    flowed[g] = true;
    const detail::GroupStep step = flowGroup(g, fraction, from);
    for (std::size_t i = 0; i < step.states.size(); ++i)
      to(m_joints.groups[g].bodies[i], step.states[i]);
    if (impulses) impulses(g, step.impulses);
  }
}

core::BodyState VariationalStep::probeBody(int index, double fraction) const {
  const auto now = [&](int body) -> const core::BodyState& { return stateNow(body); };
  if (!jointed(index)) return anchoredStateAt(index, m_now + fraction);
  const int g = m_joints.groupOf[index];
  const std::vector<int>& members = m_joints.groups[g].bodies;
  const auto at = [&](const std::vector<core::BodyState>& states) {
    return states[std::find(members.begin(), members.end(), index) - members.begin()];
  };
  std::vector<GroupProbe>& memo = m_groupProbes[g];
  for (const GroupProbe& probe : memo) {
    if (probe.fraction == fraction && std::equal(members.begin(), members.end(), probe.from.begin(),
                                                 [&](int body, const core::BodyState& from) {
                                                   return sameState(now(body), from);
                                                 }))
      return at(probe.to);
  }
  GroupProbe probe{fraction, {}, flowGroup(g, fraction, now).states};
  for (const int body : members)
    probe.from.push_back(now(body));
  if (memo.size() == kGroupProbesKept) memo.erase(memo.begin());
  memo.push_back(std::move(probe));
  return at(memo.back().to);
}

VariationalStep::JointedMotion VariationalStep::jointedMotion(int index, double tau) const {
  // The discrete flow keeps the energy to O(h²), not exactly: a quarter more, as closingBound's
  // rotation margin.
  constexpr double kEnergyMargin = 1.25;
  const detail::JointGroup& group = m_joints.groups[m_joints.groupOf[index]];
  const bool held = std::any_of(
      group.system.joints().begin(), group.system.joints().end(), [](const auto& joint) {
        return joint.a.body == core::joints::kWorld || joint.b.body == core::joints::kWorld;
      });
  double mass = 0, kinetic = 0;  // kg, J
  core::Vec3 momentum = core::Vec3::Zero(), load = core::Vec3::Zero();
  for (const int body : group.bodies) {
    const StepBody& b = m_bodies[body];
    mass += b.mass.mass();
    kinetic += core::energy(b.mass, stateNow(body), b.load.gravity).kinetic();
    momentum += stateNow(body).gamma;
    load += b.mass.mass() * b.load.gravity + b.load.force;
  }
  JointedMotion motion;
  if (!held) {
    motion.velocity = momentum / mass;
    motion.acceleration = load / mass;
    kinetic = std::max(0.0, kinetic - 0.5 * momentum.squaredNorm() / mass);
  }
  double power = 0;  // C of the bound (W/√J)
  for (const int body : group.bodies) {
    const StepBody& b = m_bodies[body];
    power += (b.mass.mass() * (b.load.gravity - motion.acceleration) + b.load.force).norm() /
                 std::sqrt(b.mass.mass()) +
             b.load.torque.norm() / std::sqrt(smallestPrincipalMoment(b.mass));
  }
  const StepBody& body = m_bodies[index];
  const double inverseMass =
      body.mass.inverseMass() - (held ? 0.0 : 1 / mass) + body.turningInverseMass;
  // ∫₀^τ √(2k) (√T'_0 + C t/√2) dt, the energy with its margin.
  motion.travel = std::sqrt(2 * kEnergyMargin * inverseMass) *
                  (std::sqrt(kinetic) * tau + power * tau * tau / (2 * std::sqrt(2.0)));
  return motion;
}

std::vector<int> VariationalStep::refreshTrials(const Island& island, double remaining) {
  std::vector<int> stale;
  for (const int body : island.bodies) {
    if (m_stale[body]) stale.push_back(body);
  }
  std::vector<int> refreshed;
  flowBodies(
      stale, remaining, [&](int body) -> const core::BodyState& { return stateNow(body); },
      [&](int body, const core::BodyState& state) {  // a stale body's joint group comes along
        const StepBody& moved = m_bodies[body];
        m_drift[body] += jointed(body) ? std::numeric_limits<double>::infinity()
                                       : pathDrift(m_trial[body], state, moved.reach,
                                                   smallestPrincipalMoment(moved.mass),
                                                   (1 - moved.anchorTime) * m_timeStep);
        m_trial[body] = state;
        anchorAt(body, stateNow(body), m_now);
        m_stale[body] = false;
        for (const int p : m_pairsOf[body]) {
          rescan(p);
          PairTrack& track = m_tracks[p];
          track.trialGapExact = false;
          track.trialGapBound.reset();
          track.vertexTrialGaps.clear();
          const CandidatePair& pair = m_pairs[p];
          const double drift = driftOf(pair.bodyA) + driftOf(pair.bodyB) - track.clearanceDrift;
          const bool clear =
              track.impactAt && std::isinf(*track.impactAt) && drift < track.clearance;
          if (!clear) track.impactAt.reset();
        }
        refreshed.push_back(body);
      },
      [&](int g, const detail::JointImpulses& impulses) {
        m_jointsTrial[g] = impulses;
        detail::addImpulses(m_jointsNow[g], m_jointsTrial[g]);
      });
  return refreshed;
}

void VariationalStep::findCandidatePairs() {
  m_indexOf.assign(static_cast<std::size_t>(m_world.getNumCollisionObjects()), kFixed);
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    m_indexOf[m_bodies[i].rigidBody->getWorldArrayIndex()] = static_cast<int>(i);
    // updateAabbs takes the union of the AABBs at the world and the interpolation transform
    // (digest §3.1): with the trial pose there, the AABB covers the whole step.
    m_bodies[i].rigidBody->setInterpolationWorldTransform(
        btTransform(toBt(m_trial[i].R), toBt(m_trial[i].x)));
  }
  m_world.updateAabbs();
  m_world.computeOverlappingPairs();
  m_stale.assign(m_bodies.size(), false);
  m_pairsOf.assign(m_bodies.size(), {});
  for (const StepBody& body : m_bodies) {
    const btBroadphaseProxy* proxy = body.rigidBody->getBroadphaseHandle();
    m_searched.emplace_back(proxy->m_aabbMin, proxy->m_aabbMax);
  }
  m_reached = m_searched;
  btOverlappingPairCache* cache = m_world.getBroadphase()->getOverlappingPairCache();
  // Each body's pair list sized by its overlaps first, rather than grown by doubling as addPair
  // appends (a compound's children may add more).
  std::vector<int> overlapsOf(m_bodies.size(), 0);
  for (int i = 0; i < cache->getNumOverlappingPairs(); ++i) {
    const btBroadphasePair& overlap = cache->getOverlappingPairArrayPtr()[i];
    for (const btBroadphaseProxy* proxy : {overlap.m_pProxy0, overlap.m_pProxy1}) {
      const int body = stepIndexOf(static_cast<const btCollisionObject*>(proxy->m_clientObject));
      if (body != kFixed) ++overlapsOf[body];
    }
  }
  for (std::size_t body = 0; body < m_bodies.size(); ++body)
    m_pairsOf[body].reserve(static_cast<std::size_t>(overlapsOf[body]));
  m_pairs.reserve(static_cast<std::size_t>(cache->getNumOverlappingPairs()));
  m_tracks.reserve(static_cast<std::size_t>(cache->getNumOverlappingPairs()));
  m_apartAllStep.reserve(static_cast<std::size_t>(cache->getNumOverlappingPairs()));
  for (int i = 0; i < cache->getNumOverlappingPairs(); ++i) {
    const btBroadphasePair& overlap = cache->getOverlappingPairArrayPtr()[i];
    addPair(static_cast<const btCollisionObject*>(overlap.m_pProxy0->m_clientObject),
            static_cast<const btCollisionObject*>(overlap.m_pProxy1->m_clientObject), false);
  }
}

int VariationalStep::stepIndexOf(const btCollisionObject* object) const {
  const int slot = object->getWorldArrayIndex();
  return slot >= 0 && slot < static_cast<int>(m_indexOf.size()) ? m_indexOf[slot] : kFixed;
}

void VariationalStep::findStartGap(int p) {
  CandidatePair& pair = m_pairs[p];
  PairTrack& track = m_tracks[p];
  const Gap start = gapAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  if (start.distance <= kContactTolerance) {
    pair.slack = kContactTolerance + std::max(0.0, -start.distance);
    rescan(p);
  }
  track.gapNow = start;  // the poses now: its island's next query reads it (gapNow)
  track.gapNowInstant = m_instant;
  track.startGapPending = false;
}

void VariationalStep::addPair(const btCollisionObject* a, const btCollisionObject* b,
                              bool startGapNow) {
  if (!m_world.getDispatcher()->needsResponse(a, b)) return;
  // Bodies a joint links with disableCollisionsBetweenLinkedBodies (or set to ignore each other),
  // as Bullet's dispatcher leaves them out (btCollisionDispatcher::needsCollision).
  if (!a->checkCollideWith(b) || !b->checkCollideWith(a)) return;
  const int bodyA = stepIndexOf(a), bodyB = stepIndexOf(b);
  if (bodyA == kFixed && bodyB == kFixed) return;
  const auto addChildren = [&](int childA, int childB) {
    CandidatePair pair{a, b, bodyA, bodyB, childA, childB, 0.0};
    pair.reversed = facesAway(pair);
    const int p = static_cast<int>(m_pairs.size());
    m_pairs.push_back(pair);
    m_tracks.emplace_back();
    m_apartAllStep.push_back(false);
    if (startGapNow) {
      findStartGap(p);
    } else {
      m_tracks.back().startGapPending = true;
    }
    for (const int body : {pair.bodyA, pair.bodyB}) {
      if (body != kFixed) m_pairsOf[body].push_back(p);
    }
  };
  // Two shapes taken whole (most pairs) need no child lists: a step adds every pair afresh.
  const auto whole = [](const btCollisionObject* object) {
    const btCollisionShape& shape = *object->getCollisionShape();
    return !shape.isCompound() && !isTriangleMesh(shape);
  };
  if (whole(a) && whole(b)) {
    addChildren(kWholeShape, kWholeShape);
    return;
  }
  for (const int childA : childrenToPair(a, b)) {
    for (const int childB : childrenToPair(b, a))
      addChildren(childA, childB);
  }
}

std::vector<int> VariationalStep::childrenToPair(const btCollisionObject* object,
                                                 const btCollisionObject* partner) {
  const btCollisionShape& shape = *object->getCollisionShape();
  if (!isTriangleMesh(shape)) return compoundChildrenOf(shape);
  const int body = stepIndexOf(partner);
  if (body == kFixed) return {};  // two immovable objects have no pair
  const auto& mesh = static_cast<const btConcaveShape&>(shape);
  const auto& [min, max] = m_searched[body];
  std::vector<int> children;
  for (const MeshTriangle& triangle : trianglesIn(mesh, object->getWorldTransform(), min, max)) {
    const std::vector<int>& known = m_pairsOf[body];
    const bool paired = std::any_of(known.begin(), known.end(), [&](int p) {
      const CandidatePair& pair = m_pairs[p];
      return (pair.a == object && pair.childA == triangle.number) ||
             (pair.b == object && pair.childB == triangle.number);
    });
    if (paired) continue;
    MeshChild& wound = m_triangles[{&shape, triangle.number, false}];
    if (!wound.shape) {
      wound.shape = std::make_unique<btTriangleShape>(triangleShapeOf(mesh, triangle));
      wound.neighbours = neighboursOf(mesh, triangle);
      MeshChild& turned = m_triangles[{&shape, triangle.number, true}];
      turned.shape = std::make_unique<btTriangleShape>(triangleShapeOf(mesh, triangle, true));
      turned.neighbours = wound.neighbours.reversed();
    }
    children.push_back(triangle.number);
  }
  return children;
}

bool VariationalStep::facesAway(const CandidatePair& pair) const {
  const bool meshA = pair.childA != kWholeShape && isTriangleMesh(*pair.a->getCollisionShape());
  const bool meshB = pair.childB != kWholeShape && isTriangleMesh(*pair.b->getCollisionShape());
  if (!meshA && !meshB) return false;
  const PairGeometry geometry =
      geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  const int mesh = meshA ? 0 : 1;
  const auto& triangle = static_cast<const btTriangleShape&>(*geometry.shape[mesh]);
  const btVector3 corner = geometry.frame[mesh] * triangle.m_vertices1[0];
  const btCollisionShape& body = *geometry.shape[1 - mesh];
  const btVector3 inside =
      body.isConvex()
          ? interiorPointOf(static_cast<const btConvexShape&>(body), geometry.frame[1 - mesh])
          : geometry.frame[1 - mesh].getOrigin();
  return faceNormalOf(triangle, geometry.frame[mesh]).dot(inside - corner) < 0;
}

void VariationalStep::findIslands(std::vector<Island>& islands) {
  DisjointSets joined(m_bodies.size());  // step bodies joined by pairs of two step bodies
  for (const CandidatePair& pair : m_pairs) {
    if (pair.bodyA != kFixed && pair.bodyB != kFixed && !pair.distant)
      joined.join(pair.bodyA, pair.bodyB);
  }
  for (const detail::JointGroup& group : m_joints.groups) {  // joints force one island
    for (const int body : group.bodies)
      joined.join(body, group.bodies.front());
  }
  std::size_t count = 0;  // islands found: `islands` keeps its lists' memory from the last step
  std::vector<int> islandOf(m_bodies.size(), -1);  // by root
  for (std::size_t p = 0; p < m_pairs.size(); ++p) {
    const CandidatePair& pair = m_pairs[p];
    if (pair.distant) continue;
    const int r = joined.root(pair.movingBody());
    if (islandOf[r] < 0) {
      islandOf[r] = static_cast<int>(count++);
      if (islands.size() < count) islands.emplace_back();
    }
    islands[islandOf[r]].pairs.push_back(static_cast<int>(p));
  }
  islands.resize(count);
  m_slot.assign(m_bodies.size(), -1);
  m_islandOf.assign(m_bodies.size(), -1);
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    const int island = islandOf[joined.root(static_cast<int>(i))];
    if (island < 0) continue;  // in no pair
    m_islandOf[i] = island;
    m_slot[i] = static_cast<int>(islands[island].bodies.size());
    islands[island].bodies.push_back(static_cast<int>(i));
  }
}

btTransform VariationalStep::poseAt(const btCollisionObject& object, const core::BodyState* state,
                                    double instant) const {
  if (state != nullptr) return btTransform(toBt(state->R), toBt(state->x));
  return unflowedPoseAt(object, instant, m_timeStep);
}

btTransform unflowedPoseAt(const btCollisionObject& object, double instant, double timeStep) {
  const btRigidBody* body = btRigidBody::upcast(&object);
  if (body == nullptr || !body->isKinematicObject() || instant >= 1)
    return object.getWorldTransform();
  btTransform pose;
  btTransformUtil::integrateTransform(object.getWorldTransform(), body->getLinearVelocity(),
                                      body->getAngularVelocity(), (instant - 1) * timeStep, pose);
  return pose;
}

PairGeometry VariationalStep::geometryAt(const CandidatePair& pair, const core::BodyState* a,
                                         const core::BodyState* b, double instant) const {
  PairGeometry geometry{{pair.a->getCollisionShape(), pair.b->getCollisionShape()},
                        {poseAt(*pair.a, a, instant), poseAt(*pair.b, b, instant)}};
  geometry.witness = &pair.witness;
  const int children[2] = {pair.childA, pair.childB};
  for (int side = 0; side < 2; ++side) {
    if (children[side] == kWholeShape) continue;
    if (isTriangleMesh(*geometry.shape[side])) {  // a triangle, in the mesh's frame
      const MeshChild& child =
          m_triangles.at({geometry.shape[side], children[side], pair.reversed});
      geometry.shape[side] = child.shape.get();
      geometry.neighbours[side] = &child.neighbours;
      geometry.solidBehind[side] = true;
      continue;
    }
    const auto* compound = static_cast<const btCompoundShape*>(geometry.shape[side]);
    geometry.shape[side] = compound->getChildShape(children[side]);
    geometry.frame[side] = geometry.frame[side] * compound->getChildTransform(children[side]);
  }
  // A box meets a triangle with sharp corners (sharpBox): its gap, and the triangle's vertex gaps
  // to it, which would otherwise see its edges rounded.
  for (int side = 0; side < 2; ++side) {
    if (geometry.shape[side]->getShapeType() != BOX_SHAPE_PROXYTYPE ||
        geometry.shape[1 - side]->getShapeType() != TRIANGLE_SHAPE_PROXYTYPE)
      continue;
    const auto* box = static_cast<const btBoxShape*>(geometry.shape[side]);
    std::unique_ptr<btBoxShape>& sharp = m_sharpBoxes[box];
    if (!sharp) sharp = std::make_unique<btBoxShape>(sharpBox(*box));
    geometry.shape[side] = sharp.get();
  }
  return geometry;
}

Gap VariationalStep::gapAt(const CandidatePair& pair, const core::BodyState* a,
                           const core::BodyState* b, double instant) const {
  ++m_gapQueries;
  // Two whole spheres of step bodies: from their centres, without their poses' frames (most of the
  // elastic balls' queries).
  const btCollisionShape& shapeA = *pair.a->getCollisionShape();
  const btCollisionShape& shapeB = *pair.b->getCollisionShape();
  if (a != nullptr && b != nullptr && shapeA.getShapeType() == SPHERE_SHAPE_PROXYTYPE &&
      shapeB.getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
    return sphereSphereGap(toBt(a->x), static_cast<const btSphereShape&>(shapeA).getRadius(),
                           toBt(b->x), static_cast<const btSphereShape&>(shapeB).getRadius());
  }
  return gapOf(geometryAt(pair, a, b, instant));
}

const Gap& VariationalStep::gapNow(int p) {
  PairTrack& track = m_tracks[p];
  if (!knowsGapNow(track)) {
    const CandidatePair& pair = m_pairs[p];
    track.gapNow = gapAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
    track.gapNowInstant = m_instant;
    track.lastGap = track.gapNow->distance;
    posesOf(pair, &VariationalStep::currentOf, track.lastGapPoses);
    track.lastGapAt = m_now;
    track.lastGapAnchorings = m_anchorings;
  }
  return *track.gapNow;
}

void VariationalStep::posesOf(const CandidatePair& pair, StateOf stateOf, Pose poses[2]) const {
  const int bodies[2] = {pair.bodyA, pair.bodyB};
  for (int side = 0; side < 2; ++side) {
    if (const core::BodyState* state = (this->*stateOf)(bodies[side]))
      poses[side] = {state->x, state->R};
  }
}

double VariationalStep::travelFrom(const Pose& then, int index, StateOf stateOf) const {
  const core::BodyState* now = (this->*stateOf)(index);
  if (now == nullptr) return 0;
  return travelBound(then.x, then.R, now->x, now->R, m_bodies[index].reach);
}

double VariationalStep::gapLessMotion(double gap, const CandidatePair& pair, const Pose then[2],
                                      StateOf stateOf) const {
  const int bodies[2] = {pair.bodyA, pair.bodyB};
  for (int side = 0; side < 2; ++side)
    gap -= travelFrom(then[side], bodies[side], stateOf);
  return gap;
}

double VariationalStep::gapNowAtLeast(int p) const {
  const PairTrack& track = m_tracks[p];
  if (knowsGapNow(track)) return track.gapNow->distance;
  if (!track.lastGap) return -std::numeric_limits<double>::infinity();
  const CandidatePair& pair = m_pairs[p];
  double gap = *track.lastGap;
  const int bodies[2] = {pair.bodyA, pair.bodyB};
  for (int side = 0; side < 2; ++side) {
    const int index = bodies[side];
    if (index == kFixed) continue;
    const StepBody& body = m_bodies[index];
    const double travel = body.behind && body.anchoring <= track.lastGapAnchorings
                              ? flowTravelBound(index, track.lastGapAt, m_now)
                              : std::numeric_limits<double>::infinity();
    gap -= std::isfinite(travel)
               ? travel
               : travelFrom(track.lastGapPoses[side], index, &VariationalStep::currentOf);
  }
  return gap;
}

double anchoredTravelBound(const StepBody& body, double tau0, double tau1) {
  // The centres' difference of two flows is computed by neither: kRound covers their round-off.
  constexpr double kRound = 1e-12;
  const core::Vec3 centre = (tau1 - tau0) * body.mass.inverseMass() * body.anchor.gamma +
                            (0.5 * (tau1 * tau1 - tau0 * tau0)) * body.loadAcceleration();
  const double move = (1 + kRound) * centre.norm() + kRound * (body.anchor.x.norm() + 1);
  if (body.rotationLocked) return move;
  const double rate =  // rad/s, at most
      (body.anchor.Pi.norm() + body.load.torque.norm() * tau1) / smallestPrincipalMoment(body.mass);
  if (rate * tau1 > kMostFlowTurn) return std::numeric_limits<double>::infinity();
  return move + kRotationMargin * rate * (tau1 - tau0) * body.reach;
}

double VariationalStep::flowTravelBound(int index, double from, double to) const {
  const StepBody& body = m_bodies[index];
  return anchoredTravelBound(body, (from - body.anchorTime) * m_timeStep,
                             (to - body.anchorTime) * m_timeStep);
}

VariationalStep::Momentum VariationalStep::momentumNow(int index) const {
  const StepBody& body = m_bodies[index];
  if (!body.behind) {
    const core::BodyState& now = stateNow(index);
    return {now.gamma, now.Pi.norm()};
  }
  const double since = (m_now - body.anchorTime) * m_timeStep;  // s
  return {body.anchor.gamma + since * body.mass.mass() * body.loadAcceleration(),
          body.anchor.Pi.norm() + body.load.torque.norm() * since};
}

double VariationalStep::closingBound(int p, double fraction) const {
  const CandidatePair& pair = m_pairs[p];
  const double tau = fraction * m_timeStep;
  core::Vec3 velocity = core::Vec3::Zero(), acceleration = core::Vec3::Zero();
  double turning = 0;  // m: the bodies' points' largest travel from turning
  for (int side = 0; side < 2; ++side) {
    const int index = side == 0 ? pair.bodyA : pair.bodyB;
    const double sign = side == 0 ? 1.0 : -1.0;
    if (index == kFixed) {
      const btRigidBody* body = btRigidBody::upcast(side == 0 ? pair.a : pair.b);
      if (body != nullptr && body->isKinematicObject())
        return std::numeric_limits<double>::infinity();
      continue;  // static or sleeping: it stays where it is
    }
    if (jointed(index)) {  // the joints' forces are no load: bounded by the group's energy
      const JointedMotion motion = jointedMotion(index, tau);
      velocity += sign * motion.velocity;
      acceleration += sign * motion.acceleration;
      turning += motion.travel;
      continue;
    }
    const StepBody& body = m_bodies[index];
    const double inverseMass = body.mass.inverseMass();
    const Momentum now = momentumNow(index);
    velocity += sign * inverseMass * now.linear;
    acceleration += sign * body.loadAcceleration();
    if (body.rotationLocked) continue;
    const double momentum = now.angularAtMost + body.load.torque.norm() * tau;
    turning += kRotationMargin * momentum / smallestPrincipalMoment(body.mass) * tau * body.reach;
  }
  return velocity.norm() * tau + 0.5 * acceleration.norm() * tau * tau + turning;
}

bool DistinctContacts::add(const PairContact& contact) {
  if (contact.pair.childA == kWholeShape && contact.pair.childB == kWholeShape) return true;
  constexpr double kSameNormal = 1e-9;  // 1 − cos of the angle between the normals
  const bool repeats = std::any_of(m_kept.begin(), m_kept.end(), [&](const PairContact& other) {
    // Pairs of the same objects may list them in either order, their normals then opposite.
    const bool same = contact.pair.a == other.pair.a && contact.pair.b == other.pair.b;
    const bool swapped = contact.pair.a == other.pair.b && contact.pair.b == other.pair.a;
    if (!same && !swapped) return false;
    const double alignment = contact.normal.dot(other.normal);
    return (contact.point - other.point).norm() <= kSamePoint &&
           (same ? alignment : -alignment) >= 1 - kSameNormal;
  });
  if (!repeats) m_kept.push_back(contact);
  return !repeats;
}

std::vector<PairContact> VariationalStep::contactsNow(int p, double reach) {
  const CandidatePair& pair = m_pairs[p];
  const PairGeometry geometry =
      geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  const Gap& g = gapNow(p);
  const core::Vec3 normal = -toEigen(g.normal);  // the core's: from A into B
  const std::vector<PairPoint> points = pairContacts(geometry, g, reach, m_holdingReach);
  std::vector<PairContact> contacts;
  contacts.reserve(points.size());
  for (const PairPoint& contact : points)
    contacts.push_back(
        {pair, toEigen(contact.point), normal, contact.feature, std::max(0.0, contact.gap)});
  return contacts;
}

std::optional<PairContact> VariationalStep::witnessBeyond(
    int p, const std::vector<PairContact>& contacts) {
  const Gap& g = gapNow(p);
  std::vector<btVector3> points;
  for (const PairContact& contact : contacts)
    points.push_back(toBt(contact.point));
  const std::optional<PairPoint> witness = carom::witnessBeyond(g, points, m_holdingReach);
  if (!witness) return std::nullopt;
  return PairContact{m_pairs[p], toEigen(witness->point), -toEigen(g.normal), witness->feature,
                     std::max(0.0, witness->gap)};
}

void VariationalStep::markTouching(int p, double distance,
                                   const std::vector<PairContact>& touching) {
  // Its contacts sit at zero gap, and its gap is found again at once if it closes by round-off: a
  // smooth pair too, whose gap after an impact can close again within the step (a tumbling
  // cylinder struck on its rim, turned back down by its spin). Without slack, the search from the
  // impact's root would find it again at that instant (Φ ≈ 1e-17 m there, below zero a round-off
  // later), as a graze, until it goes quiet and sinks for the rest of the step. Polyhedra touch at
  // vertices or face crossings.
  m_pairs[p].slack = kContactTolerance + std::max(0.0, -distance);
  rescan(p);
  const bool vertices =
      std::any_of(touching.begin(), touching.end(),
                  [](const PairContact& contact) { return contact.feature != -1; });
  m_tracks[p].touched = m_tracks[p].touched || vertices;
  m_tracks[p].impactAt.reset();
}

double VariationalStep::trialGapAtLeast(int p) {
  const CandidatePair& pair = m_pairs[p];
  PairTrack& track = m_tracks[p];
  if (track.trialGap && track.trialGapExact) return *track.trialGap;
  if (track.trialGap) {
    if (!track.trialGapBound) {
      track.trialGapBound =
          gapLessMotion(*track.trialGap, pair, track.trialGapPoses, &VariationalStep::trialOf);
    }
    if (*track.trialGapBound + pair.slack >= kContactTolerance) return *track.trialGapBound;
  }
  track.trialGap = gapAt(pair, trialOf(pair.bodyA), trialOf(pair.bodyB), 1.0).distance;
  track.trialGapExact = true;
  posesOf(pair, &VariationalStep::trialOf, track.trialGapPoses);
  return *track.trialGap;
}

double VariationalStep::earliestImpact(const Island& island, double elapsed) {
  const double remaining = 1.0 - elapsed;
  double earliest = std::numeric_limits<double>::infinity();
  m_nextPair = -1;
  const auto consider = [&](int p, double alpha) {
    if (alpha < earliest) {
      earliest = alpha;
      m_nextPair = p;
    }
  };
  // Closing pairs whose instant is not known, with where the straight line from their gap now (or a
  // lower bound of it, gapNowAtLeast) to their trial gap crosses zero: located in that order, so
  // that the first gives an early cap.
  struct Unlocated {
    double estimate;
    int p;
    double phiAtLeast, phiTrial;
    double slack;
  };
  std::vector<Unlocated> unlocated;
  std::vector<std::pair<int, double>> near;  // unsearched near pairs still apart, and their slacks
  // A pair's Φ now at least: the lower bound where it is not below zero, else its exact value.
  const auto phiNowAtLeast = [&](int p, double slack) {
    const double phi = gapNowAtLeast(p) + slack;
    return phi < 0 ? gapNow(p).distance + slack : phi;
  };
  for (const int p : island.pairs) {
    // A pair's trial gap and impact instant change only when one of its bodies has been struck or
    // held since they were found (refreshTrials), or the pair has touched (markTouching), or the
    // instant has come (runIsland): the others' still hold, and one apart for the rest of the step
    // has nothing to give.
    if (m_apartAllStep[p]) continue;
    const CandidatePair& pair = m_pairs[p];
    PairTrack& track = m_tracks[p];
    const double trialGap = trialGapAtLeast(p);
    track.closing = trialGap + pair.slack < 0;
    // A quiet pair counts again below its floor, a larger slack than its own (trialGapAtLeast's
    // bound, exact where the pair's own slack leaves it closing, holds for it too).
    const double slack = track.quiet ? std::max(pair.slack, -track.quietFloor) : pair.slack;
    const double phiTrial = trialGap + slack;
    if (!track.impactAt && !(phiTrial < 0)) {
      const std::optional<double> swept = sweptImpact(p, slack, phiTrial, remaining);
      track.swept = swept.has_value();
      track.impactAt = swept ? elapsed + *swept : std::numeric_limits<double>::infinity();
    }
    // Apart at its trial poses and too near for the swept search when it was asked: closer than its
    // slack now, it has dipped inside the step, and is resolved now, as a closing pair would be.
    if (track.nearUnsearched && track.impactAt && std::isinf(*track.impactAt)) {
      if (phiNowAtLeast(p, slack) < 0)
        track.impactAt = elapsed;
      else
        near.emplace_back(p, slack);
    }
    if (track.impactAt) {
      consider(p, std::max(0.0, *track.impactAt - elapsed));
      m_apartAllStep[p] = std::isinf(*track.impactAt) && !track.nearUnsearched;
      continue;
    }
    const double phiAtLeast = phiNowAtLeast(p, slack);
    if (phiAtLeast < 0) {  // already closer than its slack: resolved now
      track.impactAt = elapsed;
      consider(p, 0);
      continue;
    }
    unlocated.push_back(
        {remaining * phiAtLeast / (phiAtLeast - phiTrial), p, phiAtLeast, phiTrial, slack});
  }
  std::stable_sort(unlocated.begin(), unlocated.end(),
                   [](const Unlocated& a, const Unlocated& b) { return a.estimate < b.estimate; });
  for (const Unlocated& u : unlocated) {
    // Apart at the cap by more than the pair can close until then: not the next impact, found
    // again after it. Asked first of the lower bound, then of the gap now, before any probe.
    const double reach = earliest < remaining ? closingBound(u.p, earliest)
                                              : std::numeric_limits<double>::infinity();
    if (u.phiAtLeast > reach) continue;
    const double phiNow = gapNow(u.p).distance + u.slack;
    if (phiNow > reach) continue;
    const CandidatePair& pair = m_pairs[u.p];
    const std::optional<double> alpha = locateImpactBefore(
        pair, phiNow, remaining, u.phiTrial, earliest,
        [&](const PairGeometry& g) { return gapOf(g).distance + u.slack; }, u.slack);
    if (!alpha) continue;  // not before the earliest: found again after it
    m_tracks[u.p].impactAt = elapsed + *alpha;
    consider(u.p, *alpha);
  }
  // A vertex's impact depends on which vertices touch now, which changes as the step goes on:
  // found afresh each time.
  for (const int p : island.pairs) {
    if (m_tracks[p].touched && !m_tracks[p].quiet)
      consider(p, earliestVertexImpact(p, remaining, earliest));
  }
  // With no other event in the island, the near pairs' paths to the end of the step (with one,
  // each is asked at that event).
  if (earliest < remaining) return earliest;
  for (const auto& [p, slack] : near) {
    const std::optional<double> alpha = nearDip(p, slack, remaining);
    if (!alpha) continue;
    m_tracks[p].impactAt = elapsed + *alpha;
    consider(p, *alpha);
  }
  return earliest;
}

const std::vector<double>& VariationalStep::vertexTrialGapsOf(int p) {
  // The vertices' gaps at the trial poses hold as long as the pair's trial gap (refreshTrials).
  std::vector<double>& trialGaps = m_tracks[p].vertexTrialGaps;
  if (trialGaps.empty()) {
    const CandidatePair& pair = m_pairs[p];
    const PairGeometry trial = geometryAt(pair, trialOf(pair.bodyA), trialOf(pair.bodyB), 1.0);
    std::optional<btVector3> trialNormal;  // the pair's there, where a vertex needs it
    for (int side = 0; side < 2; ++side) {
      const btPolyhedralConvexShape* polyhedron = vertexPolyhedronOf(trial, side);
      if (polyhedron == nullptr) continue;
      const bool smoothOther = hasFlatFeatures(*trial.shape[1 - side]);
      // Against any shape but a box, whose vertex gaps are closed-form, each vertex's gap is a
      // point query: first bounded from below along the pair's normal (vertexGapAtLeast), and
      // only the vertices that bound leaves sinking queried (their sign is all that the searches
      // read of an open vertex).
      const bool bounded = trial.shape[1 - side]->getShapeType() != BOX_SHAPE_PROXYTYPE;
      if ((smoothOther || bounded) && !trialNormal) trialNormal = gapOf(trial).normal;
      btVector3 axis(0, 0, 1);  // from the other shape towards this side's vertices
      std::optional<double> otherExtent;
      if (bounded && std::abs(trialNormal->length2() - 1) <= 1e-9) {  // a unit normal: a bound
        axis = side == 0 ? *trialNormal : -*trialNormal;
        otherExtent = otherExtentAlong(trial, side, axis);
      }
      for (int i = 0; i < polyhedron->getNumVertices(); ++i) {
        const double atLeast = otherExtent ? vertexGapAtLeast(trial, side, i, axis, *otherExtent)
                                           : -std::numeric_limits<double>::infinity();
        if (atLeast >= 0) {
          trialGaps.push_back(atLeast);
          continue;
        }
        // A vertex the other shape curves away from does not sink (vertexFacesAlong); asked only
        // of one that would, since an open vertex is skipped either way.
        const double gap = vertexGap(trial, side, i);
        const bool facing =
            gap >= 0 || !smoothOther || vertexFacesAlong(trial, side, i, *trialNormal);
        trialGaps.push_back(facing ? gap : std::numeric_limits<double>::infinity());
      }
    }
  }
  return trialGaps;
}

void VariationalStep::addSinkingVertices(int p, std::vector<PairContact>& contacts) {
  const CandidatePair& pair = m_pairs[p];
  const PairGeometry now = geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  const std::vector<double>& trialGaps = vertexTrialGapsOf(p);
  const btVector3& awayFromB = gapNow(p).normal;
  const core::Vec3 normal = -toEigen(awayFromB);  // the core's: from A into B
  std::size_t next = 0;                           // the vertex's place in trialGaps
  for (int side = 0; side < 2; ++side) {
    const btPolyhedralConvexShape* polyhedron = vertexPolyhedronOf(now, side);
    for (int i = 0; polyhedron != nullptr && i < polyhedron->getNumVertices(); ++i) {
      if (trialGaps[next++] >= 0) continue;
      // Under a smooth shape's flat patch at the trial poses, a vertex it curves away from now
      // (its line of contact rolls over it within the step) is held by its patch's corners.
      if (!vertexFacesAlong(now, side, i, awayFromB)) continue;
      const btVector3 away = side == 0 ? awayFromB : -awayFromB;
      const core::Vec3 point = toEigen(surfaceVertexAt(now, side, i, away));
      if (!listedAt(contacts, point)) {
        contacts.push_back(
            {pair, point, normal, vertexFeature(side, i), std::max(0.0, vertexGap(now, side, i))});
      }
    }
  }
}

double VariationalStep::earliestVertexImpact(int p, double remaining, double cap) {
  // Located half the contact tolerance inside touching (vertexGap ≤ 0), where contactsNow lists the
  // vertex: only a vertex its trial poses sink in that far can strike within the step.
  const auto phiTrialOf = [](double trialGap) { return trialGap + 0.5 * kContactTolerance; };
  const std::vector<double>& trialGaps = vertexTrialGapsOf(p);
  if (std::all_of(trialGaps.begin(), trialGaps.end(),
                  [&](double trialGap) { return phiTrialOf(trialGap) >= 0; }))
    return cap;
  const CandidatePair& pair = m_pairs[p];
  const PairGeometry now = geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  double earliest = cap;
  // A vertex apart now by more than the pair can close before the cap cannot strike before it.
  const double closing =
      cap < remaining ? closingBound(p, cap) : std::numeric_limits<double>::infinity();
  std::size_t next = 0;  // the vertex's place in trialGaps
  for (int side = 0; side < 2; ++side) {
    const btPolyhedralConvexShape* polyhedron = vertexPolyhedronOf(now, side);
    for (int i = 0; polyhedron != nullptr && i < polyhedron->getNumVertices(); ++i) {
      // A vertex touching now has been held, struck or grazed just now.
      const double phiTrial = phiTrialOf(trialGaps[next++]);
      if (phiTrial >= 0) continue;
      const double gapNow = vertexGap(now, side, i);
      if (gapNow <= 0) continue;
      const double phiNow = gapNow + 0.5 * kContactTolerance;
      if (phiNow > closing) continue;
      const std::optional<double> alpha = locateImpactBefore(
          pair, phiNow, remaining, phiTrial, earliest,
          [&](const PairGeometry& g) { return vertexGap(g, side, i) + 0.5 * kContactTolerance; });
      if (alpha) earliest = *alpha;
    }
  }
  return earliest;
}

std::optional<double> VariationalStep::locateImpactBefore(
    const CandidatePair& pair, double phiNow, double remaining, double phiTrial, double cap,
    const std::function<double(const PairGeometry&)>& phiOf, std::optional<double> slack) const {
  if (const std::optional<double> alpha =
          slack ? sphereImpact(pair, *slack, remaining) : std::nullopt) {
    if (cap < remaining && *alpha >= cap) return std::nullopt;  // still open at the cap
    return alpha;
  }
  // Each probe: the pair's bodies flowed F̃[αh] from the current instant, then one gap query.
  core::BodyState probeA, probeB;
  const auto phiAt = [&](double alpha) {
    ++m_probes;
    return phiOf(geometryAt(pair, probedAt(pair.bodyA, alpha, probeA),
                            probedAt(pair.bodyB, alpha, probeB), m_now + alpha));
  };
  double end = remaining;
  double phiEnd = phiTrial;
  if (cap < remaining) {
    // One probe at the cap instead of a root search: still open there, the pair cannot be first.
    const double phiCap = phiAt(cap);
    if (phiCap >= 0) return std::nullopt;
    end = cap;
    phiEnd = phiCap;
  }
  return locateInstant(phiAt, 0, phiNow, end, phiEnd);
}

double VariationalStep::locateInstant(const std::function<double(double)>& phiAt, double lo,
                                      double phiLo, double hi, double phiHi) {
  core::RootSettings settings;
  settings.gapTolerance = kLocatedGap;
  const core::RootResult root = core::locateRoot(phiAt, lo, phiLo, hi, phiHi, settings);
  if (root.status != core::RootStatus::kConverged) {
    throw Error("variational step: impact-time search failed (" +
                std::string(core::toString(root.status)) + ")");
  }
  return root.alpha;
}

}  // namespace carom
