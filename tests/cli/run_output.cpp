#include "run_output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_command.h"

namespace carom::cli::test {
namespace {

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::istringstream text(row);
  for (std::string cell; std::getline(text, cell, ',');)
    out.push_back(cell);
  return out;
}

}  // namespace

std::string readFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<CsvRow> readCsv(const std::string& path) {
  std::istringstream rows(readFile(path));
  std::string row;
  std::getline(rows, row);
  const std::vector<std::string> header = cells(row);
  std::vector<CsvRow> out;
  while (std::getline(rows, row)) {
    const std::vector<std::string> values = cells(row);
    CsvRow named;
    for (std::size_t i = 0; i < header.size() && i < values.size(); ++i)
      named[header[i]] = values[i];
    out.push_back(std::move(named));
  }
  return out;
}

double number(const CsvRow& row, const std::string& column) {
  return std::stod(row.at(column));
}

std::string runScene(const std::string& scene, SolverKind solver, double duration,
                     const std::string& name) {
  const std::string out = ::testing::TempDir() + "carom-run-" + name;
  std::filesystem::remove_all(out);
  RunOptions options;
  options.scene = scene;
  options.solver = solver;
  options.duration = duration;
  options.out = out;
  options.quiet = true;
  std::ostringstream log;
  cli::runScene(options, log);
  return out;
}

double relativeEnergyDrift(const std::string& energyCsv) {
  const std::vector<CsvRow> frames = readCsv(energyCsv);
  EXPECT_GT(frames.size(), 10u) << energyCsv;
  if (frames.empty()) return NAN;
  const double first = number(frames.front(), "total");
  double drift = 0;
  for (const CsvRow& frame : frames)
    drift = std::max(drift, std::abs(number(frame, "total") - first) / std::abs(first));
  return drift;
}

}  // namespace carom::cli::test
