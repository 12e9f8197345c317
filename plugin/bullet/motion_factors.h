// Bullet's per-axis motion factors (btRigidBody::setLinearFactor, setAngularFactor), which scale
// what forces and impulses do to a body along world axes. carom's impact laws and contact LCP
// take a body's inverse mass as a scalar and its inverse inertia as a symmetric matrix, so they
// honour the two cases that keep that form: no factors (all ones), and rotation locked (an angular
// factor of zero, a character capsule's usual setting), where the inverse inertia is zero. Any
// other factor is refused: ignored, a locked axis moved (a box with rotation locked tipped over).
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

namespace carom::detail {

// Its angular factor is (0, 0, 0): impulses and torques do not turn it.
bool rotationLocked(const btRigidBody& body);

// Throws carom::Error naming the body's factor unless its linear factor is (1, 1, 1) and its
// angular factor (1, 1, 1) or (0, 0, 0). `where` starts the message.
void requireSupportedFactors(const btRigidBody& body, const char* where);

}  // namespace carom::detail
