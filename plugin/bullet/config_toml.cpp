// Config::parse: the only place that sees toml++. Every value is type- and range-checked where it
// is read, so an error names its key and line.
#include <toml++/toml.h>

#include <climits>
#include <string>

#include "carom/bullet/config.h"
#include "carom/error.h"
#include "config_values.h"

namespace carom {

using namespace config_values;

namespace {

// Reads typed values out of TOML nodes; every failure is "SOURCE:LINE: KEY: problem".
class Reader {
 public:
  explicit Reader(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(const toml::source_region& where, const std::string& key,
                         const std::string& problem) const {
    throw Error(std::string(source_) + ":" + std::to_string(where.begin.line) + ": " + key + ": " +
                problem);
  }

  // For a message that names its key already.
  [[noreturn]] void failAt(const toml::source_region& where, const std::string& message) const {
    throw Error(std::string(source_) + ":" + std::to_string(where.begin.line) + ": " + message);
  }

  void require(const toml::node& node, const std::string& key, const std::string& problem) const {
    if (!problem.empty()) fail(node.source(), key, problem);
  }

  const toml::table& table(const toml::node& node, const std::string& key) const {
    if (!node.is_table()) fail(node.source(), key, "expected a table, got " + typeName(node));
    return *node.as_table();
  }

  std::int64_t integer(const toml::node& node, const std::string& key) const {
    if (!node.is_integer()) fail(node.source(), key, "expected an integer, got " + typeName(node));
    return node.as_integer()->get();
  }

  // TOML writes 1 for 1.0; both are numbers here.
  double number(const toml::node& node, const std::string& key) const {
    if (node.is_integer()) return static_cast<double>(node.as_integer()->get());
    if (!node.is_floating_point())
      fail(node.source(), key, "expected a number, got " + typeName(node));
    return node.as_floating_point()->get();
  }

  template <class E, std::size_t N>
  E choice(const toml::node& node, const std::string& key, const Choice<E> (&choices)[N]) const {
    if (!node.is_string()) fail(node.source(), key, "expected a string, got " + typeName(node));
    const std::string& name = node.as_string()->get();
    const auto chosen = choose(choices, name);
    if (!chosen) fail(node.source(), key, "expected " + oneOf(choices) + ", got \"" + name + "\"");
    return *chosen;
  }

  [[noreturn]] void unknownKey(const toml::key& key, const std::string& path,
                               const std::string& known) const {
    fail(key.source(), path, "unknown key (known here: " + known + ")");
  }

 private:
  static std::string typeName(const toml::node& node) {
    switch (node.type()) {
      case toml::node_type::table:
        return "a table";
      case toml::node_type::array:
        return "an array";
      case toml::node_type::string:
        return "a string";
      case toml::node_type::integer:
        return "an integer";
      case toml::node_type::floating_point:
        return "a floating-point number";
      case toml::node_type::boolean:
        return "a boolean";
      default:
        return "a date or time";
    }
  }

  std::string_view source_;
};

void readSolver(const Reader& reader, const toml::table& table, SolverSettings& solver) {
  for (const auto& [key, node] : table) {
    const std::string path = "solver." + std::string(key.str());
    if (key == "kind") {
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
    } else {
      reader.unknownKey(key, path, "kind, simultaneous, seed, max_events_per_step");
    }
  }
}

// A material or pair table named `name` over `base`; `impactGiven` tells whether it named its
// impact law. The core judges every value (core::impact::validateMaterial, parseImpactLawKind);
// its message is reported at the key's line.
Material readMaterial(const Reader& reader, const toml::table& table, const std::string& prefix,
                      const std::string& name, Material base, bool& impactGiven) {
  impactGiven = false;
  base.name = name;
  for (const auto& [key, node] : table) {
    const std::string path = prefix + "." + std::string(key.str());
    const auto judged = [&](auto read) {
      try {
        read();
        core::impact::validateMaterial(base);
      } catch (const Error& e) {
        reader.fail(node.source(), path, withoutPrefix(e));
      }
    };
    if (key == "impact") {
      if (!node.is_string()) reader.fail(node.source(), path, "expected a string");
      judged([&] { base.impact = core::impact::parseImpactLawKind(node.as_string()->get()); });
      impactGiven = true;
    } else if (key == "restitution") {
      base.restitution = reader.number(node, path);
      judged([] {});
    } else if (key == "friction") {
      base.friction = reader.number(node, path);
      judged([] {});
    } else if (key == "roughness") {
      const std::int64_t roughness = reader.integer(node, path);
      if (roughness < INT_MIN || roughness > INT_MAX) {
        reader.fail(node.source(), path, "must be 0, 1 or 2, got " + std::to_string(roughness));
      }
      judged([&] { base.roughness = static_cast<int>(roughness); });
    } else {
      reader.unknownKey(key, path, "impact, restitution, friction, roughness");
    }
  }
  return base;
}

// [material.default] first: the other materials start from it.
void readMaterials(const Reader& reader, const toml::table& table, Config& config) {
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
void readPairs(const Reader& reader, const toml::table& table, Config& config) {
  for (const auto& [firstKey, firstNode] : table) {
    const std::string first(firstKey.str());
    for (const auto& [secondKey, node] : reader.table(firstNode, "pair." + first)) {
      const std::string second(secondKey.str());
      const std::string path = "pair." + first + "." + second;
      const auto& pairTable = reader.table(node, path);
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

Config Config::parse(std::string_view text, std::string_view source) {
  const Reader reader(source);
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    reader.fail(e.source(), "TOML", std::string(e.description()));
  }
  for (const auto& [key, node] : root) {
    if (key != "solver" && key != "material" && key != "pair") {
      reader.unknownKey(key, std::string(key.str()), "solver, material, pair");
    }
  }
  Config config;
  if (const toml::node* node = root.get("solver")) {
    readSolver(reader, reader.table(*node, "solver"), config.solver);
  }
  if (const toml::node* node = root.get("material")) {
    readMaterials(reader, reader.table(*node, "material"), config);
  }
  if (const toml::node* node = root.get("pair")) {
    readPairs(reader, reader.table(*node, "pair"), config);
  }
  return config;
}

}  // namespace carom
