// The vocabulary of carom::Config shared by the TOML reader, the environment and the C++ setters:
// the names of the enumerations and the admissible range of every value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "carom/bullet/config.h"
#include "carom/error.h"

namespace carom::config_values {

template <class E>
struct Choice {
  std::string_view name;
  E value;
};

inline constexpr Choice<SolverKind> kSolverKinds[] = {{"bullet", SolverKind::bullet},
                                                      {"lcp", SolverKind::lcp},
                                                      {"variational", SolverKind::variational}};
inline constexpr Choice<SimultaneousModel> kSimultaneousModels[] = {
    {"routh", SimultaneousModel::routh},
    {"simultaneous", SimultaneousModel::simultaneous},
    {"sequential", SimultaneousModel::sequential}};

template <class E, std::size_t N>
std::optional<E> choose(const Choice<E> (&choices)[N], std::string_view name) {
  for (const auto& choice : choices) {
    if (choice.name == name) return choice.value;
  }
  return std::nullopt;
}

template <class E, std::size_t N>
const char* nameOf(const Choice<E> (&choices)[N], E value) {
  for (const auto& choice : choices) {
    if (choice.value == value) return choice.name.data();
  }
  return "?";
}

// "one of "a", "b", "c"", for error messages.
template <class E, std::size_t N>
std::string oneOf(const Choice<E> (&choices)[N]) {
  std::string text = "one of";
  for (std::size_t i = 0; i < N; ++i) {
    text += (i == 0 ? " \"" : ", \"") + std::string(choices[i].name) + "\"";
  }
  return text;
}

// Each returns what is wrong with a value, or an empty string when it is admissible. (Material
// values are the core's to judge: core::impact::validateMaterial.)
std::string seedProblem(std::int64_t seed);
std::string maxEventsPerStepProblem(std::int64_t count);
std::string threadsProblem(std::int64_t count);
std::string simultaneousContactsProblem(std::int64_t count);

// The shortest text that reads back as `value` (1e-320, not 9.9998886718268301e-321), for messages.
std::string numberText(double value);

// An error's message without the "carom: " every carom::Error starts with, to nest it in another.
std::string withoutPrefix(const Error& error);

}  // namespace carom::config_values
