#include "carom/bullet/config.h"

#include <cstdlib>

#include "carom/error.h"
#include "config_values.h"
#include "toml_input.h"

namespace carom {

using namespace config_values;

const char* toString(SolverKind kind) {
  return nameOf(kSolverKinds, kind);
}
const char* toString(SimultaneousModel model) {
  return nameOf(kSimultaneousModels, model);
}

namespace {

// Runs a core validation and re-throws its error under the config key `key`.
template <class Check>
void underKey(const std::string& key, Check check) {
  try {
    check();
  } catch (const Error& e) {
    throw Error(key + ": " + withoutPrefix(e));
  }
}

}  // namespace

Config::Config() {
  materials_["default"] = Material{};
}

void Config::setMaterial(const std::string& name, const Material& material) {
  if (name.empty()) throw Error("material: a material needs a non-empty name");
  Material named = material;
  named.name = name;
  underKey("material." + name, [&] { core::impact::validateMaterial(named); });
  materials_[name] = named;
}

const Material& Config::material(const std::string& name) const {
  const auto found = materials_.find(name);
  if (found == materials_.end()) throw Error("material \"" + name + "\" is not defined");
  return found->second;
}

void Config::setPair(const std::string& first, const std::string& second,
                     const Material& material) {
  const std::string key = "pair." + first + "." + second;
  for (const auto& name : {first, second}) {
    if (materials_.count(name) == 0) {
      throw Error(key + ": material \"" + name + "\" is not defined");
    }
  }
  underKey(key, [&] { pairs_.set(first, second, material); });
}

Material Config::material(const std::string& first, const std::string& second) const {
  return core::impact::combineMaterials(material(first), material(second), pairs_);
}

Config Config::fromFile(const std::string& path) {
  return parse(readTomlFile(path, "config"), path);
}

Config Config::withEnvironment(Config config) {
  if (const char* path = std::getenv("CAROM_CONFIG")) {
    try {
      config = fromFile(path);
    } catch (const Error& e) {
      // Re-thrown with the variable's name in front of the file's own "path:line: key" message.
      throw Error(std::string("CAROM_CONFIG=") + path + ": " + withoutPrefix(e));
    }
  }
  if (const char* kind = std::getenv("CAROM_SOLVER")) {
    const auto chosen = choose(kSolverKinds, kind);
    if (!chosen) {
      throw Error(std::string("CAROM_SOLVER: expected ") + oneOf(kSolverKinds) + ", got \"" + kind +
                  "\"");
    }
    config.solver.kind = *chosen;
  }
  return config;
}

}  // namespace carom
