// carom::Config: the solver flag, the simultaneous-impact model and the materials of a world
// (INTERFACES.md §2), read from TOML or set in C++, with the environment overrides CAROM_CONFIG
// and CAROM_SOLVER.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "carom/core/impact/material.h"

namespace carom {

/// What steps the world (`solver.kind`).
enum class SolverKind {
  bullet,       ///< stock Bullet, unchanged
  lcp,          ///< carom::ImpactSolver: carom's impact laws and contact LCP, Bullet integrates
  variational,  ///< LGVI flow, impacts located and resolved at their instant
};

/// How an impact with several contacts at once is resolved (`solver.simultaneous`).
enum class SimultaneousModel {
  routh,         ///< Halm–Posa: Routh's model extended to many contacts
  simultaneous,  ///< Anitescu–Potra: one LCP for all contacts
  sequential,    ///< one contact after the other
};

const char* toString(SolverKind kind);
const char* toString(SimultaneousModel model);

struct SolverSettings {
  SolverKind kind = SolverKind::variational;  ///< carom's own step unless told otherwise
  SimultaneousModel simultaneous = SimultaneousModel::routh;
  /// Seeds every randomized choice: the same seed gives the same trajectory, bit for bit.
  std::uint64_t seed = 1;
  /// A Zeno guard; ≥ 1. Variational mode: the events (impacts, landings) any one body takes part
  /// in within a step, after which the pair of its next event is held as a persistent contact for
  /// the rest of the step (the island's other events go on). lcp mode: the impact rounds of a step.
  int maxEventsPerStep = 64;
  /// Threads that lcp mode's impacts may use within a round: its impact groups share no dynamic
  /// body, and each is resolved on its own, its events kept in the group's order, so the step is
  /// the same bit for bit for any count. 0: as many as the machine has
  /// (std::thread::hardware_concurrency); 1: the stepping thread alone. ≥ 0.
  int threads = 0;
  /// The most contacts one simultaneous impact without joints resolves by its model's LCPs
  /// (routh: Halm–Posa's step LCPs; simultaneous: Anitescu–Potra's), solved by Lemke, whose cost
  /// grows with the cube of the contacts. A larger one is one Anitescu–Potra impact solved by
  /// sweeps, in time linear in its contacts, whose outcome lies in Halm–Posa's set too. The
  /// sequential model and impacts on jointed bodies take the LCPs up to 32 contacts, and beyond
  /// strike in turn. In 1 … 32.
  int simultaneousContacts = 8;
};

/// A material is the core's (carom/core/impact/material.h): impact law (`impact`), restitution,
/// friction, roughness and its name; its defaults are [material.default] of INTERFACES.md §2.
using Material = core::impact::Material;
using ImpactLawKind = core::impact::ImpactLawKind;

class Config {
 public:
  /// The defaults: the solver settings above and the one material "default".
  Config();

  /// Parses a TOML config. `source` names the text in error messages (a file path, or "<string>").
  /// Throws carom::Error "SOURCE:LINE: KEY: problem" for malformed TOML, an unknown key, a value of
  /// the wrong type or out of range, or a pair that names an undefined material. Keys left out keep
  /// their defaults; a material's left-out keys take [material.default]'s values; a pair table's
  /// left-out keys follow the combination rule of material().
  static Config parse(std::string_view text, std::string_view source = "<string>");
  /// parse() on a file's contents; throws carom::Error when the file cannot be read.
  static Config fromFile(const std::string& path);
  /// `config` with the environment applied: CAROM_CONFIG=path replaces it with that file's config,
  /// then CAROM_SOLVER=bullet|lcp|variational sets solver.kind. A variable that is set must be
  /// valid (an empty one too): carom::Error names the variable.
  static Config withEnvironment(Config config);

  SolverSettings solver;

  /// Defines or replaces a material; throws carom::Error naming the key for an empty name or a
  /// value out of range, leaving the config unchanged.
  void setMaterial(const std::string& name, const Material& material);
  /// Throws carom::Error for an undefined name.
  const Material& material(const std::string& name) const;
  const std::map<std::string, Material>& materials() const { return materials_; }

  /// Sets the explicit table of a pair of two different defined materials (order-free); throws
  /// carom::Error otherwise or for a value out of range, leaving the config unchanged.
  void setPair(const std::string& first, const std::string& second, const Material& material);
  /// The material two bodies use: core::impact::combineMaterials with this config's pair tables
  /// (the same material: its values exactly; else the pair table; else the blend of the rule).
  /// Throws carom::Error naming both materials when their laws differ and no pair table decides,
  /// or for an undefined name.
  Material material(const std::string& first, const std::string& second) const;

 private:
  std::map<std::string, Material> materials_;  ///< each Material's name is its key
  core::impact::MaterialPairTable pairs_;
};

}  // namespace carom
