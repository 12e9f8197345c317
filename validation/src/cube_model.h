// What one simulation of a toss is run with: the solver mode, the impact law and the fitted
// material parameters. One value names a "case" of the validation (mode × law × roughness).
#pragma once

#include <string>

#include "carom/bullet/config.h"

namespace carom::validation {

// The cube of the data set (data README): half side, mass and the source's fitted inertia.
constexpr double kHalfSide = 0.0524;     // m
constexpr double kSide = 2 * kHalfSide;  // m; position errors are fractions of it
constexpr double kMass = 0.37;           // kg
// About each axis (kg m²): the source's fit, 0.295 kg × (0.0524 m)² = 8.10e-4 (a uniform cube of
// this mass and side: 6.77e-4).
constexpr double kInertia = 0.295 * kHalfSide * kHalfSide;
constexpr double kGravity = 9.81;   // m/s², along −z
constexpr double kFrameRate = 148;  // Hz, the camera's

struct CubeModel {
  SolverKind kind = SolverKind::variational;
  ImpactLawKind law = ImpactLawKind::kStronge;  // ignored by kind = bullet
  int roughness = 0;                            // strict maps' rank k ∈ {0, 1, 2}; else ignored
  double restitution = 0.125;  // e ∈ [0, 1] in the law's own sense; bullet: Bullet's combined e
  // Coulomb μ ≥ 0; bullet: the combined μ. A strict map's binary impacts have none, but carom's
  // persistent contacts and simultaneous impacts use it under every law.
  double friction = 0.18;
  // The tracked centre's height error (m): the true centre is the measured one plus this, so the
  // cube starts this much higher and its simulated heights are reported this much lower.
  double heightOffset = 0;
  int substeps = 1;  // internal steps per camera frame (1/148 s each by default); ≥ 1
};

// "variational/stronge", "variational/strict-k2", "bullet", with "@4" appended for 4 substeps.
std::string caseName(const CubeModel& model);

// Parses caseName's form back (the substeps suffix optional); throws std::invalid_argument.
CubeModel parseCaseName(const std::string& name);

// Whether a case's friction acts anywhere (it does in every case today; see the .cpp).
bool usesFriction(const CubeModel& model);

}  // namespace carom::validation
