#include "carom/core/jump.h"

namespace carom::core {

double gapRate(const MassProperties& body, const BodyState& state, const GapSample& gap) {
  return body.inverseMass() * gap.dPhidx.dot(state.gamma) +
         gap.chi.dot(body.inverseInertia() * state.Pi);
}

JumpResult elasticJump(const MassProperties& body, const BodyState& state, const GapSample& gap) {
  JumpResult result;
  result.state = state;
  result.phiDotMinus = gapRate(body, state, gap);
  result.phiDotPlus = result.phiDotMinus;
  if (!(result.phiDotMinus < 0.0)) return result;
  // Inverse effective mass along the normal; > 0 since |∂Φ/∂x| = 1.
  const double inverseEffectiveMass =
      body.inverseMass() * gap.dPhidx.squaredNorm() + gap.chi.dot(body.inverseInertia() * gap.chi);
  result.lambda = -2.0 * result.phiDotMinus / inverseEffectiveMass;
  result.state.gamma += result.lambda * gap.dPhidx;  // (4.21a)
  result.state.Pi += result.lambda * gap.chi;        // (4.21b)
  result.phiDotPlus = gapRate(body, result.state, gap);
  result.applied = true;
  return result;
}

}  // namespace carom::core
