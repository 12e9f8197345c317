#include "motion_factors.h"

#include <string>

#include "carom/error.h"

namespace carom::detail {
namespace {

std::string toString(const btVector3& v) {
  return "(" + std::to_string(v.x()) + ", " + std::to_string(v.y()) + ", " + std::to_string(v.z()) +
         ")";
}

}  // namespace

bool rotationLocked(const btRigidBody& body) {
  return body.getAngularFactor() == btVector3(0, 0, 0);
}

void requireSupportedFactors(const btRigidBody& body, const char* where) {
  const btVector3 ones(1, 1, 1);
  if (body.getLinearFactor() != ones) {
    throw Error(std::string(where) + ": a dynamic body has linear factor " +
                toString(body.getLinearFactor()) +
                " (btRigidBody::setLinearFactor); carom supports only (1, 1, 1)");
  }
  if (body.getAngularFactor() != ones && !rotationLocked(body)) {
    throw Error(std::string(where) + ": a dynamic body has angular factor " +
                toString(body.getAngularFactor()) +
                " (btRigidBody::setAngularFactor); carom supports (1, 1, 1) and, to lock its "
                "rotation, (0, 0, 0)");
  }
}

}  // namespace carom::detail
