#include "report.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>

namespace carom::validation {
namespace {

template <class... Values>
std::string format(const char* pattern, Values... values) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

std::string modeOf(const CubeModel& model) {
  return toString(model.kind);
}

}  // namespace

std::string summaryLine(const CaseResult& r) {
  const CubeModel& m = r.fitted.model;
  const Aggregate& a = r.heldOut;
  return format(
      "%-24s e %.3f mu %.3f dz %+5.2f mm%s | pos %% mean %5.1f med %5.1f p90 %5.1f end-med %5.1f | "
      "rot mean-med %5.1f deg | face %3.0f %% | depth med %.1f mm%s",
      caseName(m).c_str(), m.restitution, m.friction, m.heightOffset * 1e3,
      m.compliant ? format(" eta2 %.2f", m.tangentialCompliance).c_str() : "",
      100 * a.meanPosition.mean, 100 * a.meanPosition.median, 100 * a.meanPosition.p90,
      100 * a.endPosition.median, a.meanRotation.median, 100 * a.restFaceRight,
      1e3 * a.penetration.median,
      a.nonFinite ? format(" | %d NON-FINITE", a.nonFinite).c_str() : "");
}

std::string markdownTable(const std::vector<CaseResult>& results) {
  std::string out =
      "| case | e | μ (impacts) | Δz (mm) | η² | train mean | held-out mean | median | p90 | "
      "end median | rot. mean (°) median / p90 | end rot. median (°) | right face | "
      "depth median / p90 (mm) "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const CaseResult& r : results) {
    const CubeModel& m = r.fitted.model;
    const Aggregate& a = r.heldOut;
    out += format(
        "| %s | %.3f | %s | %+.2f | %s | %.1f %% | **%.1f %%** | %.1f %% | %.1f %% | %.1f %% | "
        "%.1f / %.1f | %.1f | %.0f %% | %.2f / %.2f |\n",
        caseName(m).c_str(), m.restitution,
        usesFriction(m) ? format("%.3f", m.friction).c_str() : "—", m.heightOffset * 1e3,
        m.compliant ? format("%.2f", m.tangentialCompliance).c_str() : "—",
        100 * r.fitted.trainMeanPosition, 100 * a.meanPosition.mean, 100 * a.meanPosition.median,
        100 * a.meanPosition.p90, 100 * a.endPosition.median, a.meanRotation.median,
        a.meanRotation.p90, a.endRotation.median, 100 * a.restFaceRight, 1e3 * a.penetration.median,
        1e3 * a.penetration.p90);
  }
  return out;
}

std::string headlineTable(const std::vector<CaseResult>& results) {
  std::map<std::string, const CaseResult*> best;  // mode → its best case
  for (const CaseResult& r : results) {
    const CaseResult*& b = best[modeOf(r.fitted.model)];
    if (!b || r.heldOut.meanPosition.mean < b->heldOut.meanPosition.mean) b = &r;
  }
  const auto bullet = best.find("bullet");
  std::string out =
      "| mode (best law) | held-out mean | median | vs stock Bullet's best (mean) | right face "
      "|\n|---|---|---|---|---|\n";
  for (const char* mode : {"bullet", "lcp", "variational"}) {
    const auto found = best.find(mode);
    if (found == best.end()) continue;
    const Aggregate& a = found->second->heldOut;
    std::string versus = "—";
    if (bullet != best.end() && found != bullet) {
      const double reference = bullet->second->heldOut.meanPosition.mean;
      versus = format("%+.0f %%", 100 * (a.meanPosition.mean / reference - 1));
    }
    out += format("| %s | %.1f %% | %.1f %% | %s | %.0f %% |\n",
                  caseName(found->second->fitted.model).c_str(), 100 * a.meanPosition.mean,
                  100 * a.meanPosition.median, versus.c_str(), 100 * a.restFaceRight);
  }
  return out;
}

std::string firstImpactTable(const std::vector<FirstImpactResult>& results, int tossesSeen) {
  if (results.empty()) return "no multi-corner first impacts\n";
  std::string out = format(
      "%zu of %d tosses strike with several corners at their first impact (%.1f corners on "
      "average).\n\n| resolution | within 0.05 m/s | within 0.1 m/s | within 0.2 m/s | median "
      "distance (m/s) |\n|---|---|---|---|---|\n",
      results.size(), tossesSeen, [&] {
        double corners = 0;
        for (const FirstImpactResult& r : results)
          corners += static_cast<double>(r.corners) / results.size();
        return corners;
      }());
  auto row = [&](const std::string& name, auto distanceOf) {
    std::vector<double> distances;
    for (const FirstImpactResult& r : results)
      distances.push_back(distanceOf(r));
    std::string line = "| " + name;
    for (double within : {0.05, 0.1, 0.2}) {
      double hits = 0;
      for (double d : distances)
        hits += d <= within ? 100.0 / distances.size() : 0.0;
      line += format(" | %.0f %%", hits);
    }
    return line + format(" | %.3f |\n", summarize(distances).median);
  };
  out += row("Halm–Posa set (nearest sample)",
             [](const FirstImpactResult& r) { return r.setDistance; });
  for (std::size_t m = 0; m < results.front().models.size(); ++m) {
    out += row(results.front().models[m],
               [m](const FirstImpactResult& r) { return r.modelDistance[m]; });
  }
  std::vector<double> radii, linear, spin;
  for (const FirstImpactResult& r : results) {
    radii.push_back(r.setRadius);
    linear.push_back(r.setLinearMiss);
    spin.push_back(r.setSpinMiss);
  }
  out += format(
      "\nThe nearest sample's miss, median: %.3f m/s in the centre's velocity, %.3f m/s in the "
      "spin (√(I/m)|Δω|).\n",
      summarize(linear).median, summarize(spin).median);
  out += format("The set's radius (largest distance of a sample from its mean): median %.3f m/s.\n",
                summarize(radii).median);
  return out;
}

void writePerTossCsv(const std::string& path, const std::vector<std::string>& cases,
                     const std::vector<std::vector<TossMetrics>>& metrics) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out << "case,toss,mean_position,end_position,mean_rotation_deg,end_rotation_deg,"
         "rest_face_right,penetration_m,finite\n";
  for (std::size_t c = 0; c < cases.size(); ++c) {
    for (const TossMetrics& m : metrics[c]) {
      out << format("%s,%d,%.6f,%.6f,%.4f,%.4f,%d,%.6f,%d\n", cases[c].c_str(), m.toss,
                    m.meanPosition, m.endPosition, m.meanRotation, m.endRotation,
                    m.restFaceRight ? 1 : 0, m.penetration, m.finite ? 1 : 0);
    }
  }
}

void writeTrajectoryCsv(const std::string& path, const Toss& measured,
                        const SimulatedToss& simulated) {
  std::ofstream out(path);
  out << "t,x,y,z,qw,qx,qy,qz\n";
  for (std::size_t k = 0; k < simulated.poses.size(); ++k) {
    const Pose& p = simulated.poses[k];
    out << format("%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", measured.frames[k].t, p.position.x(),
                  p.position.y(), p.position.z(), p.rotation.w(), p.rotation.x(), p.rotation.y(),
                  p.rotation.z());
  }
  if (!out) throw std::runtime_error(path + ": cannot write");
}

}  // namespace carom::validation
