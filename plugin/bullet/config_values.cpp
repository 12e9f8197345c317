#include "config_values.h"

#include <charconv>
#include <climits>

#include "simultaneous_impact.h"

namespace carom::config_values {

std::string seedProblem(std::int64_t seed) {
  if (seed >= 0) return {};
  return "must be non-negative, got " + std::to_string(seed);
}

std::string maxEventsPerStepProblem(std::int64_t count) {
  if (count >= 1 && count <= INT_MAX) return {};
  return "must lie in [1, " + std::to_string(INT_MAX) + "], got " + std::to_string(count);
}

std::string threadsProblem(std::int64_t count) {
  if (count >= 0 && count <= INT_MAX) return {};
  return "must lie in [0, " + std::to_string(INT_MAX) + "], got " + std::to_string(count);
}

std::string simultaneousContactsProblem(std::int64_t count) {
  constexpr std::int64_t most = detail::kMaxSimultaneousContacts;
  if (count >= 1 && count <= most) return {};
  return "must lie in [1, " + std::to_string(most) + "], got " + std::to_string(count);
}

std::string numberText(double value) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

std::string withoutPrefix(const Error& error) {
  static const std::size_t prefix = std::string(Error("").what()).size();
  return error.what() + prefix;
}

}  // namespace carom::config_values
