// A toss re-simulated in a carom::DynamicsWorld: the cube on a static ground plane, started from
// the toss's first measured state and sampled at the measured frame times.
#pragma once

#include <Eigen/Geometry>

#include <string>
#include <vector>

#include "cube_model.h"
#include "toss.h"

namespace carom::validation {

struct Pose {
  Eigen::Vector3d position;     // m, board frame, as the tracker would report it (offset removed)
  Eigen::Quaterniond rotation;  // body to board
};

struct SimulatedToss {
  std::vector<Pose> poses;  // one per measured frame, poses[0] the initial state
  double penetration = 0;   // deepest a corner went below the board over all internal steps (m)
  bool finite = true;       // false if any state went NaN or infinite (the rest is then unusable)
  // The distinct laws of the impact events carom reported ("newton", "routh", …); none in bullet
  // mode. Tells which law actually ran.
  std::vector<std::string> laws;
};

// The first measured state as the simulation starts from it: pose of frame 0, and the velocity at
// t₀ rebuilt from frames 0–1 (the data's velocities are backward differences, half a frame old):
// v(t₀) = (x₁ − x₀)/Δt + g Δt/2 ẑ, ω the body-frame rate of row 1 turned into the board frame
// (the cube's inertia is isotropic, so ω is constant in flight).
struct InitialState {
  Eigen::Vector3d position, velocity, omegaWorld;
  Eigen::Quaterniond rotation;
};
InitialState initialState(const Toss& toss);

// Runs `toss` with `model` for as many frames as the toss has.
SimulatedToss simulate(const Toss& toss, const CubeModel& model);

// Simulates `frames` frames from `start` (used by simulate and by the synthetic tests).
SimulatedToss simulateFrom(const InitialState& start, int frames, const CubeModel& model);

}  // namespace carom::validation
