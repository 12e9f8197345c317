#include "common/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace carom::demo {
namespace {

constexpr double kWidth = 900, kHeight = 480;
constexpr double kLeft = 90, kRight = 20, kTop = 40, kBottom = 60;

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void include(double v) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  // A flat or empty range still needs a non-zero span to map onto the page.
  void widenIfFlat() {
    if (!(lo <= hi)) lo = 0, hi = 1;
    if (hi - lo <= 1e-12 * std::max(1.0, std::abs(hi))) {
      const double pad = std::max(1e-12, 0.5 * std::abs(hi));
      lo -= pad;
      hi += pad;
    }
  }
  // Room above and below so that a curve at the extreme does not hide under the frame.
  void pad(double fraction) {
    const double margin = fraction * (hi - lo);
    lo -= margin;
    hi += margin;
  }
};

// Tick spacing of 1, 2 or 5 × 10ⁿ giving about five ticks over the span.
double niceStep(double span) {
  const double raw = span / 5.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * magnitude >= raw) return m * magnitude;
  }
  return 10.0 * magnitude;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

}  // namespace

LinePlot::LinePlot(std::string title, std::string xLabel, std::string yLabel)
    : title_(std::move(title)), xLabel_(std::move(xLabel)), yLabel_(std::move(yLabel)) {}

void LinePlot::add(Series series) {
  if (series.x.size() != series.y.size()) {
    throw std::invalid_argument("LinePlot::add: series '" + series.label +
                                "' has x and y of different lengths");
  }
  series_.push_back(std::move(series));
}

void LinePlot::addMarkers(std::vector<double> x, std::string label) {
  markers_ = std::move(x);
  markerLabel_ = std::move(label);
}

void LinePlot::write(const std::string& path) const {
  Range xr, yr;
  for (const Series& s : series_) {
    for (double v : s.x)
      xr.include(v);
    for (double v : s.y)
      yr.include(v);
  }
  xr.widenIfFlat();
  yr.widenIfFlat();
  yr.pad(0.05);
  // Dots sit on the data's extremes; a margin keeps them whole inside the frame.
  if (std::any_of(series_.begin(), series_.end(), [](const Series& s) { return s.dotRadius > 0; }))
    xr.pad(0.05);
  const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
  const auto px = [&](double x) { return kLeft + (x - xr.lo) / (xr.hi - xr.lo) * plotW; };
  const auto py = [&](double y) { return kTop + (yr.hi - y) / (yr.hi - yr.lo) * plotH; };

  std::ostringstream svg;
  svg.precision(6);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kWidth / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
      << escape(title_) << "</text>\n";
  const double xStep = niceStep(xr.hi - xr.lo), yStep = niceStep(yr.hi - yr.lo);
  // Ticks at integer multiples of the step, so that no round-off accumulates in their labels.
  for (double i = std::ceil(xr.lo / xStep); i * xStep <= xr.hi; ++i) {
    const double x = i * xStep + 0.0;  // + 0.0 turns −0 into 0
    svg << "<line x1=\"" << px(x) << "\" y1=\"" << kTop << "\" x2=\"" << px(x) << "\" y2=\""
        << kTop + plotH << "\" stroke=\"#eee\"/><text x=\"" << px(x) << "\" y=\""
        << kTop + plotH + 16 << "\" text-anchor=\"middle\">" << x << "</text>\n";
  }
  for (double i = std::ceil(yr.lo / yStep); i * yStep <= yr.hi; ++i) {
    const double y = i * yStep + 0.0;
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << py(y) << "\" x2=\"" << kLeft + plotW
        << "\" y2=\"" << py(y) << "\" stroke=\"#eee\"/><text x=\"" << kLeft - 6 << "\" y=\""
        << py(y) + 4 << "\" text-anchor=\"end\">" << y << "</text>\n";
  }
  for (double m : markers_) {
    if (m < xr.lo || m > xr.hi) continue;
    svg << "<line x1=\"" << px(m) << "\" y1=\"" << kTop << "\" x2=\"" << px(m) << "\" y2=\""
        << kTop + plotH
        << "\" stroke=\"#d62728\" stroke-width=\"0.7\" stroke-dasharray=\"4 3\"/>\n";
  }
  for (const Series& s : series_) {
    if (s.dotRadius > 0) {
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        svg << "<circle cx=\"" << px(s.x[i]) << "\" cy=\"" << py(s.y[i]) << "\" r=\"" << s.dotRadius
            << "\" fill=\"" << s.color << "\"/>\n";
      }
      continue;
    }
    svg << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\"1.4\" points=\"";
    for (std::size_t i = 0; i < s.x.size(); ++i)
      svg << px(s.x[i]) << ',' << py(s.y[i]) << ' ';
    svg << "\"/>\n";
  }
  svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plotW << "\" height=\""
      << plotH << "\" fill=\"none\" stroke=\"black\"/>\n"
      << "<text x=\"" << kLeft + plotW / 2 << "\" y=\"" << kHeight - 18
      << "\" text-anchor=\"middle\">" << escape(xLabel_) << "</text>\n"
      << "<text transform=\"translate(18," << kTop + plotH / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << escape(yLabel_) << "</text>\n";
  double legendY = kTop + 14;
  const auto legend = [&](const std::string& color, const std::string& label, bool dashed) {
    svg << "<line x1=\"" << kLeft + 10 << "\" y1=\"" << legendY - 4 << "\" x2=\"" << kLeft + 34
        << "\" y2=\"" << legendY - 4 << "\" stroke=\"" << color << "\" stroke-width=\"2\""
        << (dashed ? " stroke-dasharray=\"4 3\"" : "") << "/><text x=\"" << kLeft + 40 << "\" y=\""
        << legendY << "\">" << escape(label) << "</text>\n";
    legendY += 16;
  };
  for (const Series& s : series_)
    legend(s.color, s.label, false);
  if (!markers_.empty()) legend("#d62728", markerLabel_, true);
  svg << "</svg>\n";

  std::ofstream file(path);
  file << svg.str();
  if (!file) throw std::runtime_error("cannot write " + path);
}

}  // namespace carom::demo
