// The persistent-contact LCP's settings in variational mode (lcp mode keeps the core's defaults:
// its Bullet-integrated stack settles within its drift allowance either way, and 5000 sweeps made
// a 5-box tower there 30× slower and no steadier, measured).
#pragma once

#include "carom/core/contact/persistent_contact.h"

namespace carom::detail {

// Projected Gauss–Seidel converges slowly down a stack: a cold tower of five unit boxes needs more
// than 1000 sweeps to reach the 1e-12 m/s tolerance (at 1000 it settles 5e-6 m off and, at the
// core's default 200, never stops chattering: 2e-2 m over 1000 steps, measured). Warm-started
// steps after the first converge in a few sweeps, so the cap costs only where it is needed.
inline const core::contact::PersistentContactSettings kPersistentContactSettings{5000, 1e-12};

}  // namespace carom::detail
