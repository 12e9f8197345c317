// A toss re-simulated in a carom::DynamicsWorld: the cube on a static ground plane, started from
// the toss's first state (initial_state.h) and sampled at the measured frame times.
#pragma once

#include <Eigen/Geometry>

#include <string>
#include <vector>

#include "cube_model.h"
#include "initial_state.h"
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

// Runs `toss` with `model` for as many frames as the toss has.
SimulatedToss simulate(const Toss& toss, const CubeModel& model);

// Simulates `frames` frames from `start`, the centre of mass's state (used by simulate and by the
// synthetic tests).
SimulatedToss simulateFrom(const InitialState& start, int frames, const CubeModel& model);

}  // namespace carom::validation
