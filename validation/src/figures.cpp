#include "figures.h"

#include <algorithm>

#include "common/svg_plot.h"
#include "cube_sim.h"
#include "evaluate.h"
#include "metrics.h"

namespace carom::validation {
namespace {

const char* colorOf(std::size_t i) {
  static const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c",
                                        "#9467bd", "#ff7f0e", "#8c564b"};
  return kColors[i % 6];
}

}  // namespace

void writeErrorOverTime(const std::string& path, const std::vector<const Toss*>& tosses,
                        const std::vector<CubeModel>& models, int threads) {
  std::size_t longest = 0;
  for (const Toss* toss : tosses)
    longest = std::max(longest, toss->frames.size());
  demo::LinePlot plot("Position error against time after release (held-out tosses, mean)",
                      "time after release (s)", "position error (% of side)");
  for (std::size_t m = 0; m < models.size(); ++m) {
    std::vector<SimulatedToss> runs(tosses.size());
    parallelFor(static_cast<int>(tosses.size()), threads,
                [&](int i) { runs[i] = simulate(*tosses[i], models[m]); });
    demo::Series series{caseName(models[m]), colorOf(m), {}, {}};
    for (std::size_t k = 1; k < longest; ++k) {
      double sum = 0;
      int count = 0;
      for (std::size_t i = 0; i < tosses.size(); ++i) {
        if (k >= tosses[i]->frames.size()) continue;
        sum += (runs[i].poses[k].position - tosses[i]->frames[k].position).norm() / kSide;
        ++count;
      }
      if (4 * count < static_cast<int>(tosses.size())) break;
      series.x.push_back(k / kFrameRate);
      series.y.push_back(100 * sum / count);
    }
    plot.add(series);
  }
  plot.write(path);
}

void writeTossFigures(const std::string& pathPrefix, const Toss& toss,
                      const std::vector<CubeModel>& models) {
  const std::string title = "toss " + std::to_string(toss.number) + ": ";
  demo::LinePlot height(title + "height of the centre", "time (s)", "z (mm)");
  demo::LinePlot angle(title + "orientation: angle turned from the first frame", "time (s)",
                       "angle (degrees)");
  demo::Series measuredZ{"measured", "#000000", {}, {}}, measuredAngle = measuredZ;
  for (const Frame& frame : toss.frames) {
    measuredZ.x.push_back(frame.t);
    measuredZ.y.push_back(1e3 * frame.position.z());
    measuredAngle.x.push_back(frame.t);
    measuredAngle.y.push_back(rotationAngleDegrees(toss.frames[0].rotation, frame.rotation));
  }
  height.add(measuredZ);
  angle.add(measuredAngle);
  for (std::size_t m = 0; m < models.size(); ++m) {
    const SimulatedToss run = simulate(toss, models[m]);
    demo::Series z{caseName(models[m]), colorOf(m), {}, {}}, turned = z;
    for (std::size_t k = 0; k < toss.frames.size(); ++k) {
      z.x.push_back(toss.frames[k].t);
      z.y.push_back(1e3 * run.poses[k].position.z());
      turned.x.push_back(toss.frames[k].t);
      turned.y.push_back(rotationAngleDegrees(toss.frames[0].rotation, run.poses[k].rotation));
    }
    height.add(z);
    angle.add(turned);
  }
  height.write(pathPrefix + "-height.svg");
  angle.write(pathPrefix + "-angle.svg");
}

}  // namespace carom::validation
