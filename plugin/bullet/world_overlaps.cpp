// Deep overlaps of the objects added to a variational world since its last step (scene_overlaps.h):
// refused before the step changes anything. Only pairs with a new object are asked their gap, so a
// step that adds nothing pays nothing, and one that adds bodies pays a sweep over every object's
// AABB and a gap query per pair of a new object whose AABBs overlap.
#include <sstream>
#include <vector>

#include "carom/bullet/dynamics_world.h"
#include "object_text.h"
#include "scene_overlaps.h"
#include "variational_step.h"

namespace carom {

void DynamicsWorld::refuseDeepOverlaps(double timeStep) {
  const btCollisionObjectArray& objects = getCollisionObjectArray();
  std::vector<PlacedShape> shapes;
  for (int i = 0; i < objects.size(); ++i) {
    shapes.push_back({objects[i]->getCollisionShape(), unflowedPoseAt(*objects[i], 0, timeStep),
                      m_unchecked.count(objects[i]) == 0});
  }
  // The pairs the variational step would pair (VariationalStep::findCandidatePairs, addPair): not
  // those a joint added with disableCollisionsBetweenLinkedBodies keeps apart (checkCollideWith),
  // such as a ragdoll's overlapping limbs.
  const auto mayTouch = [&](std::size_t i, std::size_t j) {
    btCollisionObject* a = objects[static_cast<int>(i)];
    btCollisionObject* b = objects[static_cast<int>(j)];
    if (!a->checkCollideWith(b) || !b->checkCollideWith(a)) return false;
    return getBroadphase()->getOverlappingPairCache()->needsBroadphaseCollision(
               a->getBroadphaseHandle(), b->getBroadphaseHandle()) &&
           getDispatcher()->needsResponse(a, b);
  };
  if (const std::optional<InitialOverlap> overlap = firstDeepOverlap(shapes, mayTouch)) {
    const btCollisionObject* first = objects[static_cast<int>(overlap->first)];
    const btCollisionObject* second = objects[static_cast<int>(overlap->second)];
    std::ostringstream message;
    message << "variational step: " << describeObject(*first, shapes[overlap->first].pose)
            << " and " << describeObject(*second, shapes[overlap->second].pose) << " overlap by "
            << overlap->depth << " m, more than " << kMaxInitialOverlap
            << " m, when stepping starts: no mode can push them apart without making energy; "
               "place them apart";
    throw PairError(message.str(), first, second);
  }
  m_unchecked.clear();
}

}  // namespace carom
