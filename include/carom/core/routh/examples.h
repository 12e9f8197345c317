// The planar examples of Halm & Posa §6 (digest §6, parameters of Tables 4–8 and the authors'
// code), stated exactly in generalized coordinates: the reference problems of the validation
// tests and the benchmarks. Planar bodies use q = [x, y, θ] (y up, θ counter-clockwise), g = 9.81.
#pragma once

#include <Eigen/Dense>

#include "carom/core/routh/problem.h"

namespace carom::core::routh {

struct ImpactExample {
  ImpactProblem problem;
  Eigen::VectorXd vMinus;  ///< pre-impact generalized velocity v⁻
  double stepSize;         ///< h of the paper's table (impulse, N·s)
  int maxSteps;            ///< N of the paper's table
};

/// Table 4: 1 m × 2 m block, 1 kg, μ = 1, dropped flat from 1 cm (v0 = √(2·9.81·0.01)).
/// Contacts A = bottom-left, B = bottom-right corner. h = 0.3, N = 10.
ImpactExample rockingBlock();
/// Table 5: massless hip (prismatic x, y) and two 1 m legs with 1 kg point masses at mid-leg,
/// q = [x, y, φ_lead, φ_trail], legs at ∓78°, both legs at 0.25 rad/s so the trailing foot is
/// still. μ = 5 (digest §10). Contacts A = leading foot, B = trailing foot. h = 0.25, N = 5.
ImpactExample compassGait();
/// Table 6: unit square, 1 kg, tilted 10°, sliding at 1 m/s into a wall at x = 0 while its lowest
/// corner slides on the floor; μ = 1. Contacts A = floor corner, B = wall corner. h = 2, N = 5.
ImpactExample boxAndWall();
/// Table 8: three unit disks (1 kg, I = 0.5), two on the ground touching each other and a third on
/// top of them falling at 1 m/s; μ = √3. q = [left; right; top], each [x, y, θ]. Contacts
/// A ground–left, B ground–right, C top–left, D top–right, E left–right (the code's order), with
/// tangents orthogonal to the normals (digest §6.5: not the released code's tangent). h = 1, N
/// = 10.
ImpactExample diskStack();

}  // namespace carom::core::routh
