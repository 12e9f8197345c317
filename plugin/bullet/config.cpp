#include "carom/bullet/config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "carom/error.h"
#include "config_values.h"

namespace carom {

using namespace config_values;

const char* toString(SolverKind kind) {
  return nameOf(kSolverKinds, kind);
}
const char* toString(SimultaneousModel model) {
  return nameOf(kSimultaneousModels, model);
}
const char* toString(ImpactLaw law) {
  return nameOf(kImpactLaws, law);
}

namespace {

void check(const std::string& key, const std::string& problem) {
  if (!problem.empty()) throw Error(key + ": " + problem);
}

void checkMaterial(const std::string& key, const Material& m) {
  check(key + ".restitution", restitutionProblem(m.restitution));
  check(key + ".friction", frictionProblem(m.friction));
  check(key + ".roughness", roughnessProblem(m.roughness));
}

}  // namespace

Config::Config() {
  materials_["default"] = Material{};
}

void Config::setMaterial(const std::string& name, const Material& material) {
  if (name.empty()) throw Error("material: a material needs a non-empty name");
  checkMaterial("material." + name, material);
  materials_[name] = material;
}

const Material& Config::material(const std::string& name) const {
  const auto found = materials_.find(name);
  if (found == materials_.end()) throw Error("material \"" + name + "\" is not defined");
  return found->second;
}

std::pair<std::string, std::string> Config::pairKey(const std::string& a, const std::string& b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

void Config::setPair(const std::string& first, const std::string& second,
                     const Material& material) {
  const std::string key = "pair." + first + "." + second;
  if (first == second) {
    throw Error(key + ": a material meets itself with its own values; set material." + first +
                " instead");
  }
  for (const auto& name : {first, second}) {
    if (materials_.count(name) == 0) {
      throw Error(key + ": material \"" + name + "\" is not defined");
    }
  }
  checkMaterial(key, material);
  pairs_[pairKey(first, second)] = material;
}

Material Config::material(const std::string& first, const std::string& second) const {
  const Material& a = material(first);
  const Material& b = material(second);
  if (first == second) return a;
  const auto pair = pairs_.find(pairKey(first, second));
  if (pair != pairs_.end()) return pair->second;
  if (a.impact != b.impact) {
    throw Error("materials \"" + first + "\" (impact = \"" + toString(a.impact) + "\") and \"" +
                second + "\" (impact = \"" + toString(b.impact) +
                "\") name different impact laws and no [pair." + first + "." + second +
                "] table decides");
  }
  return combined(a, b);
}

Config Config::fromFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file) throw Error(path + ": cannot read the config file");
  return parse(text.str(), path);
}

Config Config::withEnvironment(Config config) {
  if (const char* path = std::getenv("CAROM_CONFIG")) {
    try {
      config = fromFile(path);
    } catch (const Error& e) {
      // Re-thrown with the variable's name in front of the file's own "path:line: key" message.
      const std::size_t prefix = std::string(Error("").what()).size();
      throw Error(std::string("CAROM_CONFIG=") + path + ": " + (e.what() + prefix));
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
