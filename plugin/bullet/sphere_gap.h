// Two spheres' gap from their centres and radii: carom::gap's closed form for a pair of
// btSphereShapes, for callers that hold the centres without the shapes' frames (the variational
// step's gap queries). Internal to the plugin.
#pragma once

#include "carom/bullet/gap.h"

namespace carom {

// The gap of sphere A (centre a, radius ra) against sphere B, in Gap's convention (the normal from
// B towards A; any unit normal for coincident centres).
Gap sphereSphereGap(const btVector3& a, btScalar ra, const btVector3& b, btScalar rb);

}  // namespace carom
