// The variational step of carom::DynamicsWorld, stage by stage (ARCHITECTURE.md "One step"):
//   1 readBodies               active dynamic bodies → double-precision (x, R, γ, Π)
//   2 flowAll                  LGVI flow F̃[h] of every body (Tran & Leok (5.9))
//   3 findCandidatePairs       Bullet's broadphase with AABBs swept to the trial poses
//   5 holdRestingContacts      resting/sliding contacts: velocity-level LCP, applied as two half
//                              impulses around the flow (kick–flow–kick keeps a resting body
//                              still); at the start of the step, and after a landing inside it
//   4 impact loop              earliest impact on the signed gap (core::locateRoot, each probe an
//                              LGVI sub-step plus a gap query), all bodies advanced to it, the
//                              contacts resolved, repeated for the rest of the step (Tran & Leok
//                              Algorithm 5.2, generalised to many bodies), at most
//                              solver.maxEventsPerStep times
//   6 writeBodies              poses and velocities back to Bullet
#include "variational_step.h"

#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionShapes/btPolyhedralConvexShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "bt_eigen.h"
#include "carom/core/event.h"
#include "carom/error.h"

namespace carom {

using detail::toBt;
using detail::toEigen;

namespace {

btTransform transformOf(const btCollisionObject& object, const core::BodyState* state) {
  return state != nullptr ? btTransform(toBt(state->R), toBt(state->x))
                          : object.getWorldTransform();
}

const core::BodyState* stateOf(int index, const std::vector<core::BodyState>& states) {
  return index == kFixed ? nullptr : &states[index];
}

// How far a polyhedron's sharp vertex may lie from `shape` and still touch it (m). Bullet's gap
// counts a polyhedron's margin as part of it, rounding its edges and corners: a box's corner stands
// margin·(√3 − 1) off the rounded surface, so two stacked boxes' corners, which touch, would
// otherwise seem apart.
double vertexAllowance(const btCollisionShape& shape) {
  const bool polyhedral = dynamic_cast<const btPolyhedralConvexShape*>(&shape) != nullptr;
  return kContactTolerance + (polyhedral ? (std::sqrt(3.0) - 1) * shape.getMargin() : 0.0);
}

// Vertices of a polyhedral shape (a box, a convex hull) that touch the other shape near the
// witness point: within kContactTolerance of it along `away` (unit, world, pointing away from the
// other shape) and within vertexAllowance of the other shape itself. These are the contact points
// of a face or edge contact, where a single witness point would leave the face free to tip; the
// second test keeps out the vertices of a large face (a wall) that lie in the contact plane far
// from where the other shape touches it.
void addVertexContacts(const btCollisionShape& shape, const btTransform& frame,
                       const btCollisionShape& other, const btTransform& otherFrame,
                       const btVector3& away, const btVector3& witness, const CandidatePair& pair,
                       const core::Vec3& normal, std::vector<PairContact>& out) {
  const auto* polyhedron = dynamic_cast<const btPolyhedralConvexShape*>(&shape);
  if (polyhedron == nullptr) return;
  const btSphereShape point(0);
  const double allowance = vertexAllowance(other);
  for (int i = 0; i < polyhedron->getNumVertices(); ++i) {
    btVector3 vertex;
    polyhedron->getVertex(i, vertex);
    const btVector3 world = frame * vertex;
    if (away.dot(world - witness) > kContactTolerance) continue;
    const btTransform at(btMatrix3x3::getIdentity(), world);
    if (gap(point, at, other, otherFrame).distance <= allowance) {
      out.push_back({pair, toEigen(world), normal, i});
    }
  }
}

}  // namespace

VariationalStep::VariationalStep(DynamicsWorld& world, double timeStep)
    : m_world(world), m_timeStep(timeStep) {}

StepDiagnostics VariationalStep::run() {
  readBodies();
  findCandidatePairs(flowAll(1.0));
  holdRestingContacts(1.0);
  double elapsed = 0;  // α_Σ: the fraction of the step already taken
  while (true) {
    const double remaining = 1.0 - elapsed;
    std::vector<core::BodyState> trial = flowAll(remaining);
    const double alpha = earliestImpact(trial, remaining);
    const bool freeFlight = !(alpha < remaining);
    if (!freeFlight && m_diagnostics.impacts >= m_world.getConfig().solver.maxEventsPerStep) {
      m_diagnostics.eventLimitReached = true;
      m_diagnostics.message =
          "solver.maxEventsPerStep (" + std::to_string(m_diagnostics.impacts) +
          ") impacts in the step at t = " + std::to_string(m_world.m_simulatedTime) +
          " s; the rest of the step was taken without impacts";
    }
    if (freeFlight || m_diagnostics.eventLimitReached) {
      for (std::size_t i = 0; i < m_bodies.size(); ++i)
        m_bodies[i].state = trial[i];
      break;
    }
    const std::vector<core::BodyState> atImpact = flowAll(alpha);
    for (std::size_t i = 0; i < m_bodies.size(); ++i)
      m_bodies[i].state = atImpact[i];
    elapsed += alpha;
    // A landing below the resting speed would otherwise start a Zeno sequence of ever smaller
    // bounces inside the step: its contacts are held for the rest of the step instead.
    if (resolveImpact(elapsed)) holdRestingContacts(1.0 - elapsed);
    ++m_diagnostics.impacts;
  }
  applyPersistentEnd();
  writeBodies();
  return m_diagnostics;
}

core::BodyState VariationalStep::flowBody(int index, const core::BodyState& from,
                                          double fraction) const {
  const StepBody& body = m_bodies[index];
  const core::FlowResult result = core::flow(body.mass, from, fraction * m_timeStep, body.load);
  if (!result.ok()) {
    throw Error("variational step: the LGVI rotation solve failed for a body (" +
                std::string(core::toString(result.rotation.status)) + ")");
  }
  return result.state;
}

std::vector<core::BodyState> VariationalStep::flowAll(double fraction) const {
  std::vector<core::BodyState> states;
  states.reserve(m_bodies.size());
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    states.push_back(flowBody(static_cast<int>(i), m_bodies[i].state, fraction));
  }
  return states;
}

void VariationalStep::findCandidatePairs(const std::vector<core::BodyState>& trial) {
  std::unordered_map<const btCollisionObject*, int> indexOf;
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    indexOf[m_bodies[i].rigidBody] = static_cast<int>(i);
    // updateAabbs takes the union of the AABBs at the world and the interpolation transform
    // (digest §3.1): with the trial pose there, the AABB covers the whole step.
    m_bodies[i].rigidBody->setInterpolationWorldTransform(
        btTransform(toBt(trial[i].R), toBt(trial[i].x)));
  }
  m_world.updateAabbs();
  m_world.computeOverlappingPairs();
  std::vector<core::BodyState> current;
  for (const StepBody& body : m_bodies)
    current.push_back(body.state);
  btOverlappingPairCache* cache = m_world.getBroadphase()->getOverlappingPairCache();
  btDispatcher* dispatcher = m_world.getDispatcher();
  for (int i = 0; i < cache->getNumOverlappingPairs(); ++i) {
    const btBroadphasePair& overlap = cache->getOverlappingPairArrayPtr()[i];
    const auto* a = static_cast<const btCollisionObject*>(overlap.m_pProxy0->m_clientObject);
    const auto* b = static_cast<const btCollisionObject*>(overlap.m_pProxy1->m_clientObject);
    if (!dispatcher->needsResponse(a, b)) continue;
    const auto foundA = indexOf.find(a);
    const auto foundB = indexOf.find(b);
    CandidatePair pair{a, b, foundA == indexOf.end() ? kFixed : foundA->second,
                       foundB == indexOf.end() ? kFixed : foundB->second, 0.0};
    if (pair.bodyA == kFixed && pair.bodyB == kFixed) continue;
    const double start = gapOf(pair, current).distance;
    if (start <= kContactTolerance) pair.slack = kContactTolerance + std::max(0.0, -start);
    m_pairs.push_back(pair);
  }
}

Gap VariationalStep::gapOf(const CandidatePair& pair,
                           const std::vector<core::BodyState>& states) const {
  return gap(*pair.a->getCollisionShape(), transformOf(*pair.a, stateOf(pair.bodyA, states)),
             *pair.b->getCollisionShape(), transformOf(*pair.b, stateOf(pair.bodyB, states)));
}

std::vector<PairContact> VariationalStep::contactsOf(
    const CandidatePair& pair, const std::vector<core::BodyState>& states) const {
  const btTransform frameA = transformOf(*pair.a, stateOf(pair.bodyA, states));
  const btTransform frameB = transformOf(*pair.b, stateOf(pair.bodyB, states));
  const btCollisionShape& shapeA = *pair.a->getCollisionShape();
  const btCollisionShape& shapeB = *pair.b->getCollisionShape();
  const Gap g = gap(shapeA, frameA, shapeB, frameB);
  const core::Vec3 normal = -toEigen(g.normal);  // the core's: from A into B
  std::vector<PairContact> contacts;
  addVertexContacts(shapeA, frameA, shapeB, frameB, g.normal, g.pointOnA, pair, normal, contacts);
  addVertexContacts(shapeB, frameB, shapeA, frameA, -g.normal, g.pointOnB, pair, normal, contacts);
  if (contacts.empty()) {
    contacts.push_back({pair, toEigen(0.5 * (g.pointOnA + g.pointOnB)), normal, -1});
  }
  return contacts;
}

double VariationalStep::earliestImpact(const std::vector<core::BodyState>& trial,
                                       double remaining) const {
  std::vector<core::BodyState> current;
  for (const StepBody& body : m_bodies)
    current.push_back(body.state);
  double earliest = std::numeric_limits<double>::infinity();
  for (const CandidatePair& pair : m_pairs) {
    const double phiTrial = gapOf(pair, trial).distance + pair.slack;
    if (phiTrial >= 0) continue;
    const double phiNow = gapOf(pair, current).distance + pair.slack;
    if (phiNow < 0) return 0;  // already closer than its slack: resolve now
    // Each probe: the pair's bodies flowed F̃[αh] from the current instant, then one gap query.
    std::vector<core::BodyState> probe = current;
    const auto phiAt = [&](double alpha) {
      for (int index : {pair.bodyA, pair.bodyB}) {
        if (index != kFixed) probe[index] = flowBody(index, current[index], alpha);
      }
      return gapOf(pair, probe).distance + pair.slack;
    };
    const core::RootResult root = core::locateRoot(phiAt, 0, phiNow, remaining, phiTrial);
    if (root.status != core::RootStatus::kConverged) {
      throw Error("variational step: impact-time search failed (" +
                  std::string(core::toString(root.status)) + ")");
    }
    earliest = std::min(earliest, root.alpha);
  }
  return earliest;
}

}  // namespace carom
