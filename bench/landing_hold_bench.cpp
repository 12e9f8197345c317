// Cost of one landing's hold: a box landing on a resting pyramid of boxes, held over a whole step
// from the pile's own hold as its warm start, as the variational step holds a landing's contact
// group (world_persistent.cpp, hold (b)). Every settings variant solves the same problem, so its
// sweeps and time compare the solvers, not the trajectories a scene's run would take after them
// (docs/measurements.md, thirty-sixth session). No main(): the program links benchmark_main.
#include <benchmark/benchmark.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "carom/core/contact/persistent_contact.h"
#include "persistent_settings.h"

namespace {

using carom::core::Vec3;
using carom::core::contact::PersistentContact;
using carom::core::contact::PersistentContactReport;
using carom::core::contact::PersistentContactSettings;
using carom::core::contact::SubspaceMethod;
using carom::core::impact::ContactBody;

constexpr double kTimeStep = 1.0 / 60;  // s
constexpr double kGravity = 9.81;       // m/s²
constexpr double kFriction = 0.6;       // the bench's pyramids' (bench/scenes.cpp)

struct Pile {
  std::vector<ContactBody> bodies;
  std::vector<PersistentContact> contacts;
};

// A 1 kg unit cube at `centre`, at rest but for the step's gravity: the hold solves v + τg.
int addBox(Pile& pile, const Vec3& centre) {
  ContactBody box;
  box.inverseMass = 1.0;
  box.inverseInertiaWorld = 6.0 * carom::core::Mat3::Identity();  // J = m s² / 6, s = 1 m
  box.centerOfMass = centre;
  box.linearVelocity = Vec3(0, -kGravity * kTimeStep, 0);
  pile.bodies.push_back(box);
  return static_cast<int>(pile.bodies.size()) - 1;
}

// The four corners of the face x0..x1 × (−½, ½) at height y where `upper` rests on `lower`.
void addFace(Pile& pile, int lower, int upper, double x0, double x1, double y) {
  for (const double x : {x0, x1}) {
    for (const double z : {-0.5, 0.5}) {
      PersistentContact contact;
      contact.bodyA = lower;
      contact.bodyB = upper;
      contact.point = Vec3(x, y, z);
      contact.normal = Vec3::UnitY();
      contact.friction = kFriction;
      pile.contacts.push_back(contact);
    }
  }
}

// A pyramid of `levels` rows on the ground, each box on the two below it, bricklayer's bond, held
// at rest: its impulses are the warm start of the landing's hold.
Pile restingPyramid(int levels) {
  Pile pile;
  std::vector<int> below;
  for (int row = 0; row < levels; ++row) {
    std::vector<int> here;
    for (int i = 0; i < levels - row; ++i) {
      const double x = i - 0.5 * (levels - row - 1);
      const int box = addBox(pile, Vec3(x, 0.5 + row, 0));
      if (row == 0) {
        addFace(pile, carom::core::contact::kWorld, box, x - 0.5, x + 0.5, 0);
      } else {
        addFace(pile, below[static_cast<std::size_t>(i)], box, x - 0.5, x, row);
        addFace(pile, below[static_cast<std::size_t>(i) + 1], box, x, x + 0.5, row);
      }
      here.push_back(box);
    }
    below = here;
  }
  PersistentContactSettings settings = carom::detail::stepHoldSettings(kTimeStep);
  settings.restingStart = true;
  std::vector<ContactBody> bodies = pile.bodies;
  const PersistentContactReport report =
      carom::core::contact::solvePersistentContacts(bodies, pile.contacts, settings);
  if (!report.ok()) throw std::runtime_error("the resting pyramid: " + report.message);
  return pile;
}

// The pile with a box landed on its top box, a quarter of a box off its centre: the landing's hold
// starts from the pile's impulses and none at the new contacts.
Pile landedOn(const Pile& resting, int levels) {
  Pile pile = resting;
  const int top = static_cast<int>(pile.bodies.size()) - 1;
  const int lander = addBox(pile, Vec3(0.25, 0.5 + levels, 0));
  addFace(pile, top, lander, -0.25, 0.5, levels);
  return pile;
}

// The variants: 0 the landing's hold as the variational step takes it (landingHoldSettings),
// 1 with the conjugate momentum, 2 with 8 subspace steps by conjugate gradients, 3 by direct
// solves, 4 with the staggered local step instead of the sticking blocks.
PersistentContactSettings variant(int which) {
  PersistentContactSettings settings = carom::detail::landingHoldSettings(kTimeStep);
  switch (which) {
    case 1:
      settings.momentum = true;
      break;
    case 2:
      settings.subspaceSolves = 8;
      break;
    case 3:
      settings.subspaceSolves = 8;
      settings.subspaceMethod = SubspaceMethod::kDirect;
      break;
    case 4:
      settings.stickingBlocks = false;
      break;
    default:
      break;
  }
  return settings;
}

void BM_LandingHold(benchmark::State& state) {
  const int levels = static_cast<int>(state.range(0));
  const PersistentContactSettings settings = variant(static_cast<int>(state.range(1)));
  Pile pile;
  try {
    pile = landedOn(restingPyramid(levels), levels);
  } catch (const std::exception& e) {  // the resting pile unsolved, or an invalid problem
    state.SkipWithError(e.what());
    return;
  }
  carom::core::contact::PersistentContactWorkspace workspace;
  PersistentContactReport report;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<ContactBody> bodies = pile.bodies;
    std::vector<PersistentContact> contacts = pile.contacts;
    state.ResumeTiming();
    report = carom::core::contact::solvePersistentContacts(bodies, contacts, settings, workspace);
    benchmark::DoNotOptimize(bodies.data());
  }
  state.counters["contacts"] = static_cast<double>(pile.contacts.size());
  state.counters["sweeps"] = report.iterations;
  state.counters["converged"] = report.ok() ? 1 : 0;
}
BENCHMARK(BM_LandingHold)
    ->ArgsProduct({{4, 8, 12}, {0, 1, 2, 3, 4}})
    ->ArgNames({"levels", "variant"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
