#include "cube_model.h"

#include <stdexcept>

namespace carom::validation {

std::string caseName(const CubeModel& model) {
  std::string name = toString(model.kind);
  if (model.kind != SolverKind::bullet) {
    name += std::string("/") + core::impact::toString(model.law);
    if (model.law == ImpactLawKind::kStrict) name += "-k" + std::to_string(model.roughness);
    if (model.compliant) name += "-tc";
  }
  if (model.substeps != 1) name += "@" + std::to_string(model.substeps);
  return name;
}

CubeModel parseCaseName(const std::string& name) {
  CubeModel model;
  std::string rest = name;
  const std::size_t at = rest.find('@');
  if (at != std::string::npos) {
    try {
      model.substeps = std::stoi(rest.substr(at + 1));
    } catch (const std::exception&) {
      throw std::invalid_argument("case '" + name + "': substeps after '@' must be a number");
    }
    if (model.substeps < 1) throw std::invalid_argument("case '" + name + "': substeps < 1");
    rest = rest.substr(0, at);
  }
  const std::size_t slash = rest.find('/');
  const std::string kind = rest.substr(0, slash);
  const std::string law = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (kind == "bullet" && law.empty()) {
    model.kind = SolverKind::bullet;
    return model;
  }
  if (kind == "lcp")
    model.kind = SolverKind::lcp;
  else if (kind == "variational")
    model.kind = SolverKind::variational;
  else
    throw std::invalid_argument("case '" + name + "': expected bullet, lcp/LAW or variational/LAW");
  if (law == "newton")
    model.law = ImpactLawKind::kNewton;
  else if (law == "poisson")
    model.law = ImpactLawKind::kPoisson;
  else if (law == "stronge")
    model.law = ImpactLawKind::kStronge;
  else if (law == "stronge-tc")
    model.law = ImpactLawKind::kStronge, model.compliant = true;
  else if (law.size() == 9 && law.rfind("strict-k", 0) == 0 && law[8] >= '0' && law[8] <= '2') {
    model.law = ImpactLawKind::kStrict;
    model.roughness = law[8] - '0';
  } else {
    throw std::invalid_argument(
        "case '" + name + "': law must be newton, poisson, stronge, stronge-tc or strict-k0/1/2");
  }
  return model;
}

Eigen::Vector3d cubeCorner(int corner, double halfSide, const Eigen::Vector3d& centreOfMass) {
  const Eigen::Vector3d geometric((corner & 1 ? 1 : -1) * halfSide,
                                  (corner & 2 ? 1 : -1) * halfSide,
                                  (corner & 4 ? 1 : -1) * halfSide);
  return geometric - centreOfMass;
}

bool usesFriction(const CubeModel&) {
  // Every case: a strict map has no friction in a binary impact, but carom's persistent contacts
  // and simultaneous (Halm–Posa) impacts use the material's μ whatever its law.
  return true;
}

}  // namespace carom::validation
