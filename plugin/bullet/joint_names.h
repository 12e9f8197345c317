// The name of a Bullet joint's class, for the messages that refuse it (lcp and variational modes).
#pragma once

#include <BulletDynamics/ConstraintSolver/btTypedConstraint.h>

#include <string>

namespace carom::detail {

// "btHingeConstraint", …, or "btTypedConstraint of type N" for a type Bullet has no class name for.
std::string jointTypeName(const btTypedConstraint& joint);

}  // namespace carom::detail
