#include "impact_solver_island.h"

#include <algorithm>
#include <unordered_map>

#include "motion_factors.h"
#include "pair_contacts.h"
#include "reserve_growing.h"
#include "support_contacts.h"
#include "worker_pool.h"  // IslandMemory's destructor ends the pool

namespace carom::detail {
namespace {

IslandBody makeBody(const btCollisionObject* object) {
  IslandBody body;
  body.object = object;
  const btRigidBody* rigid = btRigidBody::upcast(object);
  if (rigid == nullptr) return body;  // a plain collision object never moves
  body.state.centerOfMass = toEigen(rigid->getCenterOfMassPosition());
  body.state.linearVelocity = toEigen(rigid->getLinearVelocity());
  body.state.angularVelocity = toEigen(rigid->getAngularVelocity());
  if (object->isStaticOrKinematicObject() || rigid->getInvMass() == 0) return body;
  body.dynamic = const_cast<btRigidBody*>(rigid);
  body.state.inverseMass = rigid->getInvMass();
  // A body whose rotation is locked (motion_factors.h) takes no turn from any impulse.
  body.state.inverseInertiaWorld = rotationLocked(*rigid)
                                       ? core::Mat3::Zero()
                                       : core::Mat3(toEigen(rigid->getInvInertiaTensorWorld()));
  return body;
}

// Whether the pair is held at carom's own contact points (gatherIsland): each is a single convex
// shape or a plane, and one is a smooth shape with flat or straight features, or one is a
// polyhedron and one does not move. Bullet's manifold drops a point that has slid further than the
// breaking threshold (a few mm for a small box) and gains one per step, so a box sliding over a
// static object would be held at one or two corners, rock, sink and stop short. Between two moving
// bodies, which move together, the manifold's points are kept: carom's list both faces' corners and
// their crossings, redundant for the few sweeps of Bullet's iterations. A sphere or an ellipsoid
// touches at one point either way.
bool heldAtPatchCorners(const btCollisionObject& a, const btCollisionObject& b) {
  const auto single = [](const btCollisionShape& shape) {
    return shape.isConvex() || shape.getShapeType() == STATIC_PLANE_PROXYTYPE;
  };
  const btCollisionShape& shapeA = *a.getCollisionShape();
  const btCollisionShape& shapeB = *b.getCollisionShape();
  const bool polyhedronOnFixed = (shapeA.isPolyhedral() || shapeB.isPolyhedral()) &&
                                 (a.isStaticOrKinematicObject() || b.isStaticOrKinematicObject());
  return single(shapeA) && single(shapeB) &&
         (hasFlatFeatures(shapeA) || hasFlatFeatures(shapeB) || polyhedronOnFixed);
}

// Whether Bullet's test of the pair is its box–box one (btBoxBoxCollisionAlgorithm), which reports
// a point only where the boxes overlap: faces that touch to round-off with a gap of +1e-17 m get
// none (Bullet's other convex tests report points within the breaking threshold).
bool boxes(const btCollisionObject& a, const btCollisionObject& b) {
  return a.getCollisionShape()->getShapeType() == BOX_SHAPE_PROXYTYPE &&
         b.getCollisionShape()->getShapeType() == BOX_SHAPE_PROXYTYPE;
}

// The pair's contact points where its shapes are now (heldAtPatchCorners) within the manifold's
// breaking threshold, as the island's contacts between bodyA and bodyB, warm-started by feature.
// The witness point is held where it lies beyond their outline by more than kSamePoint.
void addPatchCorners(Island& island, int bodyA, int bodyB, const btPersistentManifold& manifold,
                     const core::impact::Material& material, const PatchImpulses& patchImpulses) {
  if (!island.bodies[bodyA].dynamic && !island.bodies[bodyB].dynamic) return;
  const btCollisionObject* a = manifold.getBody0();
  const btCollisionObject* b = manifold.getBody1();
  const PairGeometry geometry{{a->getCollisionShape(), b->getCollisionShape()},
                              {a->getWorldTransform(), b->getWorldTransform()}};
  const Gap gap = gapOf(geometry);
  const double reach = manifold.getContactBreakingThreshold();
  if (gap.distance > reach) return;
  const double depth = std::max(0.0, -static_cast<double>(gap.distance));
  for (const PairPoint& corner : pairContacts(geometry, gap, reach, kSamePoint, depth)) {
    IslandContact contact;
    contact.feature = corner.feature;
    contact.bodyA = bodyA;
    contact.bodyB = bodyB;
    contact.point = toEigen(corner.point);
    contact.normal = -toEigen(gap.normal);
    contact.distance = corner.gap;
    contact.material = material;
    const auto held = patchImpulses.find({a, b, corner.feature});
    if (held != patchImpulses.end()) contact.impulse = toEigen(held->second);
    contact.normalVelocityBeforeForces = normalVelocity(island, contact);
    island.contacts.push_back(contact);
  }
}

// The tangent basis the warm-start impulses are stored in (btPlaneSpace1, as Bullet's solver).
void tangentBasis(const core::Vec3& normal, btVector3& t1, btVector3& t2) {
  btPlaneSpace1(toBt(normal), t1, t2);
}

}  // namespace

void Island::clear() {
  bodies.clear();
  index.clear();
  contacts.clear();
  timeStep = 0.0;
  joints.clear();
  jointRows.clear();
  broken.clear();
  held.reset();
  heldRows.clear();
  jointed.clear();
}

IslandMemory::IslandMemory() : island(std::make_unique<Island>()) {}
IslandMemory::~IslandMemory() = default;
IslandMemory::IslandMemory(const IslandMemory&) : IslandMemory() {}
IslandMemory& IslandMemory::operator=(const IslandMemory&) {
  return *this;
}

void gatherIsland(Island& island, btCollisionObject** bodies, int numBodies,
                  btPersistentManifold** manifolds, int numManifolds, btDispatcher* dispatcher,
                  double timeStep, const MaterialLookup& materialOf,
                  const PatchImpulses& patchImpulses) {
  island.clear();
  island.timeStep = timeStep;
  // A manifold holds up to four points (a pair held at its patch corners may add more): the
  // contacts grow once, not by doubling through a pile's hundreds.
  reserveGrowing(island.contacts, 4 * static_cast<std::size_t>(numManifolds));
  const auto indexOf = [&](const btCollisionObject* object) { return bodyIndex(island, object); };
  for (int i = 0; i < numBodies; ++i) {
    const btRigidBody* rigid = btRigidBody::upcast(bodies[i]);
    if (rigid != nullptr && !rigid->isStaticOrKinematicObject() && rigid->getInvMass() != 0)
      indexOf(bodies[i]);
  }
  for (int m = 0; m < numManifolds; ++m) {
    btPersistentManifold* manifold = manifolds[m];
    const btCollisionObject* a = manifold->getBody0();
    const btCollisionObject* b = manifold->getBody1();
    if (!dispatcher->needsResponse(a, b)) continue;
    // Static and kinematic objects are listed as immovable bodies (not core::contact::kWorld):
    // a kinematic body's velocity matters at its contacts.
    if (manifold->getNumContacts() == 0) {
      // The second row of a wall of bricks built touching would fall a step and be struck: carom's
      // own gap decides, with the pair's breaking threshold as its reach.
      if (boxes(*a, *b)) {
        btManifoldPoint combined;  // Bullet's combined values, as a point of the pair would have
        combined.m_combinedRestitution = gCalculateCombinedRestitutionCallback(a, b);
        combined.m_combinedFriction = gCalculateCombinedFrictionCallback(a, b);
        addPatchCorners(island, indexOf(a), indexOf(b), *manifold, materialOf(a, b, combined),
                        patchImpulses);
      }
      continue;
    }
    if (heldAtPatchCorners(*a, *b)) {
      addPatchCorners(island, indexOf(a), indexOf(b), *manifold,
                      materialOf(a, b, manifold->getContactPoint(0)), patchImpulses);
      continue;
    }
    for (int p = 0; p < manifold->getNumContacts(); ++p) {
      btManifoldPoint& point = manifold->getContactPoint(p);
      if (point.getDistance() > manifold->getContactProcessingThreshold()) continue;
      IslandContact contact;
      contact.source = &point;
      contact.bodyA = indexOf(a);
      contact.bodyB = indexOf(b);
      if (!island.bodies[contact.bodyA].dynamic && !island.bodies[contact.bodyB].dynamic) continue;
      contact.point =
          0.5 * (toEigen(point.getPositionWorldOnA()) + toEigen(point.getPositionWorldOnB()));
      contact.normal = -toEigen(point.m_normalWorldOnB).normalized();
      contact.distance = point.getDistance();
      contact.material = materialOf(a, b, point);
      contact.impulse = contact.normal * point.m_appliedImpulse;
      if (!point.m_lateralFrictionDir1.fuzzyZero())
        contact.impulse += toEigen(point.m_lateralFrictionDir1 * point.m_appliedImpulseLateral1 +
                                   point.m_lateralFrictionDir2 * point.m_appliedImpulseLateral2);
      island.contacts.push_back(contact);
      island.contacts.back().normalVelocityBeforeForces =
          normalVelocity(island, island.contacts.back());
    }
  }
}

int bodyIndex(Island& island, const btCollisionObject* object) {
  // try_emplace: a contact's bodies are mostly known already, and emplace would build a node first.
  const auto [it, added] = island.index.try_emplace(object, static_cast<int>(island.bodies.size()));
  if (added) island.bodies.push_back(makeBody(object));
  return it->second;
}

std::vector<core::impact::ContactBody> statesOf(const Island& island) {
  std::vector<core::impact::ContactBody> states;
  statesOf(island, states);
  return states;
}

void statesOf(const Island& island, std::vector<core::impact::ContactBody>& states) {
  states.clear();
  reserveGrowing(states, island.bodies.size());
  for (const IslandBody& body : island.bodies)
    states.push_back(body.state);
}

double normalVelocity(const Island& island, const IslandContact& contact) {
  using core::impact::pointVelocity;
  return (pointVelocity(island.bodies[contact.bodyB].state, contact.point) -
          pointVelocity(island.bodies[contact.bodyA].state, contact.point))
      .dot(contact.normal);
}

void computeForces(Island& island, const btContactSolverInfo& info) {
  const btScalar h = info.m_timeStep;
  for (IslandBody& body : island.bodies) {
    btRigidBody* rigid = body.dynamic;
    if (rigid == nullptr) continue;
    btVector3 dv = rigid->getTotalForce() * rigid->getInvMass() * h;
    btVector3 dw = rigid->getInvInertiaTensorWorld() * rigid->getTotalTorque() * h;
    const int flags = rigid->getFlags();
    if (flags & BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT)
      dw -= rigid->getInvInertiaTensorWorld() *
            rigid->computeGyroscopicForceExplicit(info.m_maxGyroscopicForce) * h;
    if (flags & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD)
      dw += rigid->computeGyroscopicImpulseImplicit_World(h);
    if (flags & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY)
      dw += rigid->computeGyroscopicImpulseImplicit_Body(h);
    body.forceKickLinear = toEigen(dv);
    body.forceKickAngular = toEigen(dw);
  }
}

void applyForces(Island& island, double fraction) {
  for (IslandBody& body : island.bodies) {
    body.state.linearVelocity += fraction * body.forceKickLinear;
    body.state.angularVelocity += fraction * body.forceKickAngular;
  }
}

std::vector<core::contact::PersistentContact> solverContacts(const Island& island) {
  std::vector<core::contact::PersistentContact> held;
  solverContacts(island, held);
  return held;
}

void solverContacts(const Island& island, std::vector<core::contact::PersistentContact>& held) {
  held.clear();
  reserveGrowing(held, island.contacts.size());
  for (const IslandContact& contact : island.contacts) {
    const double approach = std::max(contact.distance, 0.0) / island.timeStep;
    held.push_back({contact.bodyA, contact.bodyB, contact.point, contact.normal,
                    contact.material.friction, approach, contact.impulse});
  }
}

core::contact::PersistentContactReport solveContacts(Island& island, int sweeps,
                                                     IslandMemory& memory) {
  std::vector<core::impact::ContactBody>& states = memory.states;
  std::vector<core::contact::PersistentContact>& held = memory.held;
  statesOf(island, states);
  solverContacts(island, held);
  core::contact::PersistentContactReport report;
  if (held.empty()) return report;
  core::contact::PersistentContactSettings settings;
  settings.maxIterations = sweeps;
  report = core::contact::solvePersistentContacts(states, held, settings, memory.workspace);
  for (std::size_t i = 0; i < island.bodies.size(); ++i)
    island.bodies[i].state = states[i];
  for (std::size_t i = 0; i < held.size(); ++i)
    island.contacts[i].impulse = held[i].impulse;
  return report;
}

void writeBack(const Island& island, PatchImpulses& patchImpulses,
               std::vector<JointWrite>& joints) {
  writeJoints(island, joints);
  for (const IslandBody& body : island.bodies) {
    if (body.dynamic == nullptr) continue;
    body.dynamic->setLinearVelocity(toBt(body.state.linearVelocity));
    body.dynamic->setAngularVelocity(toBt(body.state.angularVelocity));
  }
  for (const IslandContact& contact : island.contacts) {
    if (contact.source == nullptr) {
      patchImpulses[{island.bodies[contact.bodyA].object, island.bodies[contact.bodyB].object,
                     contact.feature}] = toBt(contact.impulse);
      continue;
    }
    btManifoldPoint& point = *contact.source;
    btVector3 t1, t2;
    tangentBasis(contact.normal, t1, t2);
    const btVector3 impulse = toBt(contact.impulse);
    point.m_appliedImpulse = impulse.dot(toBt(contact.normal));
    point.m_lateralFrictionDir1 = t1;
    point.m_lateralFrictionDir2 = t2;
    point.m_appliedImpulseLateral1 = impulse.dot(t1);
    point.m_appliedImpulseLateral2 = impulse.dot(t2);
  }
}

}  // namespace carom::detail
