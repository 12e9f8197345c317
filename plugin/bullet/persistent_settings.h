// The persistent-contact LCP's settings in variational mode (lcp mode keeps the core's defaults:
// its Bullet-integrated stack settles within its drift allowance either way).
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "carom/core/contact/persistent_contact.h"

namespace carom::detail {

// What a hold may leave a contact closing, as the distance it closes over a whole step (m): a
// thousandth of the contact tolerance (kContactTolerance = 1e-6 m). Every hold lasts until the
// next one (a landing's, the end of the step's stop, the next step's hold), each a solve of its
// own, so what one leaves approaching moves a contact by less than this.
inline constexpr double kHoldDrift = 1e-9;

// Every variational hold solves a sticking contact's 3×3 block at once
// (PersistentContactSettings::stickingBlocks), except among masses 1e2 apart (forMassesOf): a
// wall's or a pyramid's redundant corners then come to rest where the staggered step cycles
// (docs/measurements.md). lcp mode keeps the staggered step: with the blocks its Bullet-integrated
// tower of three boxes creeps sideways past the 5e-4 m of ImpactSolver.StackOfThreeBoxesStands.
inline core::contact::PersistentContactSettings withStickingBlocks(
    core::contact::PersistentContactSettings settings) {
  settings.stickingBlocks = true;
  return settings;
}

// The stall window of the holds that start from a pile held before (a landing's, the end of the
// step's stop, the start of the step's stop and its hold taken again): where they do not converge
// within a few dozen sweeps they have met nearly redundant contacts, on which Gauss–Seidel cycles
// with friction for as long as it runs, and what they leave the next hold takes up.
inline constexpr int kShortStallWindow = 16;

// The hold at the start of the step (after its plastic stop), which sets the motion of a pile for
// the whole step: to 1e-12 m/s, where a pile at rest stays exactly at rest and its next step's warm
// start is exact (solved only to kHoldDrift, a pile's contacts keep changing and every step's hold
// takes dozens of sweeps). Gauss–Seidel converges slowly down a stack; warm-started steps converge
// in a few sweeps, and where they do not, subspace solves (up to 8) carry the loads down the pile.
// While what its sweeps change is above the approach a hold may leave (kHoldDrift per step), it
// stops crawling (PersistentContactSettings::crawlAbove): a pile of round bodies with friction
// crawls there for thousands of sweeps that leave it as far from held, while below that level a
// wall of bricks converges to its exact warm start (docs/measurements.md).
inline core::contact::PersistentContactSettings stepHoldSettings(double timeStep) {
  core::contact::PersistentContactSettings settings =
      withStickingBlocks({5000, 1e-12, 512, true, 8, kHoldDrift / timeStep});
  // Once its sweeps change a contact by less than a hold may leave, it stops on the short stall
  // window (PersistentContactSettings::settledBelow): a pile that has not yet come exactly to rest
  // cycles there among its redundant contacts, for hundreds of sweeps on the long window; at rest,
  // its warm start is exact and it stops at the first sweep.
  settings.settledBelow = kHoldDrift / timeStep;
  settings.settledStallSweeps = kShortStallWindow;
  return settings;
}

// The start of the step's hold taken again with its turning pairs' closing (holdTurningPairs): from
// the first one's impulses, exact but where a closing was added, so with the short stall window.
inline core::contact::PersistentContactSettings turningHoldSettings(double timeStep) {
  core::contact::PersistentContactSettings settings = stepHoldSettings(timeStep);
  settings.stallSweeps = kShortStallWindow;
  return settings;
}

// The plastic stops at the end of the step and at its start (before its hold): what they leave
// approaching, the hold after them takes up, so they are solved to kHoldDrift, with the short stall
// window.
inline core::contact::PersistentContactSettings stepStopSettings(double timeStep) {
  return withStickingBlocks({5000, kHoldDrift / timeStep, kShortStallWindow, true, 8});
}

// A landing's hold inside the step starts from the impulses of the island's hold before it, exact
// away from the landing, with the short stall window. Without the conjugate momentum, whose
// bookkeeping over a large warm-started island costs more than it saves there.
inline core::contact::PersistentContactSettings landingHoldSettings(double timeStep) {
  return withStickingBlocks({5000, kHoldDrift / timeStep, kShortStallWindow, false});
}

// Where an island's dynamic masses differ by more than this (heaviest / lightest), its holds solve
// their subspace minimisations directly (core::contact::SubspaceMethod::kDirect), the landings'
// holds included: where a light body is pressed by a heavy one, Gauss–Seidel converges at about
// 1 − m/M per sweep and stalls with the contact still closing, the light body passing into the
// ground within the step. Among equal masses the direct steps cost more than they save: a wall of
// bricks and a settled bin were slower with them, a pyramid faster (docs/measurements.md).
inline constexpr double kDirectSubspaceMassRatio = 100;

// `settings` for the bodies of one hold (their inverse masses; 0 for a fixed object).
inline core::contact::PersistentContactSettings forMassesOf(
    core::contact::PersistentContactSettings settings,
    const std::vector<core::impact::ContactBody>& bodies) {
  double lightest = 0, heaviest = std::numeric_limits<double>::infinity();  // inverse masses
  for (const core::impact::ContactBody& body : bodies) {
    if (body.inverseMass <= 0) continue;
    lightest = std::max(lightest, body.inverseMass);
    heaviest = std::min(heaviest, body.inverseMass);
  }
  if (lightest > kDirectSubspaceMassRatio * heaviest) {
    settings.subspaceMethod = core::contact::SubspaceMethod::kDirect;
    settings.stickingBlocks = false;  // see PersistentContactSettings::stickingBlocks
    settings.subspaceSolves = std::max(settings.subspaceSolves, 8);
    // A change per sweep 1 − m/M of the last says little of how far the solve still has to go.
    settings.settledBelow = 0;
  }
  return settings;
}

}  // namespace carom::detail
