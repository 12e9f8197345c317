// One interface to carom's single-contact impact laws: a value that names a law and holds its
// parameters, and one function that applies it. A world stores one ImpactLaw per material pair
// (material.h builds it) and calls applyLaw for each impact; a new law is one more alternative
// here and needs no change in the integrator.
#pragma once

#include <string_view>
#include <variant>

#include "carom/core/impact/classical.h"
#include "carom/core/impact/contact.h"
#include "carom/core/impact/strict.h"
#include "carom/core/impact/stronge.h"

namespace carom::core::impact {

/// The laws by the names a config file uses for them (INTERFACES.md §2, `impact = "..."`).
enum class ImpactLawKind {
  kStrict,   // "strict": Cox–Feres–Ward strict collision maps and their dissipative extension
  kStronge,  // "stronge": Jia–Wang frictional impact with Stronge's energetic restitution
  kNewton,   // "newton": Newton (velocity) restitution with Coulomb friction, a baseline
  kPoisson,  // "poisson": Poisson (impulse) restitution with Coulomb friction, a baseline
};

/// The config-file name of a law: "strict", "stronge", "newton" or "poisson".
const char* toString(ImpactLawKind kind);

/// The law a config-file name denotes (exact, lower case). Throws carom::Error quoting the name and
/// listing the valid ones for anything else.
ImpactLawKind parseImpactLawKind(std::string_view name);

/// One alternative per law. Newton and Poisson share their parameter struct, so each law is a
/// distinct type that wraps its parameters; kKind ties the type to its name.
struct StrictLaw {
  static constexpr ImpactLawKind kKind = ImpactLawKind::kStrict;
  StrictParameters parameters;
};
struct StrongeLaw {
  static constexpr ImpactLawKind kKind = ImpactLawKind::kStronge;
  StrongeParameters parameters;
};
struct NewtonLaw {
  static constexpr ImpactLawKind kKind = ImpactLawKind::kNewton;
  ClassicalParameters parameters;
};
struct PoissonLaw {
  static constexpr ImpactLawKind kKind = ImpactLawKind::kPoisson;
  ClassicalParameters parameters;
};

/// A law and its parameters. Default: Stronge's law with its default parameters (frictionless,
/// e = 1), the default of INTERFACES.md's [material.default].
using ImpactLaw = std::variant<StrongeLaw, StrictLaw, NewtonLaw, PoissonLaw>;

ImpactLawKind kindOf(const ImpactLaw& law);

/// Applies `law` to `contact`: exactly what strictImpact, resolveStrongeImpact(...).outcome,
/// newtonImpact or poissonImpact return for the same arguments. Every law throws carom::Error
/// naming the parameter for an invalid contact or parameters and for separating bodies (relative
/// normal velocity > 0). A Stronge integration that does not converge is not an exception: the
/// outcome has resolved == false, the pre-impact velocities and the status in its trace.
///
/// `trace`: when a Stronge outcome's trace is written: as its parameters ask (default), or only
/// where the impact is not resolved, when it is solved again as they ask (a resolved outcome's
/// trace then is empty). The trace's formatted numbers cost more than the rest of a frictionless
/// impact; a simulation that reports only failures asks for them then.
enum class TraceWhen { kAsAsked, kOnFailure };
ImpactOutcome applyLaw(const Contact& contact, const ImpactLaw& law,
                       TraceWhen trace = TraceWhen::kAsAsked);

}  // namespace carom::core::impact
