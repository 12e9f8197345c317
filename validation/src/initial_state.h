// The state a toss is simulated from: the cube's pose and velocities at its first frame, estimated
// from the free flight before it first comes near the board.
#pragma once

#include <Eigen/Geometry>

#include "toss.h"

namespace carom::validation {

struct InitialState {
  // The centre of mass's position and velocity (m, m/s), the angular velocity (rad/s), board frame.
  Eigen::Vector3d position, velocity, omegaWorld;
  Eigen::Quaterniond rotation;  // body to board
  // The frames the estimate fitted (frame 0 on); 2 where it fell back on the first two frames'
  // difference. Zero for a state built by hand.
  int flightFrames = 0;
};

// How far the frames fitted stay from the board: the sharp box's lowest corner at least this
// high (m, data units), so that no rounded corner is within 3 mm of contact (the data's depth
// envelope reaches 2.8 mm at a corner; cube_model.h, kEdgeRadius).
constexpr double kFlightClearance = 0.003;
// The largest turn from frame 0 that a fitted frame may have (rad): the rotation vectors stay
// well inside their range of ±π, where they would wrap.
constexpr double kLargestFittedTurn = 2.5;

// The free flight's least-squares fit, frames 0 … n−1 while the cube is above kFlightClearance and
// has turned less than kLargestFittedTurn: the centre of mass (the tracked centre x_k plus R_k c,
// c = `centreOfMass` in the body frame) on a parabola of the model's gravity,
// x_k + R_k c + g t_k²/2 ẑ = x₀ + v t_k, and the rotation at a constant rate in the board frame
// (the inertia is isotropic, so torque-free flight keeps ω), log(q_k q_0⁻¹) = δ + ω t_k, the start
// exp(δ) q_0. Each frame's tracking noise (0.02 mm, a fraction of a degree) over one frame's
// 6.8 ms is 0.005 m/s and a few 0.1 rad/s of velocity; a dozen frames average it down. With fewer
// than three such frames: the velocity at t₀ from frames 0–1, (x₁ − x₀)/Δt + gΔt/2 ẑ (the data's
// velocities are backward differences, half a frame old; x_k the centre of mass's), and ω row 1's
// body rate turned into the board frame, the position and rotation frame 0's.
InitialState initialState(const Toss& toss, const Eigen::Vector3d& centreOfMass);

// The centre of mass at `frame` (m, board frame): the tracked centre plus R c, c = `centreOfMass`
// in the body frame.
Eigen::Vector3d massCentre(const Frame& frame, const Eigen::Vector3d& centreOfMass);

}  // namespace carom::validation
