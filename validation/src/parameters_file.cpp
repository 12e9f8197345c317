#include "parameters_file.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace carom::validation {
namespace {

constexpr const char* kHeader =
    "case,restitution,friction,height_offset,tangential_compliance,train_mean_position,evaluations";
// Before the compliant cases: no tangential_compliance column (read as 0).
constexpr const char* kHeaderWithoutCompliance =
    "case,restitution,friction,height_offset,train_mean_position,evaluations";

}  // namespace

std::vector<FittedCase> readParameters(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::vector<FittedCase> cases;
  std::string text;
  int line = 0;
  bool withCompliance = true;
  auto fail = [&](const std::string& problem) {
    throw std::runtime_error(path + ":" + std::to_string(line) + ": " + problem);
  };
  while (std::getline(in, text)) {
    ++line;
    if (line == 1) {
      withCompliance = text == kHeader;
      if (!withCompliance && text != kHeaderWithoutCompliance)
        fail(std::string("expected the header '") + kHeader + "'");
      continue;
    }
    if (text.empty()) continue;
    std::stringstream row(text);
    std::string name, cell;
    std::getline(row, name, ',');
    double value[6] = {};
    const int columns = withCompliance ? 6 : 5;
    for (int i = 0; i < columns; ++i) {
      double& v = value[i];
      if (!std::getline(row, cell, ','))
        fail("expected " + std::to_string(columns + 1) + " columns");
      try {
        std::size_t used = 0;
        v = std::stod(cell, &used);
        if (used != cell.size() || !std::isfinite(v)) throw std::invalid_argument(cell);
      } catch (const std::exception&) {
        fail("not a finite number: '" + cell + "'");
      }
    }
    FittedCase fitted;
    try {
      fitted.model = parseCaseName(name);
    } catch (const std::invalid_argument& error) {
      fail(error.what());
    }
    fitted.model.restitution = value[0];
    fitted.model.friction = value[1];
    fitted.model.heightOffset = value[2];
    const double* rest = value + 3;
    if (withCompliance) fitted.model.tangentialCompliance = *rest++;
    fitted.trainMeanPosition = rest[0];
    fitted.evaluations = static_cast<int>(rest[1]);
    if (value[0] < 0 || value[0] > 1) fail("restitution outside [0, 1]");
    if (value[1] < 0) fail("negative friction");
    if (fitted.model.tangentialCompliance < 0) fail("negative tangential compliance");
    if (fitted.model.tangentialCompliance != 0 && !fitted.model.compliant)
      fail("a tangential compliance for a case that has none (only stronge-tc has)");
    cases.push_back(fitted);
  }
  return cases;
}

void writeParameters(const std::string& path, const std::vector<FittedCase>& cases) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out << kHeader << "\n";
  char buffer[256];
  for (const FittedCase& c : cases) {
    std::snprintf(buffer, sizeof buffer, "%s,%.4f,%.4f,%.5f,%.4f,%.5f,%d\n",
                  caseName(c.model).c_str(), c.model.restitution, c.model.friction,
                  c.model.heightOffset, c.model.tangentialCompliance, c.trainMeanPosition,
                  c.evaluations);
    out << buffer;
  }
  if (!out) throw std::runtime_error(path + ": cannot write");
}

}  // namespace carom::validation
