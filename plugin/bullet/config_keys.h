// The keys a config file may hold, one list per TOML table: Config::parse (config_toml.cpp) accepts
// these and refuses any other, and docs.config_keys (tests/docs/config_keys_test.cpp) checks that
// docs/config.md has a row for each and for no other. A key the parser reads goes here first.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace carom::file_keys {

// A list of keys, kept in the order the "known here: ..." messages name them.
class KeyList {
 public:
  constexpr KeyList() = default;
  template <std::size_t N>
  constexpr KeyList(const std::string_view (&keys)[N]) : keys_(keys), size_(N) {}  // NOLINT

  const std::string_view* begin() const { return keys_; }
  const std::string_view* end() const { return keys_ + size_; }
  bool empty() const { return size_ == 0; }

  bool contains(std::string_view key) const {
    for (std::string_view known : *this) {
      if (known == key) return true;
    }
    return false;
  }

  // "a, b, c", as an unknown-key message names them.
  std::string joined() const {
    std::string text;
    for (std::string_view key : *this) {
      if (!text.empty()) text += ", ";
      text += key;
    }
    return text;
  }

 private:
  const std::string_view* keys_ = nullptr;
  std::size_t size_ = 0;
};

// The top-level tables of a config file.
inline constexpr std::string_view kConfigTables[] = {"solver", "material", "pair"};

// [solver]
inline constexpr std::string_view kSolverKeys[] = {
    "kind", "simultaneous", "seed", "max_events_per_step", "threads", "simultaneous_contacts"};

// [material.NAME] and [pair.A.B]: a pair table takes a material's keys.
inline constexpr std::string_view kMaterialKeys[] = {
    "impact", "restitution", "friction", "impact_friction", "tangential_compliance", "roughness"};

// Appends `prefix` + key for every key of `keys`.
inline void appendKeyPaths(std::vector<std::string>& paths, const std::string& prefix,
                           KeyList keys) {
  for (std::string_view key : keys)
    paths.push_back(prefix + std::string(key));
}

// The keys of top-level table `table` of a config file as docs/config.md writes them, dotted from
// the top with the table names a user chooses in capitals (material.NAME.friction); false for a
// table that is not a config table.
inline bool appendConfigKeyPaths(std::vector<std::string>& paths, std::string_view table) {
  if (table == "solver") {
    appendKeyPaths(paths, "solver.", kSolverKeys);
  } else if (table == "material") {
    appendKeyPaths(paths, "material.NAME.", kMaterialKeys);
  } else if (table == "pair") {
    appendKeyPaths(paths, "pair.A.B.", kMaterialKeys);
  } else {
    return false;
  }
  return true;
}

// Every key of a config file, as docs/config.md writes them. A table of kConfigTables without its
// keys here comes out as "TABLE.?", which no doc row names.
inline std::vector<std::string> configKeyPaths() {
  std::vector<std::string> paths;
  for (std::string_view table : kConfigTables) {
    if (!appendConfigKeyPaths(paths, table)) paths.push_back(std::string(table) + ".?");
  }
  return paths;
}

}  // namespace carom::file_keys
