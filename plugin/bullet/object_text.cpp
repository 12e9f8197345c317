#include "object_text.h"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <sstream>

namespace carom {

std::string describeObject(const btCollisionObject& object, const btTransform& pose) {
  const btVector3& at = pose.getOrigin();
  std::ostringstream text;
  text << "collision object " << object.getWorldArrayIndex() << " ("
       << object.getCollisionShape()->getName() << " at (" << at.x() << ", " << at.y() << ", "
       << at.z() << "), ";
  const btRigidBody* body = btRigidBody::upcast(&object);
  if (object.isKinematicObject()) {
    text << "kinematic";
  } else if (object.isStaticObject() || body == nullptr || body->getInvMass() == 0) {
    text << "static";
  } else {
    text << 1 / body->getInvMass() << " kg";
  }
  text << ")";
  return text.str();
}

std::string shapePairName(const btCollisionShape& a, const btCollisionShape& b) {
  return std::string(a.getName()) + "–" + b.getName();
}

}  // namespace carom
