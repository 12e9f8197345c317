// The link-time half of the precision guard (include/carom/bullet/precision.h).
#include "carom/bullet/precision.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

namespace carom::detail {
namespace {

// btRigidBody::applyDamping(btScalar) is an out-of-line Bullet function whose mangled name differs
// between the float and the double library: taking its address makes this object file need the
// double one.
[[gnu::used]] const auto kDoublePrecisionBulletFunction = &btRigidBody::applyDamping;

}  // namespace

extern const int kDoublePrecisionBulletAnchor = 1;

}  // namespace carom::detail
