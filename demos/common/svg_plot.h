// Line and scatter plots written as standalone SVG files that open in any browser: the energy
// plots of the demos (Tran & Leok Fig. 7 and 8) and the outcome sets of `carom sets` without
// plotting software.
#pragma once

#include <string>
#include <vector>

namespace carom::demo {

struct Series {
  std::string label;
  std::string color;  // any SVG colour, e.g. "#1f77b4"
  std::vector<double> x;
  std::vector<double> y;
  // Dots of this radius (px) at the points instead of a line through them: sets of outcomes have
  // no order to connect. 0 draws the line.
  double dotRadius = 0;
};

class LinePlot {
 public:
  LinePlot(std::string title, std::string xLabel, std::string yLabel);

  // Throws std::invalid_argument when x and y differ in length.
  void add(Series series);
  // Dashed vertical lines, e.g. at the impact times.
  void addMarkers(std::vector<double> x, std::string label);

  // Throws std::runtime_error when the file cannot be written.
  void write(const std::string& path) const;

 private:
  std::string title_, xLabel_, yLabel_;
  std::vector<Series> series_;
  std::vector<double> markers_;
  std::string markerLabel_;
};

}  // namespace carom::demo
