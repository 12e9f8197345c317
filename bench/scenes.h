// The benchmark scenes of issue 5 §5, written as a Bullet user writes them: shapes, bodies and
// Bullet's own restitution and friction, nothing carom-specific, so every solver.kind runs the
// same scene code.
#pragma once

#include "bullet/world_scene.h"

namespace carom::bench {

using World = test::Scene<DynamicsWorld>;

// `bodies` spheres, boxes and ellipsoids (carom::EllipsoidShape) in turn, dropped from a grid into
// an open bin on the ground whose floor grows with `bodies` so that the pile is about five layers
// deep at any count: 4 m × 4 m and 8 × 8 per layer for 300 bodies.
void pourIntoBin(World& scene, int bodies);
// A pyramid of `levels` rows of unit-height boxes standing on the ground (levels·(levels+1)/2).
void boxPyramid(World& scene, int levels);
// The pyramid with a gap of `gap` (m) under every level: all its levels land within a few steps,
// many contacts struck at once.
void droppedBoxPyramid(World& scene, int levels, double gap);
// A running-bond wall of `rows` × `bricks` bricks (0.4 × 0.2 × 0.2 m), at rest on the ground and
// on each other from the first step.
void brickWall(World& scene, int rows, int bricks);
// `hulls` random convex hulls (12 points each, about 0.2 m across, centred on their centre of mass)
// dropped from a grid into a bin.
void pourHulls(World& scene, int hulls);
// `balls` elastic (e = 1, μ = 0) balls moving in random directions inside a closed 3 m box.
void elasticBallsInABox(World& scene, int balls);

// `ragdolls` ragdolls of Bullet's ragdoll demo (examples/RagdollDemo: eleven 1 kg capsules, five
// hinges and five cone-twist joints each, collisions between joined capsules off), dropped in a
// column 2 m apart (as Bullet's BenchmarkDemo stacks them) onto the ground, each turned a quarter
// more than the one below: they land on each other in a pile.
void ragdollPile(World& scene, int ragdolls);

}  // namespace carom::bench
