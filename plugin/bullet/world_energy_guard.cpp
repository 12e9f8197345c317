// The energy guard of islands with persistent contacts. Impacts and free flight keep or lose energy
// exactly as their laws say; the persistent contacts' kick–flow–kick is a time-stepping of
// continuous contact whose impulse is computed at the step's start geometry, and where the flow
// turns a body about a held edge or corner its error of order m g h² can have either sign. Contacts
// with friction or inelastic ones never give energy, so such a gain is removed from the island's
// kinetic energy by scaling its velocities, and reported.
//
// Where the island ends the step nearly at rest the gain is potential energy, beyond what scaling
// can take: a box tilted on its corners over the ground, its corners held as speculative contacts,
// kicked up by the first half of their impulse and stopped by the plastic LCP at the end of the
// step, ends it at rest and higher than it began. The rest of the gain is then taken from the
// island's motion over the step: every body at rest is moved back along its path, x and R from
// their start values toward the end ones on SE(3), to the fraction s of it at which the island's
// energy is what it was (gravity's and the loads' share of the energy are linear in s along that
// path). The start poses are the last step's end poses, so the bodies stay where the step allowed
// them; the moves are a fraction of a millimetre.
#include <algorithm>
#include <cmath>
#include <vector>

#include "carom/core/lie.h"
#include "variational_step.h"

namespace carom {

double VariationalStep::loadsEnergyChange(int index, const core::BodyState& from) const {
  const StepBody& body = m_bodies[index];
  const core::BodyState& state = stateNow(index);
  return core::energy(body.mass, state, body.load.gravity).potential -
         core::energy(body.mass, from, body.load.gravity).potential -
         body.load.force.dot(state.x - from.x) -
         body.load.torque.dot(core::logSO3(state.R * from.R.transpose()));
}

double VariationalStep::kineticEnergyOf(const Island& island) const {
  double kinetic = 0;
  for (const int index : island.bodies) {
    const StepBody& body = m_bodies[index];
    kinetic += core::energy(body.mass, stateNow(index), body.load.gravity).kinetic();
  }
  return kinetic;
}

void VariationalStep::takeKineticEnergy(const Island& island, double energy, double kinetic) {
  const double scale = kinetic > energy ? std::sqrt((kinetic - energy) / kinetic) : 0.0;
  for (const int index : island.bodies) {
    core::BodyState& state = stateNowToChange(index);
    state.gamma *= scale;
    state.Pi *= scale;
  }
}

namespace {

// A kinematic body that moves: it does work on what it pushes, which no energy balance of the
// island's own bodies can tell from an error.
bool movingKinematic(const btCollisionObject* object) {
  const btRigidBody* body = btRigidBody::upcast(object);
  return body != nullptr && body->isKinematicObject() &&
         !(body->getLinearVelocity().isZero() && body->getAngularVelocity().isZero());
}

}  // namespace

void VariationalStep::guardIslandEnergy(const Island& island) {
  // An island a moving kinematic body drives may gain energy (a lift raises what lies on it): left
  // alone. Guarded, a box on a rising platform would lose each step what the platform gives it,
  // and the platform would go up through it.
  for (const int p : island.pairs) {
    const CandidatePair& pair = m_pairs[p];
    if ((pair.bodyA == kFixed && movingKinematic(pair.a)) ||
        (pair.bodyB == kFixed && movingKinematic(pair.b)))
      return;
  }
  // The island's energy at its end poses less at its start, less the user's loads' work over the
  // step: its potential part (gravity's and the loads', both linear along the path back), and its
  // kinetic energy at the end and the start.
  double potential = 0, kineticBefore = 0;
  for (const int index : island.bodies) {
    const StepBody& body = m_bodies[index];
    potential += loadsEnergyChange(index, m_start[index]);
    kineticBefore += core::energy(body.mass, m_start[index], body.load.gravity).kinetic();
  }
  const double kinetic = kineticEnergyOf(island);
  const double excess = potential + kinetic - kineticBefore;
  if (!(excess > 0)) return;
  takeKineticEnergy(island, excess, kinetic);
  m_diagnostics.energyRemoved += excess;
  if (kinetic >= excess) return;
  // At rest now, the island's energy at the fraction s of the path back is
  // potential·s − kineticBefore, to be zero: s = kineticBefore / potential, below 1 as potential
  // exceeds kineticBefore here.
  const double s = kineticBefore / potential;
  const auto gapsNow = [&] {
    std::vector<double> gaps;
    for (const int p : island.pairs) {
      const CandidatePair& pair = m_pairs[p];
      gaps.push_back(gapAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), 1.0).distance);
    }
    return gaps;
  };
  const std::vector<double> endGaps = gapsNow();
  for (const int index : island.bodies) {
    core::BodyState& state = stateNowToChange(index);
    const core::BodyState& start = m_start[index];
    state.x = start.x + s * (state.x - start.x);
    state.R = core::expSO3(s * core::logSO3(state.R * start.R.transpose())) * start.R;
  }
  // The path back is a line in x and a geodesic in R about the centre of mass, not the path the
  // flow took: a body that turned about a held point can cut into what it turned on there (a
  // cylinder toppling over its rim). Where a pair would end deeper than at the end of the step and
  // than touching, the island goes back to its start poses: at rest where the last step left it, it
  // loses its kinetic energy at the start, not the excess only.
  const std::vector<double> backGaps = gapsNow();
  for (std::size_t k = 0; k < backGaps.size(); ++k) {
    if (backGaps[k] >= std::min(0.0, endGaps[k]) - kContactTolerance) continue;
    for (const int index : island.bodies) {
      core::BodyState& state = stateNowToChange(index);
      state.x = m_start[index].x;
      state.R = m_start[index].R;
    }
    m_diagnostics.energyRemoved += kineticBefore;  // at rest where it started the step
    return;
  }
}

}  // namespace carom
