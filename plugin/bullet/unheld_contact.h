// A variational step's refusal of contacts its persistent-contact solve cannot hold. Projected
// Gauss–Seidel converges at about 1 − m/M per sweep where a body of mass m is pressed between
// contacts by one of mass M; the solve's direct subspace steps hold such a pair exactly up to
// M/m of about 1e11 (a 1 g box under 1e8 kg), beyond which round-off leaves the heavy body closing;
// unrefused, the light one would pass through it or through the ground (issue 31). Where the
// end-of-step stop of the held contacts does not converge in an ordinary pile it leaves them
// closing far slower than the resting speed, which bounds what a hold may still let close; beyond
// it the bodies pass into each other (README, "carom::DynamicsWorld", has the measurements).
#pragma once

#include "carom/bullet/precision.h"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include "carom/core/contact/persistent_contact.h"

namespace carom {

// Throws carom::PairError naming `a` and `b` (the objects of `stop`'s penetrating contact) when
// the end-of-step stop of an island's held contacts did not converge and leaves that contact
// closing faster than the step's resting speed (m/s): the bodies would pass into each other.
void refuseUnheldContact(const core::contact::PersistentContactReport& stop,
                         const btCollisionObject& a, const btCollisionObject& b,
                         double restingSpeed);

}  // namespace carom
