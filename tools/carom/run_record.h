// What `carom run` writes, collected while it steps: the rows of bodies.csv, energy.csv and
// events.csv (INTERFACES.md §3) and the energy series of energy.svg.
#pragma once

#include <string>
#include <vector>

#include "carom/bullet/impact_event.h"
#include "scene_world.h"

namespace carom::cli {

class RunRecord {
 public:
  RunRecord();

  // One output frame at time t: a bodies.csv row per dynamic body and an energy.csv row.
  void addFrame(double t, const SceneWorld& world, const btVector3& gravity);
  // One events.csv row per event. `impulse` is the normal component of the impulse on body B.
  void addEvents(const std::vector<ImpactEvent>& events, const SceneWorld& world);

  const std::string& bodiesCsv() const { return bodies_; }
  const std::string& energyCsv() const { return energy_; }
  const std::string& eventsCsv() const { return events_; }
  // Writes energy.svg (kinetic, potential and total over time) to `path`.
  void writeEnergyPlot(const std::string& title, const std::string& path) const;

 private:
  std::string bodies_, energy_, events_;
  std::vector<double> times_, kinetic_, potential_, total_;
};

}  // namespace carom::cli
