// What one simulation of a toss is run with: the solver mode, the impact law and the fitted
// material parameters. One value names a "case" of the validation (mode × law × roughness).
#pragma once

#include <Eigen/Core>

#include <string>

#include "carom/bullet/config.h"

namespace carom::validation {

// The cube of the data set (data README): nominal half side and mass.
constexpr double kNominalHalfSide = 0.0524;     // m
constexpr double kSide = 2 * kNominalHalfSide;  // m; position errors are fractions of it
constexpr double kMass = 0.37;                  // kg
constexpr double kFrameRate = 148;              // Hz, the camera's
// The data's lengths per metre (or squared time per s²), measured on the training tosses: their
// flights before the first impact fall at 9.61 m/s² (median of 218 parabola fits, p10–p90
// 9.52–9.74, fit rms 0.02 mm), and the cube rests with its centre at 51.27 mm, 0.978 × the half
// side. The simulation runs in the data's units: gravity and half side both times this.
constexpr double kDataScale = 9.61 / 9.81;
constexpr double kGravity = kDataScale * 9.81;  // m/s² in the data's units, along −z
constexpr double kHalfSide = kDataScale * kNominalHalfSide;  // m in the data's units
// The radius of the cube's rounded edges and corners (m, data units), measured on the training
// tosses: in contact a sharp box's lowest corner would sit below the board by ρ(‖n‖₁ − 1) (n the
// downward unit vector in the body: 0 on a face, 0.41 on an edge, 0.73 on a corner); with each
// toss's resting height removed, the 90th percentile of the frames' depth per bin of ‖n‖₁ − 1
// grows at 2.5 mm (3.3 mm at the 97th, 2.0 mm for the median of frames not in free fall).
constexpr double kEdgeRadius = 0.0025;
// The inertia about each axis as a multiple of m h² (dimensionless), measured on the 228
// single-corner first impacts of the training tosses: the estimate I = Δω·(r × mΔv)/|Δω|² over the
// frames around each impact (median) reads 1.13 on the data, and 1.04, 1.11 and 1.19 on the same
// impacts simulated (variational/stronge) with 0.93, 1.00 and 1.08 (0.96 with the source's 0.80
// and one μ; 1.13 with 1.00 and the rounded edges): 1.00 reproduces the data. A solid uniform
// cube has 2/3, a thin shell 10/9.
constexpr double kInertiaRatio = 1.0;
constexpr double kInertia = kInertiaRatio * kMass * kHalfSide * kHalfSide;  // kg m²
// Coulomb μ of sustained sliding, measured: the training tosses' 268 slides flat on a face (≥ 6
// frames, > 8 cm/s) decelerate at 0.211 g (IQR 0.202–0.221), independent of any simulation: 0.21.
constexpr double kSlidingFriction = 0.21;
// The centre of mass from the geometric centre (the tracked one), in the body frame (m, data
// units), measured on the training tosses' free flights (validation/scripts/centre_of_mass.py): the
// centre of mass moves on gravity's parabola while the tracked centre turns about it; least squares
// over 274 flights give (+0.04, +0.24, +5.13) mm, 90 % intervals −0.48…+0.54, −0.25…+0.91 and
// +3.53…+6.75 mm: 5.1 mm towards the body's +z face, none across it. The real cube rests on that
// face 107 times in 428, on the opposite one 46 (a centred cube's simulations: 70 and 62).
inline const Eigen::Vector3d kCentreOfMass{0, 0, 0.0051};

struct CubeModel {
  SolverKind kind = SolverKind::variational;
  ImpactLawKind law = ImpactLawKind::kStronge;  // ignored by kind = bullet
  int roughness = 0;                            // strict maps' rank k ∈ {0, 1, 2}; else ignored
  // Stronge's law with tangential compliance ("stronge-tc"): η² = tangentialCompliance is fitted as
  // a fourth parameter. Otherwise η² stays 0 (the rigid law).
  bool compliant = false;
  double tangentialCompliance = 0;  // η² = k_n/k_t ≥ 0 (dimensionless), the material key's
  double restitution = 0.125;  // e ∈ [0, 1] in the law's own sense; bullet: Bullet's combined e
  // Coulomb μ ≥ 0 of impacts (binary and simultaneous; a strict map's binary impacts have none) in
  // carom's modes; bullet: Bullet's one combined μ, of impacts and sliding alike.
  double friction = 0.18;
  // Coulomb μ ≥ 0 of sustained contact (carom's persistent contacts); stock Bullet has no separate
  // one and ignores it.
  double slidingFriction = kSlidingFriction;
  // The tracked centre's height error (m): the true centre is the measured one plus this, so the
  // cube starts this much higher and its simulated heights are reported this much lower.
  double heightOffset = 0;
  // The centre of mass from the geometric centre, body frame (m); the bodies' origin and the start
  // fit's parabola are the centre of mass, the poses reported and compared the geometric centre's.
  Eigen::Vector3d centreOfMass = kCentreOfMass;
  int substeps = 1;  // internal steps per camera frame (1/148 s each by default); ≥ 1
};

// "variational/stronge", "variational/stronge-tc" (compliant), "variational/strict-k2", "bullet",
// with "@4" appended for 4 substeps.
std::string caseName(const CubeModel& model);

// Parses caseName's form back (the substeps suffix optional); throws std::invalid_argument.
CubeModel parseCaseName(const std::string& name);

// Whether a case's friction acts anywhere (it does in every case today; see the .cpp).
bool usesFriction(const CubeModel& model);

// The corner `corner` (0…7, a bit per axis: set is +) of a cube of half side `halfSide` (m) about
// the geometric centre, in the body frame of the centre of mass `centreOfMass` (m).
Eigen::Vector3d cubeCorner(int corner, double halfSide, const Eigen::Vector3d& centreOfMass);

}  // namespace carom::validation
