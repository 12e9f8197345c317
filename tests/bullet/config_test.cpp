#include "carom/bullet/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "carom/error.h"

namespace carom {
namespace {

// The message of the carom::Error that `f` throws; fails the test when it throws nothing.
template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected carom::Error";
  return {};
}

// Sets (or unsets) an environment variable for one scope and restores it afterwards.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    apply(value);
  }
  ~ScopedEnvironment() { apply(old_); }

 private:
  void apply(const std::optional<std::string>& value) {
    if (value) {
      setenv(name_, value->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  const char* name_;
  std::optional<std::string> old_;
};

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

const char* const kFull = R"(
[solver]
kind = "lcp"
simultaneous = "sequential"
seed = 42
max_events_per_step = 8
threads = 2
simultaneous_contacts = 20

[material.default]
impact = "newton"
restitution = 0.5
friction = 0.25
roughness = 1

[material.steel]
restitution = 0.9

[material.rubber]
friction = 1
impact_friction = 0.5
tangential_compliance = 1.25
roughness = 2

[material.ice]
impact = "strict"

[pair.steel.rubber]
restitution = 0.8
friction = 0.6
)";

TEST(Config, DefaultsAreThoseOfTheInterface) {
  const Config c;
  EXPECT_EQ(c.solver.kind, SolverKind::variational);
  EXPECT_EQ(c.solver.simultaneous, SimultaneousModel::routh);
  EXPECT_EQ(c.solver.seed, 1u);
  EXPECT_EQ(c.solver.maxEventsPerStep, 64);
  EXPECT_EQ(c.solver.threads, 0);
  EXPECT_EQ(c.solver.simultaneousContacts, 8);
  ASSERT_EQ(c.materials().size(), 1u);
  const Material& m = c.material("default");
  EXPECT_EQ(m.impact, ImpactLawKind::kStronge);
  EXPECT_EQ(m.restitution, 1.0);
  EXPECT_EQ(m.friction, 0.0);
  EXPECT_EQ(m.roughness, 0);
  EXPECT_FALSE(m.impactFriction);
  EXPECT_EQ(m.tangentialCompliance, 0.0);
  EXPECT_EQ(Config::parse("").materials().size(), 1u);
}

TEST(Config, ParsesEveryKeyAndMaterialsStartFromTheDefault) {
  const Config c = Config::parse(kFull);
  EXPECT_EQ(c.solver.kind, SolverKind::lcp);
  EXPECT_EQ(c.solver.simultaneous, SimultaneousModel::sequential);
  EXPECT_EQ(c.solver.seed, 42u);
  EXPECT_EQ(c.solver.maxEventsPerStep, 8);
  EXPECT_EQ(c.solver.threads, 2);
  EXPECT_EQ(c.solver.simultaneousContacts, 20);
  const Material& steel = c.material("steel");
  EXPECT_EQ(steel.impact, ImpactLawKind::kNewton);
  EXPECT_EQ(steel.restitution, 0.9);
  EXPECT_EQ(steel.friction, 0.25);
  EXPECT_EQ(steel.roughness, 1);
  EXPECT_EQ(c.material("rubber").friction, 1.0);  // an integer where a number is expected
  EXPECT_EQ(c.material("rubber").roughness, 2);
  EXPECT_EQ(c.material("rubber").impactFriction, 0.5);
  EXPECT_FALSE(steel.impactFriction);
  EXPECT_EQ(c.material("rubber").tangentialCompliance, 1.25);
  EXPECT_EQ(steel.tangentialCompliance, 0.0);
  EXPECT_EQ(c.material("ice").impact, ImpactLawKind::kStrict);
}

TEST(Config, MaterialPairsFollowTheInterfaceRules) {
  const Config c = Config::parse(kFull);
  // The same material: its own values, not a product.
  EXPECT_EQ(c.material("steel", "steel").restitution, 0.9);
  // An explicit pair table wins, in either order; its left-out keys follow the rule.
  for (const auto& m : {c.material("steel", "rubber"), c.material("rubber", "steel")}) {
    EXPECT_EQ(m.restitution, 0.8);
    EXPECT_EQ(m.friction, 0.6);
    EXPECT_EQ(m.roughness, 1);
    EXPECT_EQ(m.impact, ImpactLawKind::kNewton);
  }
  // No table: larger restitution, geometric-mean friction, smaller roughness.
  const Material m = c.material("default", "rubber");
  EXPECT_EQ(m.restitution, 0.5);
  EXPECT_DOUBLE_EQ(m.friction, 0.5);
  EXPECT_EQ(m.roughness, 1);
  // Different laws and no table: an error naming both materials.
  const std::string message = errorOf([&] { c.material("steel", "ice"); });
  EXPECT_NE(message.find("material 'steel'"), std::string::npos) << message;
  EXPECT_NE(message.find("material 'ice'"), std::string::npos) << message;
  EXPECT_THROW(c.material("steel", "wood"), Error);
}

struct Malformed {
  const char* text;
  const char* expected;  // what the message must contain: the source, the line and the key
};

class ConfigMalformed : public testing::TestWithParam<Malformed> {};

TEST_P(ConfigMalformed, IsRefusedWithTheKeyAndLine) {
  const std::string message = errorOf([] { Config::parse(GetParam().text, "bad.toml"); });
  EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Config, ConfigMalformed,
    testing::Values(
        Malformed{"[solver]\nkind = \"fast\"", "bad.toml:2: solver.kind: expected one of"},
        Malformed{"[solver]\nkind = 3", "bad.toml:2: solver.kind: expected a string"},
        Malformed{"[solver]\n\nknd = \"lcp\"", "bad.toml:3: solver.knd: unknown key"},
        Malformed{"[solvers]\nkind = \"lcp\"", "bad.toml:1: solvers: unknown key"},
        Malformed{"solver = 1", "bad.toml:1: solver: expected a table"},
        Malformed{"[solver]\nsimultaneous = \"both\"", "bad.toml:2: solver.simultaneous:"},
        Malformed{"[solver]\nseed = -1", "bad.toml:2: solver.seed: must be non-negative"},
        Malformed{"[solver]\nseed = 1.5", "bad.toml:2: solver.seed: expected an integer"},
        Malformed{"[solver]\nmax_events_per_step = 0", "bad.toml:2: solver.max_events_per_step:"},
        Malformed{"[solver]\nthreads = -1", "bad.toml:2: solver.threads: must lie in [0, "},
        Malformed{"[solver]\nsimultaneous_contacts = 0",
                  "bad.toml:2: solver.simultaneous_contacts: must lie in [1, 32], got 0"},
        Malformed{"[solver]\nsimultaneous_contacts = 33",
                  "bad.toml:2: solver.simultaneous_contacts: must lie in [1, 32], got 33"},
        Malformed{"[solver]\nsimultaneous_contacts = 2.0",
                  "bad.toml:2: solver.simultaneous_contacts: expected an integer"},
        Malformed{
            "[material.a]\nrestitution = 1.5",
            "bad.toml:2: material.a.restitution: material 'a': restitution must be in [0, 1]"},
        Malformed{"[material.a]\nrestitution = \"high\"",
                  "bad.toml:2: material.a.restitution: expected a number"},
        Malformed{"[material.a]\nrestitution = nan", "bad.toml:2: material.a.restitution:"},
        Malformed{"[material.a]\nfriction = -0.1", "bad.toml:2: material.a.friction:"},
        Malformed{"[material.a]\nfriction = inf", "bad.toml:2: material.a.friction:"},
        Malformed{"[material.a]\nimpact_friction = -0.1",
                  "bad.toml:2: material.a.impact_friction:"},
        Malformed{"[material.a]\ntangential_compliance = -1",
                  "bad.toml:2: material.a.tangential_compliance:"},
        Malformed{"[material.a]\nroughness = 3", "bad.toml:2: material.a.roughness:"},
        Malformed{"[material.a]\nroughness = 1.0", "bad.toml:2: material.a.roughness: expected"},
        Malformed{"[material.default]\nimpact = \"elastic\"",
                  "bad.toml:2: material.default.impact:"},
        Malformed{"[material.a]\nmass = 1", "bad.toml:2: material.a.mass: unknown key"},
        Malformed{"[material]\na = 1", "bad.toml:2: material.a: expected a table"},
        Malformed{"[material.a]\n[pair.a.b]",
                  "bad.toml:2: pair.a.b: material \"b\" is not defined"},
        Malformed{"[material.a]\n[pair.a.a]",
                  "bad.toml:2: pair.a.a: pair table: [pair.a.a] pairs a material with itself"},
        Malformed{"[material.a]\nimpact = \"strict\"\n[pair.a.default]\nfriction = 0.1",
                  "bad.toml:3: pair.a.default: materials \"a\" and \"default\""},
        Malformed{"[material.a]\n[pair.a.default]\nrestitution = 2",
                  "bad.toml:3: pair.a.default.restitution:"},
        Malformed{"[solver]\nkind = \"lcp\"\nkind = \"bullet\"", "bad.toml:3: TOML:"},
        Malformed{"[solver\n", "bad.toml:1: TOML:"}));

TEST(Config, PairTableNamesTheImpactLawWhenTheMaterialsDisagree) {
  const Config c = Config::parse(
      "[material.a]\nimpact = \"strict\"\n[pair.a.default]\nimpact = \"newton\"\nfriction = 0.3");
  EXPECT_EQ(c.material("default", "a").impact, ImpactLawKind::kNewton);
  EXPECT_EQ(c.material("default", "a").friction, 0.3);
}

TEST(Config, FromFileNamesTheFileAndLine) {
  const std::string good = writeFile("carom_good.toml", "[solver]\nkind = \"bullet\"\n");
  EXPECT_EQ(Config::fromFile(good).solver.kind, SolverKind::bullet);
  const std::string bad = writeFile("carom_bad.toml", "[solver]\n\nkind = \"bulet\"\n");
  const std::string message = errorOf([&] { Config::fromFile(bad); });
  EXPECT_NE(message.find(bad + ":3: solver.kind"), std::string::npos) << message;
  const std::string missing = testing::TempDir() + "carom_missing.toml";
  EXPECT_NE(errorOf([&] { Config::fromFile(missing); }).find(missing), std::string::npos);
}

TEST(Config, EnvironmentSolverOverridesTheKind) {
  Config base = Config::parse(kFull);
  {
    const ScopedEnvironment solver("CAROM_SOLVER", "bullet");
    const ScopedEnvironment file("CAROM_CONFIG", std::nullopt);
    const Config c = Config::withEnvironment(base);
    EXPECT_EQ(c.solver.kind, SolverKind::bullet);
    EXPECT_EQ(c.solver.seed, 42u);  // the rest is untouched
  }
  {
    const ScopedEnvironment solver("CAROM_SOLVER", std::nullopt);
    const ScopedEnvironment file("CAROM_CONFIG", std::nullopt);
    EXPECT_EQ(Config::withEnvironment(base).solver.kind, SolverKind::lcp);
  }
  for (const char* bad : {"Bullet", "", "stock"}) {
    const ScopedEnvironment solver("CAROM_SOLVER", bad);
    const std::string message = errorOf([&] { Config::withEnvironment(base); });
    EXPECT_NE(message.find("CAROM_SOLVER"), std::string::npos) << message;
  }
}

TEST(Config, EnvironmentConfigFileReplacesTheConfigAndSolverStillWins) {
  const std::string path = writeFile("carom_env.toml", "[solver]\nkind = \"lcp\"\nseed = 7\n");
  const ScopedEnvironment file("CAROM_CONFIG", path);
  {
    const ScopedEnvironment solver("CAROM_SOLVER", std::nullopt);
    const Config c = Config::withEnvironment(Config::parse(kFull));
    EXPECT_EQ(c.solver.kind, SolverKind::lcp);
    EXPECT_EQ(c.solver.seed, 7u);
    EXPECT_EQ(c.materials().count("steel"), 0u);
  }
  {
    const ScopedEnvironment solver("CAROM_SOLVER", "variational");
    EXPECT_EQ(Config::withEnvironment(Config{}).solver.kind, SolverKind::variational);
  }
  const ScopedEnvironment broken("CAROM_CONFIG", writeFile("carom_env_bad.toml", "seed = 1\n"));
  const std::string message = errorOf([] { Config::withEnvironment(Config{}); });
  EXPECT_NE(message.find("CAROM_CONFIG="), std::string::npos) << message;
  EXPECT_NE(message.find("carom_env_bad.toml:1: seed: unknown key"), std::string::npos) << message;
}

TEST(Config, SettersRefuseBadValuesAndChangeNothing) {
  Config c;
  Material bad;
  bad.restitution = 1.2;
  const std::string message = errorOf([&] { c.setMaterial("steel", bad); });
  EXPECT_NE(message.find("material.steel: material 'steel': restitution"), std::string::npos)
      << message;
  EXPECT_EQ(c.materials().count("steel"), 0u);
  bad = Material{};
  bad.roughness = -1;
  EXPECT_THROW(c.setMaterial("default", bad), Error);
  EXPECT_EQ(c.material("default").roughness, 0);
  EXPECT_THROW(c.setMaterial("", Material{}), Error);

  Material steel;
  steel.impact = ImpactLawKind::kStrict;
  c.setMaterial("steel", steel);
  EXPECT_THROW(c.material("steel", "default"), Error);
  EXPECT_THROW(c.setPair("steel", "wood", Material{}), Error);
  EXPECT_THROW(c.setPair("steel", "steel", Material{}), Error);
  Material pair;
  pair.friction = -1;
  EXPECT_THROW(c.setPair("steel", "default", pair), Error);
  EXPECT_THROW(c.material("steel", "default"), Error);
  pair.friction = 0.4;
  c.setPair("steel", "default", pair);
  EXPECT_EQ(c.material("default", "steel").friction, 0.4);
}

TEST(Config, NamesOfTheEnumerationsAreTheTomlOnes) {
  EXPECT_STREQ(toString(SolverKind::variational), "variational");
  EXPECT_STREQ(toString(SimultaneousModel::routh), "routh");
  EXPECT_STREQ(toString(ImpactLawKind::kPoisson), "poisson");
}

}  // namespace
}  // namespace carom
