#include "metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace carom::validation {

double rotationAngleDegrees(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  // |w| of the relative rotation; q and −q are the same rotation.
  const double w = std::min(1.0, std::abs(a.normalized().dot(b.normalized())));
  return 2 * std::acos(w) * 180 / M_PI;
}

int downFace(const Eigen::Quaterniond& rotation) {
  // The body axis most nearly along world −z is the down face's normal.
  const Eigen::Vector3d downInBody = rotation.conjugate() * Eigen::Vector3d(0, 0, -1);
  int axis = 0;
  downInBody.cwiseAbs().maxCoeff(&axis);
  return 2 * axis + (downInBody[axis] > 0 ? 1 : 0);
}

TossMetrics compare(const Toss& measured, const SimulatedToss& simulated) {
  const std::size_t n = measured.frames.size();
  if (simulated.poses.size() != n)
    throw std::invalid_argument("compare: the simulation has " +
                                std::to_string(simulated.poses.size()) + " frames, the toss " +
                                std::to_string(n));
  TossMetrics m;
  m.toss = measured.number;
  m.penetration = simulated.penetration;
  m.finite = simulated.finite;
  for (std::size_t k = 1; k < n; ++k) {
    const double position =
        (simulated.poses[k].position - measured.frames[k].position).norm() / kSide;
    const double rotation =
        rotationAngleDegrees(measured.frames[k].rotation, simulated.poses[k].rotation);
    m.meanPosition += position / (n - 1);
    m.meanRotation += rotation / (n - 1);
    if (k == n - 1) {
      m.endPosition = position;
      m.endRotation = rotation;
    }
  }
  m.restFaceRight =
      downFace(measured.frames.back().rotation) == downFace(simulated.poses.back().rotation);
  if (!simulated.finite) {  // a blown-up run must not look good through NaN comparisons
    m.meanPosition = m.endPosition = m.meanRotation = m.endRotation = INFINITY;
    m.restFaceRight = false;
  }
  return m;
}

Summary summarize(std::vector<double> values) {
  Summary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  auto percentile = [&](double p) {
    const double rank = p * (values.size() - 1);
    const std::size_t below = static_cast<std::size_t>(std::floor(rank));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (rank - below) * (values[above] - values[below]);
  };
  s.median = percentile(0.5);
  s.p90 = percentile(0.9);
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  return s;
}

Aggregate aggregate(const std::vector<TossMetrics>& metrics) {
  Aggregate a;
  a.tosses = static_cast<int>(metrics.size());
  auto column = [&](double TossMetrics::*field) {
    std::vector<double> values;
    for (const TossMetrics& m : metrics)
      values.push_back(m.*field);
    return summarize(values);
  };
  a.meanPosition = column(&TossMetrics::meanPosition);
  a.endPosition = column(&TossMetrics::endPosition);
  a.meanRotation = column(&TossMetrics::meanRotation);
  a.endRotation = column(&TossMetrics::endRotation);
  a.penetration = column(&TossMetrics::penetration);
  for (const TossMetrics& m : metrics) {
    a.restFaceRight += m.restFaceRight ? 1.0 / metrics.size() : 0.0;
    a.nonFinite += m.finite ? 0 : 1;
  }
  return a;
}

}  // namespace carom::validation
