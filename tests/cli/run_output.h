// Reading what `carom run` writes, for tests that run a scene in-process and check its numbers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "carom/bullet/config.h"

namespace carom::cli::test {

std::string readFile(const std::string& path);

// One CSV row by column name (the header row's names), numbers left as text.
using CsvRow = std::map<std::string, std::string>;
std::vector<CsvRow> readCsv(const std::string& path);
double number(const CsvRow& row, const std::string& column);

// Runs `scene` (a path) for `duration` s in `solver` into a fresh directory named after `name`
// under the test's temporary directory, and returns that directory.
std::string runScene(const std::string& scene, SolverKind solver, double duration,
                     const std::string& name);

// The largest |E(t) − E(0)| / |E(0)| of energy.csv's total column.
double relativeEnergyDrift(const std::string& energyCsv);

}  // namespace carom::cli::test
