// The benchmark scenes of issue 5 §5, written as a Bullet user writes them: shapes, bodies and
// Bullet's own restitution and friction, nothing carom-specific, so every solver.kind runs the
// same scene code.
#pragma once

#include "bullet/world_scene.h"

namespace carom::bench {

using World = test::Scene<DynamicsWorld>;

// `bodies` spheres, boxes and ellipsoids (carom::EllipsoidShape) in turn, dropped from a grid into
// an open 4 m × 4 m bin on the ground.
void pourIntoBin(World& scene, int bodies);
// A pyramid of `levels` rows of unit-height boxes standing on the ground (levels·(levels+1)/2).
void boxPyramid(World& scene, int levels);
// `balls` elastic (e = 1, μ = 0) balls moving in random directions inside a closed 3 m box.
void elasticBallsInABox(World& scene, int balls);

}  // namespace carom::bench
