// Config::parse and the config tables a scene shares with it ([solver], [material], [pair]). Every
// value is type- and range-checked where it is read, so an error names its key and line.
#include <algorithm>
#include <climits>
#include <map>
#include <string>

#include "carom/bullet/config.h"
#include "carom/error.h"
#include "config_keys.h"
#include "config_toml.h"
#include "config_values.h"
#include "toml_reader.h"

namespace carom {

using namespace config_values;
using file_keys::KeyList;

namespace {

void readSolver(const TomlReader& reader, const toml::table& table, SolverSettings& solver) {
  const KeyList keys = file_keys::kSolverKeys;
  for (const auto& [key, node] : table) {
    const std::string path = "solver." + std::string(key.str());
    if (!keys.contains(key.str())) {
      reader.unknownKey(key, path, keys.joined());
    } else if (key == "kind") {
      solver.kind = reader.choice(node, path, kSolverKinds);
    } else if (key == "simultaneous") {
      solver.simultaneous = reader.choice(node, path, kSimultaneousModels);
    } else if (key == "seed") {
      const std::int64_t seed = reader.integer(node, path);
      reader.require(node, path, seedProblem(seed));
      solver.seed = static_cast<std::uint64_t>(seed);
    } else if (key == "max_events_per_step") {
      const std::int64_t count = reader.integer(node, path);
      reader.require(node, path, maxEventsPerStepProblem(count));
      solver.maxEventsPerStep = static_cast<int>(count);
    } else if (key == "threads") {
      const std::int64_t count = reader.integer(node, path);
      reader.require(node, path, threadsProblem(count));
      solver.threads = static_cast<int>(count);
    } else if (key == "simultaneous_contacts") {
      const std::int64_t count = reader.integer(node, path);
      reader.require(node, path, simultaneousContactsProblem(count));
      solver.simultaneousContacts = static_cast<int>(count);
    } else {
      reader.unreadKey(key, path);
    }
  }
}

// A material or pair table named `name` over `base`; `impactGiven` tells whether it named its
// impact law. The core judges every value (core::impact::validateMaterial, parseImpactLawKind);
// its message is reported at the key's line.
Material readMaterial(const TomlReader& reader, const toml::table& table, const std::string& prefix,
                      const std::string& name, Material base, bool& impactGiven) {
  impactGiven = false;
  base.name = name;
  const KeyList keys = file_keys::kMaterialKeys;
  // Not structured bindings: the lambda captures the key's node, which C++17 allows only for
  // variables (clang refuses a binding).
  for (const auto& entry : table) {
    const toml::key& key = entry.first;
    const toml::node& node = entry.second;
    const std::string path = prefix + "." + std::string(key.str());
    const auto judged = [&](auto read) {
      try {
        read();
        core::impact::validateMaterial(base);
      } catch (const Error& e) {
        reader.fail(node.source(), path, withoutPrefix(e));
      }
    };
    if (!keys.contains(key.str())) {
      reader.unknownKey(key, path, keys.joined());
    } else if (key == "impact") {
      if (!node.is_string()) reader.fail(node.source(), path, "expected a string");
      judged([&] { base.impact = core::impact::parseImpactLawKind(node.as_string()->get()); });
      impactGiven = true;
    } else if (key == "restitution") {
      base.restitution = reader.number(node, path);
      judged([] {});
    } else if (key == "friction") {
      base.friction = reader.number(node, path);
      judged([] {});
    } else if (key == "impact_friction") {
      base.impactFriction = reader.number(node, path);
      judged([] {});
    } else if (key == "tangential_compliance") {
      base.tangentialCompliance = reader.number(node, path);
      judged([] {});
    } else if (key == "roughness") {
      const std::int64_t roughness = reader.integer(node, path);
      if (roughness < INT_MIN || roughness > INT_MAX) {
        reader.fail(node.source(), path, "must be 0, 1 or 2, got " + std::to_string(roughness));
      }
      judged([&] { base.roughness = static_cast<int>(roughness); });
    } else {
      reader.unreadKey(key, path);
    }
  }
  return base;
}

// [material.default] first: the other materials start from it.
void readMaterials(const TomlReader& reader, const toml::table& table, Config& config) {
  bool impactGiven = false;
  if (const toml::node* node = table.get("default")) {
    config.setMaterial(
        "default", readMaterial(reader, reader.table(*node, "material.default"), "material.default",
                                "default", Material{}, impactGiven));
  }
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (name == "default") continue;
    const std::string path = "material." + name;
    config.setMaterial(name, readMaterial(reader, reader.table(node, path), path, name,
                                          config.material("default"), impactGiven));
  }
}

// [pair.A.B]: both materials defined; left-out keys follow the blend of the combination rule,
// which cannot choose between two different impact laws.
void readPairs(const TomlReader& reader, const toml::table& table, Config& config) {
  std::map<std::pair<std::string, std::string>, std::string> given;  // order-free pair → its path
  for (const auto& [firstKey, firstNode] : table) {
    const std::string first(firstKey.str());
    for (const auto& entry : reader.table(firstNode, "pair." + first)) {
      const toml::key& secondKey = entry.first;  // captured below: a variable, not a binding
      const toml::node& node = entry.second;
      const std::string second(secondKey.str());
      const std::string path = "pair." + first + "." + second;
      const auto& pairTable = reader.table(node, path);
      const auto [other, isNew] = given.emplace(std::minmax(first, second), path);
      if (!isNew) {
        reader.fail(secondKey.source(), path,
                    "[" + other->second + "] and [" + path +
                        "] both give this pair (order-free); keep one");
      }
      const auto atPair = [&](auto action) {
        try {
          return action();
        } catch (const Error& e) {
          reader.fail(secondKey.source(), path, withoutPrefix(e));
        }
      };
      const Material a = atPair([&] { return config.material(first); });
      const Material b = atPair([&] { return config.material(second); });
      bool impactGiven = false;
      const Material pair = readMaterial(reader, pairTable, path, first + "/" + second,
                                         core::impact::blendMaterials(a, b), impactGiven);
      if (!impactGiven && a.impact != b.impact) {
        reader.fail(secondKey.source(), path,
                    "materials \"" + first + "\" and \"" + second +
                        "\" name different impact laws; the pair table must set impact");
      }
      try {
        config.setPair(first, second, pair);
      } catch (const Error& e) {
        reader.failAt(secondKey.source(), withoutPrefix(e));  // "pair.A.B: …" already
      }
    }
  }
}

}  // namespace

void readConfigTables(const TomlReader& reader, const toml::table& root, Config& config) {
  if (const toml::node* node = root.get("solver")) {
    readSolver(reader, reader.table(*node, "solver"), config.solver);
  }
  if (const toml::node* node = root.get("material")) {
    readMaterials(reader, reader.table(*node, "material"), config);
  }
  if (const toml::node* node = root.get("pair")) {
    readPairs(reader, reader.table(*node, "pair"), config);
  }
}

Config Config::parse(std::string_view text, std::string_view source) {
  const TomlReader reader(source);
  const toml::table root = reader.parse(text);
  const KeyList tables = file_keys::kConfigTables;
  for (const auto& [key, node] : root) {
    if (!tables.contains(key.str()))
      reader.unknownKey(key, std::string(key.str()), tables.joined());
  }
  Config config;
  readConfigTables(reader, root, config);
  return config;
}

}  // namespace carom
