// Deep overlaps of the objects added to a variational world since its last step (scene_overlaps.h):
// refused before the step changes anything. Only pairs with a new object are asked their gap, so a
// step that adds nothing pays nothing, and one that adds bodies pays a sweep over every object's
// AABB and a gap query per pair of a new object whose AABBs overlap.
#include <sstream>
#include <vector>

#include "carom/bullet/dynamics_world.h"
#include "carom/error.h"
#include "scene_overlaps.h"
#include "variational_step.h"

namespace carom {
namespace {

// "collision object 3 (Box at (0, 0, 0.3))": its place in the world's object array, as a user who
// added it can find it, its shape's Bullet name and where it is.
std::string describe(const btCollisionObject& object, std::size_t index, const btTransform& pose) {
  const btVector3& at = pose.getOrigin();
  std::ostringstream text;
  text << "collision object " << index << " (" << object.getCollisionShape()->getName() << " at ("
       << at.x() << ", " << at.y() << ", " << at.z() << "))";
  return text.str();
}

}  // namespace

void DynamicsWorld::refuseDeepOverlaps(double timeStep) {
  const btCollisionObjectArray& objects = getCollisionObjectArray();
  std::vector<PlacedShape> shapes;
  for (int i = 0; i < objects.size(); ++i) {
    shapes.push_back({objects[i]->getCollisionShape(), unflowedPoseAt(*objects[i], 0, timeStep),
                      m_unchecked.count(objects[i]) == 0});
  }
  // The pairs the variational step would pair (VariationalStep::findCandidatePairs, addPair).
  const auto mayTouch = [&](std::size_t i, std::size_t j) {
    btCollisionObject* a = objects[static_cast<int>(i)];
    btCollisionObject* b = objects[static_cast<int>(j)];
    return getBroadphase()->getOverlappingPairCache()->needsBroadphaseCollision(
               a->getBroadphaseHandle(), b->getBroadphaseHandle()) &&
           getDispatcher()->needsResponse(a, b);
  };
  if (const std::optional<InitialOverlap> overlap = firstDeepOverlap(shapes, mayTouch)) {
    std::ostringstream message;
    const auto describeObject = [&](std::size_t i) {
      return describe(*objects[static_cast<int>(i)], i, shapes[i].pose);
    };
    message << "variational step: " << describeObject(overlap->first) << " and "
            << describeObject(overlap->second) << " overlap by " << overlap->depth
            << " m, more than " << kMaxInitialOverlap
            << " m, when stepping starts: no mode can push them apart without making energy; "
               "place them apart";
    throw Error(message.str());
  }
  m_unchecked.clear();
}

}  // namespace carom
