#include "carom/core/impact/law.h"

#include <array>
#include <string>

#include "carom/error.h"

namespace carom::core::impact {
namespace {

// Every law with its config-file name, in the order of ImpactLawKind.
constexpr std::array<std::pair<ImpactLawKind, const char*>, 4> kNames{{
    {ImpactLawKind::kStrict, "strict"},
    {ImpactLawKind::kStronge, "stronge"},
    {ImpactLawKind::kNewton, "newton"},
    {ImpactLawKind::kPoisson, "poisson"},
}};

ImpactOutcome apply(const Contact& contact, const StrictLaw& law) {
  return strictImpact(contact, law.parameters);
}
ImpactOutcome apply(const Contact& contact, const StrongeLaw& law) {
  return resolveStrongeImpact(contact, law.parameters).outcome;
}
ImpactOutcome apply(const Contact& contact, const NewtonLaw& law) {
  return newtonImpact(contact, law.parameters);
}
ImpactOutcome apply(const Contact& contact, const PoissonLaw& law) {
  return poissonImpact(contact, law.parameters);
}

}  // namespace

const char* toString(ImpactLawKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

ImpactLawKind parseImpactLawKind(std::string_view name) {
  std::string valid;
  for (const auto& [kind, known] : kNames) {
    if (name == known) return kind;
    valid += std::string(valid.empty() ? "" : ", ") + '"' + known + '"';
  }
  throw Error("impact: unknown impact law \"" + std::string(name) + "\"; valid laws are " + valid);
}

ImpactLawKind kindOf(const ImpactLaw& law) {
  return std::visit([](const auto& alternative) { return alternative.kKind; }, law);
}

ImpactOutcome applyLaw(const Contact& contact, const ImpactLaw& law, TraceWhen trace) {
  if (const StrongeLaw* stronge = std::get_if<StrongeLaw>(&law);
      stronge != nullptr && trace == TraceWhen::kOnFailure) {
    StrongeLaw untraced = *stronge;
    untraced.parameters.trace = false;
    ImpactOutcome outcome = apply(contact, untraced);
    if (outcome.resolved) return outcome;
  }
  return std::visit([&](const auto& alternative) { return apply(contact, alternative); }, law);
}

}  // namespace carom::core::impact
