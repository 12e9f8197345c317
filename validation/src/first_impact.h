// Part 4 of issue 30: at a toss's first impact, where several corners strike within the contact
// tolerance, the sampled Halm–Posa set of outcomes against the measured velocity after the impact,
// and against single-outcome resolutions of the same impact.
#pragma once

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <vector>

#include "cube_model.h"
#include "toss.h"

namespace carom::validation {

struct FirstImpactOptions {
  // Frames whose vertical velocities (backward differences) jump up by more than this bracket the
  // first impact (m/s); gravity alone changes them by −g Δt = −0.066 m/s a frame.
  double velocityJump = 0.5;
  // Corners within this height of the lowest one at the last frame before the impact strike
  // together (m): the cube turns and falls ~1 cm a frame, so a few mm is "at once" at this rate.
  double contactTolerance = 0.003;
  double heightOffset = 0.001;  // added to measured heights (m), as in the fits
  double friction = 0.18;       // μ of the Halm–Posa problem's contacts (dimensionless)
  // Poisson restitution applied to every outcome, v⁺ = v⁻ + (1 + e)(v_c − v⁻): the set itself is
  // of compression impulses only (digest §5), the measurement is not.
  double restitution = 0.12;
  int samples = 512;  // Algorithm 2's samples per impact
  // The centre of mass from the geometric centre, body frame (m): the problem's body and the
  // velocities compared are the centre of mass's.
  Eigen::Vector3d centreOfMass = kCentreOfMass;
};

// One multi-corner first impact and how each resolution did. Velocities are 6-vectors
// [v; ω] in the board frame (m/s, rad/s); distances are kinetic, √(Δvᵀ M Δv / m) in m/s.
struct FirstImpactResult {
  int toss = -1;
  int frame = -1;  // the last frame before the impact
  int corners = 0;
  double setDistance = 0;  // from the measured v⁺ to the nearest point of the set
  double setRadius = 0;    // the set's largest distance from its mean
  // The nearest sample's miss split: |Δv| of the centre (m/s) and √(I/m)|Δω| of the spin (m/s),
  // whose squares add up to setDistance².
  double setLinearMiss = 0, setSpinMiss = 0;
  std::vector<std::string> models;  // single-outcome resolutions, as named
  std::vector<double> modelDistance;
};

// nullopt when the toss has no clear first impact or it strikes with one corner.
std::optional<FirstImpactResult> analyseFirstImpact(const Toss& toss,
                                                    const FirstImpactOptions& options);

}  // namespace carom::validation
