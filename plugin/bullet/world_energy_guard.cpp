// The energy guard of islands with persistent contacts. Impacts and free flight keep or lose
// energy exactly as their laws say; the persistent contacts' kick–flow–kick is a time-stepping of
// continuous contact whose impulse is computed at the step's start geometry, and where the flow
// turns a body about a held edge or corner its error of order m g h² can have either sign
// (measured: up to 7e-4 J per step for a 1 kg box pivoting on an edge at 60 Hz). Contacts with
// friction or inelastic ones never give energy, so such a gain is removed from the island's
// kinetic energy by scaling its velocities, and reported.
#include <cmath>

#include "carom/core/lie.h"
#include "variational_step.h"

namespace carom {

void VariationalStep::guardIslandEnergy(const Island& island) {
  double before = 0, after = 0, kinetic = 0, work = 0;
  for (const int index : island.bodies) {
    const StepBody& body = m_bodies[index];
    const core::BodyState& start = m_start[index];
    before += core::energy(body.mass, start, body.load.gravity).total();
    const core::Energy end = core::energy(body.mass, body.state, body.load.gravity);
    after += end.total();
    kinetic += end.kinetic();
    // The user's constant force and torque over the step's displacement and rotation.
    work += body.load.force.dot(body.state.x - start.x) +
            body.load.torque.dot(core::logSO3(body.state.R * start.R.transpose()));
  }
  const double excess = after - before - work;
  if (!(excess > 0) || !(kinetic > 0)) return;
  const double scale = std::sqrt(std::max(0.0, kinetic - excess) / kinetic);
  for (const int index : island.bodies) {
    m_bodies[index].state.gamma *= scale;
    m_bodies[index].state.Pi *= scale;
  }
  m_diagnostics.energyRemoved += std::min(excess, kinetic);
}

}  // namespace carom
