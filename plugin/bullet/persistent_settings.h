// The persistent-contact LCP's settings in variational mode (lcp mode keeps the core's defaults:
// its Bullet-integrated stack settles within its drift allowance either way).
#pragma once

#include "carom/core/contact/persistent_contact.h"

namespace carom::detail {

// What a hold may leave a contact closing, as the distance it closes over a whole step (m): a
// thousandth of the contact tolerance (kContactTolerance = 1e-6 m). Every hold lasts until the
// next one (a landing's, the end of the step's stop, the next step's hold), each a solve of its
// own, so what one leaves approaching moves a contact by less than this.
inline constexpr double kHoldDrift = 1e-9;

// The holds at the start of the step, which set the motion of a pile for the whole step: to
// 1e-12 m/s, where a pile at rest stays exactly at rest and its next step's warm start is exact
// (solved only to kHoldDrift, a pile's contacts keep changing and every step's hold takes dozens
// of sweeps). Gauss–Seidel converges slowly down a stack; warm-started steps converge in a
// few sweeps, and where they do not, subspace solves (up to 8) carry the loads down the pile.
// While what its sweeps change is above the approach a hold may leave (kHoldDrift per step), it
// stops crawling (PersistentContactSettings::crawlAbove): a pile of round bodies with friction
// crawls there for thousands of sweeps that leave it as far from held, while below that level a
// wall of bricks converges to its exact warm start (docs/measurements.md).
inline core::contact::PersistentContactSettings stepHoldSettings(double timeStep) {
  return {5000, 1e-12, 512, true, 8, kHoldDrift / timeStep};
}

// The plastic stop at the end of the step: what it leaves approaching, the next step's hold takes
// up, so it is solved to kHoldDrift, and a 16-sweep stall window ends it where Gauss–Seidel cycles
// with friction among nearly redundant contacts.
inline core::contact::PersistentContactSettings endOfStepStopSettings(double timeStep) {
  return {5000, kHoldDrift / timeStep, 16, true, 8};
}

// A landing's hold inside the step starts from the impulses of the island's hold before it, exact
// away from the landing: where it does not converge within a few dozen sweeps it has met nearly
// redundant contacts, on which Gauss–Seidel cycles with friction for as long as it runs; a 16-sweep
// stall window stops it there, what it leaves taken up by the next hold. Without the conjugate
// momentum, whose bookkeeping over a large warm-started island costs more than it saves there.
// Where the island's masses differ by more than kLandingSubspaceMassRatio, with subspace solves:
// where a light body is pressed by a heavy one, Gauss–Seidel converges at about 1 − m/M per sweep
// and stalls with the contact still closing, the light body passing into the ground within the
// step; the direct subspace step holds it (a 1 g box under up to 1e8 kg). Among equal masses they
// cost more than they save: the settled bin of 300 took 1,398 against 973 ms/step with them.
inline constexpr double kLandingSubspaceMassRatio = 100;
inline core::contact::PersistentContactSettings landingHoldSettings(double timeStep,
                                                                    double massRatio) {
  return {5000, kHoldDrift / timeStep, 16, false, massRatio > kLandingSubspaceMassRatio ? 8 : 0};
}

}  // namespace carom::detail
