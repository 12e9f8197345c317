// The results as text: a console line per case and the Markdown tables of docs/validation.md.
#pragma once

#include <string>
#include <vector>

#include "cube_sim.h"
#include "first_impact.h"
#include "metrics.h"
#include "parameters_file.h"

namespace carom::validation {

struct CaseResult {
  FittedCase fitted;
  Aggregate heldOut;  // over the held-out tosses
};

// One line: case, parameters, held-out mean/median/p90 position error, rotation, face, depth.
std::string summaryLine(const CaseResult& result);

// The full Markdown table, one row per case (percentages of the side, degrees, mm).
std::string markdownTable(const std::vector<CaseResult>& results);

// The headline: each mode's best case (lowest held-out mean position error) against stock
// Bullet's best, with the relative change of the mean.
std::string headlineTable(const std::vector<CaseResult>& results);

// Part 4: how often the measured velocity after a multi-corner first impact lies within each
// distance of the Halm–Posa set and of each single-outcome resolution, and the median distances.
std::string firstImpactTable(const std::vector<FirstImpactResult>& results, int tossesSeen);

// Writes every toss's metrics of every case as CSV (for anyone who wants the distribution).
void writePerTossCsv(const std::string& path, const std::vector<std::string>& cases,
                     const std::vector<std::vector<TossMetrics>>& metrics);

// Writes one simulated toss as CSV in the data's first eight columns (t,x,y,z,qw,qx,qy,qz; the
// measured frame times), so that any analysis of the data runs unchanged on the simulation.
void writeTrajectoryCsv(const std::string& path, const Toss& measured,
                        const SimulatedToss& simulated);

}  // namespace carom::validation
