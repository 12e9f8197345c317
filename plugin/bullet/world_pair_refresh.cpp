// Candidate pairs found during the step. Stage 3 pairs the bodies whose AABBs, swept over their
// free flight and widened by Bullet's contact margin, overlap; an impact can send a body beyond
// that, and without a pair it would go into whatever it meets there until the next step. After
// an impact the struck bodies' AABBs, swept from now to their new trial poses, are tested against
// the broadphase: a partner that is fixed or in the same island gets a pair at once, a body that
// flies free joins the island (brought to the island's instant along its free flight). A body of
// another island keeps to its own time: the two islands are linked, and run again from the start
// of the step as one (world_island_rerun.cpp). A body whose swept AABB
// lies inside the box last searched for it (m_searched) has no partner it had not met there.
#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <algorithm>

#include "aabb.h"
#include "bt_eigen.h"
#include "mesh_triangles.h"
#include "variational_step.h"

namespace carom {
namespace {

// How far beyond a moved body's swept AABB its search for partners reaches (m), so that the next
// small move stays inside the box searched. After a landing's hold every body of a pile has moved
// by a fraction of a millimetre, and searching each again is a noticeable part of a big pile's
// step; within the box searched last its partners are known. A wider pad gains nothing more.
constexpr double kSearchPad = 0.005;

// The world AABB of `object`'s shape at the two poses, widened by the contact margin.
void sweptAabb(const btCollisionObject& object, const btTransform& from, const btTransform& to,
               btVector3& min, btVector3& max) {
  btVector3 min2, max2;
  object.getCollisionShape()->getAabb(from, min, max);
  object.getCollisionShape()->getAabb(to, min2, max2);
  const btVector3 margin(gContactBreakingThreshold, gContactBreakingThreshold,
                         gContactBreakingThreshold);
  min.setMin(min2);
  max.setMax(max2);
  min -= margin;
  max += margin;
}

struct Overlaps : btBroadphaseAabbCallback {
  bool process(const btBroadphaseProxy* proxy) override {
    found.push_back(const_cast<btBroadphaseProxy*>(proxy));
    return true;
  }
  std::vector<btBroadphaseProxy*> found;
};

}  // namespace

void VariationalStep::findNewPartners(Island& island, int id, const std::vector<int>& moved,
                                      double elapsed) {
  using detail::toBt;
  btBroadphaseInterface* broadphase = m_world.getBroadphase();
  for (const int body : moved) {
    wakeDistantPairs(island, id, body, elapsed);
    btRigidBody* object = m_bodies[body].rigidBody;
    btVector3 min, max;
    const core::BodyState& now = stateNow(body);
    sweptAabb(*object, btTransform(toBt(now.R), toBt(now.x)),
              btTransform(toBt(m_trial[body].R), toBt(m_trial[body].x)), min, max);
    auto& [searchedMin, searchedMax] = m_searched[body];
    if (aabbContains(searchedMin, searchedMax, min, max)) continue;
    const btVector3 pad(kSearchPad, kSearchPad, kSearchPad);
    min -= pad;
    max += pad;
    searchedMin = min;
    searchedMax = max;
    auto& [reachedMin, reachedMax] = m_reached[body];
    const auto& [startMin, startMax] = m_startOfStep.searched[body];
    if (reachedMin == startMin && reachedMax == startMax) m_grown.push_back(body);
    reachedMin.setMin(min);
    reachedMax.setMax(max);
    const auto meet = [&](btBroadphaseProxy* proxy) {
      const auto* other = static_cast<const btCollisionObject*>(proxy->m_clientObject);
      if (other == object) return;
      if (!broadphase->getOverlappingPairCache()->needsBroadphaseCollision(
              object->getBroadphaseHandle(), proxy)) {
        return;
      }
      const int partner = stepIndexOf(other);
      const std::vector<int>& known = m_pairsOf[body];
      const bool paired = std::any_of(known.begin(), known.end(), [&](int p) {
        return m_pairs[p].a == other || m_pairs[p].b == other;
      });
      // A mesh's triangles are paired one by one: the body may have reached new ones.
      if (paired && !isTriangleMesh(*other->getCollisionShape())) return;
      if (partner != kFixed && m_islandOf[partner] != id) {
        if (m_islandOf[partner] >= 0) {  // another island's, on its own time: both run again
          m_links.emplace_back(id, m_islandOf[partner]);
          return;
        }
        joinFreeFlier(island, id, partner, elapsed);
      }
      const int first = static_cast<int>(m_pairs.size());  // addPair appends the pairs it adds
      addPair(object, other);
      for (int p = first; p < static_cast<int>(m_pairs.size()); ++p)
        island.pairs.push_back(p);
    };
    Overlaps overlaps;
    broadphase->aabbTest(min, max, overlaps);
    for (btBroadphaseProxy* proxy : overlaps.found)
      meet(proxy);
    // The bodies that runs have taken beyond their boxes in the broadphase, where the search above
    // cannot see them: two bodies struck towards each other in two islands, each path beyond the
    // other's stage-3 box, met nowhere else.
    for (const int other : m_grown) {
      const auto& [otherMin, otherMax] = m_reached[other];
      if (other != body && aabbOverlap(min, max, otherMin, otherMax))
        meet(m_bodies[other].rigidBody->getBroadphaseHandle());
    }
  }
}

void VariationalStep::joinFreeFlier(Island& island, int id, int body, double elapsed) {
  // Free flight so far: at the island's instant now, and one of its bodies from here, with its
  // joint group (which no pair had put in an island either).
  const auto join = [&](int b, const core::BodyState& state) {
    setStateNow(b, state);
    m_islandOf[b] = id;
    m_slot[b] = static_cast<int>(island.bodies.size());
    island.bodies.push_back(b);
  };
  if (!jointed(body)) {
    anchorAt(body, m_start[body], 0);  // its trial's flow, from the start of the step
    join(body, anchoredStateAt(body, elapsed));
    return;
  }
  flowBodies(
      {body}, elapsed, [&](int b) -> const core::BodyState& { return m_start[b]; }, join,
      [&](int g, const detail::JointImpulses& impulses) {
        m_jointsNow[g] = impulses;
        detail::addImpulses(m_jointsKicked[g], m_jointsNow[g]);
      });
}

}  // namespace carom
