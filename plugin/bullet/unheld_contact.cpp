#include "unheld_contact.h"

#include <sstream>

#include "carom/bullet/dynamics_world.h"
#include "object_text.h"

namespace carom {

void refuseUnheldContact(const core::contact::PersistentContactReport& stop,
                         const btCollisionObject& a, const btCollisionObject& b,
                         double restingSpeed) {
  if (stop.ok() || !(stop.penetrationRate > restingSpeed)) return;
  std::ostringstream message;
  message << "variational step: the contacts of " << describeObject(a, a.getWorldTransform())
          << " and " << describeObject(b, b.getWorldTransform())
          << " cannot be held: the contact solve did not converge (" << stop.message
          << ") and leaves them closing at " << stop.penetrationRate
          << " m/s at the end of the step, faster than the resting speed " << restingSpeed
          << " m/s. Its sweeps and exact solves lose their precision where a body of mass m is "
             "pressed by one of mass M beyond M/m of about 1e11; bring the masses closer together";
  throw PairError(message.str(), &a, &b);
}

}  // namespace carom
