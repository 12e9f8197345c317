// How far a simulated toss is from the measured one, per toss and over many tosses.
#pragma once

#include <Eigen/Geometry>

#include <vector>

#include "cube_sim.h"
#include "toss.h"

namespace carom::validation {

struct TossMetrics {
  int toss = -1;
  // |x_sim − x_meas| over the cube's side (0.1048 m), averaged over frames 1…N−1 and at frame N−1.
  double meanPosition = 0, endPosition = 0;
  // The angle of q_meas⁻¹ q_sim (degrees), averaged over frames 1…N−1 and at frame N−1.
  double meanRotation = 0, endRotation = 0;
  bool restFaceRight = false;  // the same body face points down at the last frame
  double penetration = 0;      // deepest corner below the board in the simulation (m)
  bool finite = true;          // the simulation stayed finite
};

// The angle between two orientations (degrees, in [0, 180]).
double rotationAngleDegrees(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

// The face of the cube that points down under `rotation`: 0…5 for body −x, +x, −y, +y, −z, +z.
int downFace(const Eigen::Quaterniond& rotation);

// Compares frame by frame; `simulated.poses` must have one pose per measured frame.
TossMetrics compare(const Toss& measured, const SimulatedToss& simulated);

// Median, mean and 90th percentile of one metric over tosses. Percentiles interpolate linearly
// between order statistics (numpy's default): p of sorted x at rank p (n − 1).
struct Summary {
  double median = 0, mean = 0, p90 = 0;
};
Summary summarize(std::vector<double> values);

// Each metric summarized over tosses, and the fractions of tosses on the right face / finite.
struct Aggregate {
  int tosses = 0;
  Summary meanPosition, endPosition, meanRotation, endRotation, penetration;
  double restFaceRight = 0;  // fraction of tosses
  int nonFinite = 0;         // tosses whose simulation went NaN or infinite
};
Aggregate aggregate(const std::vector<TossMetrics>& metrics);

}  // namespace carom::validation
