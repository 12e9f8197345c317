#include "config_values.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace carom::config_values {

std::string restitutionProblem(double restitution) {
  if (std::isfinite(restitution) && restitution >= 0.0 && restitution <= 1.0) return {};
  return "must lie in [0, 1], got " + std::to_string(restitution);
}

std::string frictionProblem(double friction) {
  if (std::isfinite(friction) && friction >= 0.0) return {};
  return "must be finite and non-negative, got " + std::to_string(friction);
}

std::string roughnessProblem(std::int64_t roughness) {
  if (roughness >= 0 && roughness <= 2) return {};
  return "must be 0 (smooth), 1 (rough across one tangent) or 2 (fully rough), got " +
         std::to_string(roughness);
}

std::string seedProblem(std::int64_t seed) {
  if (seed >= 0) return {};
  return "must be non-negative, got " + std::to_string(seed);
}

std::string maxEventsPerStepProblem(std::int64_t count) {
  if (count >= 1 && count <= INT_MAX) return {};
  return "must lie in [1, " + std::to_string(INT_MAX) + "], got " + std::to_string(count);
}

Material combined(const Material& first, const Material& second) {
  Material m;
  m.impact = first.impact;
  m.restitution = std::max(first.restitution, second.restitution);
  m.friction = std::sqrt(first.friction * second.friction);
  m.roughness = std::min(first.roughness, second.roughness);
  return m;
}

}  // namespace carom::config_values
