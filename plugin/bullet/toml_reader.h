// Typed reads out of toml++ nodes for carom's TOML files (config and scenes): every failure is a
// carom::Error "SOURCE:LINE: KEY: problem", so the user sees which key on which line is wrong.
#pragma once

#include <toml++/toml.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "carom/error.h"
#include "config_values.h"

namespace carom {

class TomlReader {
 public:
  explicit TomlReader(std::string_view source) : source_(source) {}

  std::string_view source() const { return source_; }

  [[noreturn]] void fail(const toml::source_region& where, const std::string& key,
                         const std::string& problem) const;

  // For a message that names its key already.
  [[noreturn]] void failAt(const toml::source_region& where, const std::string& message) const;

  // Fails at `node` when `problem` is not empty (the *Problem() checks of config_values.h).
  void require(const toml::node& node, const std::string& key, const std::string& problem) const {
    if (!problem.empty()) fail(node.source(), key, problem);
  }

  const toml::table& table(const toml::node& node, const std::string& key) const;
  std::int64_t integer(const toml::node& node, const std::string& key) const;
  // TOML writes 1 for 1.0; both are numbers here.
  double number(const toml::node& node, const std::string& key) const;
  std::string string(const toml::node& node, const std::string& key) const;
  // An array of exactly N numbers, e.g. a position [x, y, z] or a quaternion [w, x, y, z].
  template <std::size_t N>
  std::array<double, N> numbers(const toml::node& node, const std::string& key) const {
    const toml::array& array = numberArray(node, key, N);
    std::array<double, N> values{};
    for (std::size_t i = 0; i < N; ++i)
      values[i] = number(array[i], key);
    return values;
  }
  // An array of numbers of any length (convex hull points: x, y, z, x, y, z, ...).
  const toml::array& numberArray(const toml::node& node, const std::string& key,
                                 std::size_t expectedSize = 0) const;

  template <class E, std::size_t N>
  E choice(const toml::node& node, const std::string& key,
           const config_values::Choice<E> (&choices)[N]) const {
    const std::string name = string(node, key);
    const auto chosen = config_values::choose(choices, name);
    if (!chosen) {
      fail(node.source(), key,
           "expected " + config_values::oneOf(choices) + ", got \"" + name + "\"");
    }
    return *chosen;
  }

  [[noreturn]] void unknownKey(const toml::key& key, const std::string& path,
                               const std::string& known) const {
    fail(key.source(), path, "unknown key (known here: " + known + ")");
  }

  // A key of the parser's own list (config_keys.h, scene_keys.h) that no branch of it reads: a bug
  // in carom, refused rather than its value silently ignored.
  [[noreturn]] void unreadKey(const toml::key& key, const std::string& path) const {
    fail(key.source(), path, "carom lists this key but does not read it (a bug in carom)");
  }

  // Parses a whole document; malformed TOML fails at its line with the key "TOML".
  toml::table parse(std::string_view text) const;

 private:
  std::string_view source_;
};

}  // namespace carom
