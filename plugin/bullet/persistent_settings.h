// The persistent-contact LCP's settings in variational mode (lcp mode keeps the core's defaults:
// its Bullet-integrated stack settles within its drift allowance either way, and 5000 sweeps made
// a 5-box tower there 30× slower and no steadier, measured).
#pragma once

#include "carom/core/contact/persistent_contact.h"

namespace carom::detail {

// Projected Gauss–Seidel converges slowly down a stack: a cold tower of five unit boxes needs more
// than 1000 sweeps to reach the 1e-12 m/s tolerance (at 1000 it settles 5e-6 m off and, at the
// core's default 200, never stops chattering: 2e-2 m over 1000 steps, measured). Warm-started
// steps after the first converge in a few sweeps, so the cap costs only where it is needed; where
// they do not, subspace solves (up to 8) carry the loads down the pile.
inline const core::contact::PersistentContactSettings kPersistentContactSettings{5000, 1e-12, 512,
                                                                                 true, 8};

// A landing's hold inside the step starts from the impulses of the island's hold before it, exact
// away from the landing: where it does not converge within a few dozen sweeps it has met nearly
// redundant contacts, on which Gauss–Seidel cycles with friction at a change of 1e-7 to 1e-5 m/s
// per sweep, a millionth of a millimetre per step or less, for as long as it runs. In a bin of 300
// bodies 44 % of 11588 landing holds stalled so, after 1370 sweeps on average (the 512-sweep
// window), four fifths of all their sweeps (measured). A 16-sweep window stops them there. The
// landing's plastic stop before it, started cold, stalls so too: in the same bin's steps 61–72,
// 453 of 4270 stops ran 1000 sweeps or more, two thirds of all their sweeps (measured); it is
// stopped there as well, what it leaves approaching (1e-5 m/s or less) taken up by the hold. The
// contacts are held again at the end of the step and at the next step's start, with the full
// settings above.
//
// Its tolerance is a velocity that closes kLandingHoldDrift over a whole step: a landing's hold
// lasts until the next landing's or the end of the step, each with a solve of its own, so what it
// leaves approaching moves a contact by less than that, a thousandth of the contact tolerance
// (kContactTolerance = 1e-6 m). Held to 1e-12 m/s instead, a sweep after a landing solved again
// nearly every contact of the island (its bodies' velocities all change by more than that): in the
// 300-body bin's first 45 steps its landing holds and stops took 60 % of the time, 38 % at 6e-8 m/s
// (60 Hz). Its first 60 steps ran 1.7× faster, and from the same pile at step 100 the next 30
// steps 1.3× faster, with the same events, deepest overlap and energy (measured).
//
// Without the conjugate momentum: in the bin's landing holds it saved a sixth of the contact solves
// and cost more than that in bookkeeping (its first 60 steps 869 against 707 ms per step,
// measured).
inline constexpr double kLandingHoldDrift = 1e-9;  // m
inline core::contact::PersistentContactSettings landingHoldSettings(double timeStep) {
  return {5000, kLandingHoldDrift / timeStep, 16, false};
}

}  // namespace carom::detail
