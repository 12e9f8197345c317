// What `carom run` writes, streamed while it steps: the rows of bodies.csv, energy.csv and
// events.csv (INTERFACES.md §3) go to their staged files as they come, and energy.svg is drawn
// from a thinned energy series, so a run holds no more in memory at its end than at its start.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include "carom/bullet/impact_event.h"
#include "energy_series.h"
#include "scene_world.h"
#include "staged_output.h"

namespace carom::cli {

class RunRecord {
 public:
  // Opens the three CSV files in `output` (renamed to their names at its commit) and writes
  // their header rows.
  explicit RunRecord(StagedOutput& output);

  // One output frame at time t: a bodies.csv row per dynamic body and an energy.csv row.
  void addFrame(double t, const SceneWorld& world, const btVector3& gravity);
  // One events.csv row per event. `impulse` is the normal component of the impulse on body B.
  void addEvents(const std::vector<ImpactEvent>& events, const SceneWorld& world);

  // Closes the CSV files; throws carom::Error when one could not be written in full.
  void close();
  // Writes energy.svg (kinetic, potential and total over time) to `path`.
  void writeEnergyPlot(const std::string& title, const std::string& path) const;

 private:
  std::ofstream bodies_, energy_, events_;
  EnergySeries energySeries_;
};

}  // namespace carom::cli
