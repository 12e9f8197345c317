// Gap drift corrected without injecting energy (ARCHITECTURE.md "One step", item 5). A held
// contact is a velocity constraint at one instant: where the closest points run over a curved
// surface or along an edge (a cylinder rolling on its rim, a box on a spinning body), or a
// landing's hold stops as stalled with a contact still approaching, a pair goes on closing after
// its hold, and the impact loop finds it again only a contact tolerance, or a quiet pair's floor,
// deeper each time. At the end of the step the island's pairs deeper than kDriftAllowance are
// pushed apart by pseudo velocities (core::contact::separationVelocities: positions only, their
// velocities untouched), a kDriftCorrection of the excess per step as Bullet's split impulse
// does. What a lift gives in potential energy is taken from the island's kinetic energy, and an
// island that has not that much is pushed only as far as it pays: one at rest keeps its overlap.
#include <algorithm>
#include <optional>
#include <utility>

#include "bt_eigen.h"
#include "carom/core/contact/separation.h"
#include "carom/core/lie.h"
#include "variational_step.h"

namespace carom {
namespace {

// Overlap left alone (m): ten contact tolerances, so that pairs held at touching within the step's
// round-off are never pushed.
constexpr double kDriftAllowance = 10 * kContactTolerance;
// Fraction of the excess removed per step: Bullet's erp2, spread over a few steps so that a pile
// is not thrown apart at once.
constexpr double kDriftCorrection = 0.2;
// Gauss–Seidel sweeps of the push: Bullet's m_numIterations.
constexpr int kDriftSweeps = 10;

}  // namespace

void VariationalStep::correctIslandDrift(const Island& island) {
  using detail::toEigen;
  std::vector<std::pair<int, Gap>> deep;  // pairs overlapping beyond the allowance, and their gaps
  for (const int p : island.pairs) {
    if (!mayTouch(p)) continue;  // apart all step (its trial poses never closed)
    const CandidatePair& pair = m_pairs[p];
    const Gap g = gapAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
    if (-g.distance <= kDriftAllowance) continue;
    deep.emplace_back(p, g);
  }
  if (deep.empty()) return;  // the bodies' LCP terms are built only where something is pushed
  std::vector<core::impact::ContactBody> bodies = lcpBodiesOf(island);
  std::vector<core::contact::Separation> rows;
  for (const auto& [p, g] : deep) {
    const CandidatePair& pair = m_pairs[p];
    rows.push_back({lcpIndexOf(pair.bodyA, pair.a, bodies), lcpIndexOf(pair.bodyB, pair.b, bodies),
                    toEigen(0.5 * (g.pointOnA + g.pointOnB)), -toEigen(g.normal),
                    kDriftCorrection * (-g.distance - kDriftAllowance) / m_timeStep});
  }
  // Jointed bodies are pushed as their joints move them (the joint rows' pseudo velocities held at
  // zero), so that the push opens the overlap without pulling a joint apart.
  const std::vector<core::contact::JointRow> jointRows = islandJointRows(island);
  std::optional<core::contact::JointSystem> joints;
  if (!jointRows.empty()) joints.emplace(bodies, jointRows);
  const std::vector<core::contact::PseudoVelocity> push =
      core::contact::separationVelocities(bodies, rows, kDriftSweeps, joints ? &*joints : nullptr);
  std::vector<core::BodyState> before;
  double lifted = 0;  // the potential energy the push gives (J)
  for (const int index : island.bodies) {
    core::BodyState& state = stateNowToChange(index);
    before.push_back(state);
    const core::contact::PseudoVelocity& v = push[m_slot[index]];
    state.x += m_timeStep * v.linear;
    state.R = core::expSO3(m_timeStep * v.angular) * state.R;
    lifted += loadsEnergyChange(index, before.back());
  }
  const double kinetic = kineticEnergyOf(island);
  if (lifted > kinetic) {
    // Pushed as far as the kinetic energy pays: the lift is linear in the push's length, to first
    // order in its turn; where the turn makes it dearer still, not pushed at all.
    const double paid = kinetic / lifted;
    lifted = 0;
    for (std::size_t i = 0; i < island.bodies.size(); ++i) {
      core::BodyState& state = stateNowToChange(island.bodies[i]);
      const core::BodyState& from = before[i];
      state.x = from.x + paid * (state.x - from.x);
      state.R = core::expSO3(paid * core::logSO3(state.R * from.R.transpose())) * from.R;
      lifted += loadsEnergyChange(island.bodies[i], from);
    }
    if (lifted > kinetic || !(paid > 0)) {
      for (std::size_t i = 0; i < island.bodies.size(); ++i)
        setStateNow(island.bodies[i], before[i]);
      return;
    }
  }
  if (lifted > 0) takeKineticEnergy(island, lifted, kinetic);
  ++m_diagnostics.driftCorrections;
}

}  // namespace carom
