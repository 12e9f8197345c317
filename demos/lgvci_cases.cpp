// The four experiments of Tran & Leok (Table 1) run by carom's variational collision integrator.
// For each case it writes, under --out DIR (default ./demo-out):
//   case-N/states.csv    t, pose (x, quaternion), momenta (γ, Π), energies, linear momentum and
//                        angular momentum about the origin, every --every steps
//   case-N/impacts.csv   every impact: instant, fraction of its step, impulse λ, Φ̇⁻, Φ̇⁺, Φ
//   case-N/energy.svg    total, translational + potential and rotational energy over the first
//                        --plot-seconds (the paper's Fig. 7)
//   case-N/energy-error.svg   E − E₀ over the whole run (the paper's Fig. 8)
// and prints one summary line per case.
#include <Eigen/Geometry>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "carom/core/tran_leok_cases.h"
#include "carom/error.h"
#include "common/svg_plot.h"

namespace {

using namespace carom::core;

struct Options {
  std::string out = "demo-out";
  long steps = 100000;  // the paper's 10⁵ steps of h = 0.01
  long every = 10;
  double plotSeconds = 20.0;
};

long positive(const std::string& flag, const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1) throw carom::Error(flag + " needs a positive integer");
  return value;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::puts("usage: carom-lgvci-cases [--out DIR] [--steps N] [--every N] [--plot-seconds T]");
      std::exit(0);
    }
    if (i + 1 >= argc) throw carom::Error("unknown option or missing value: " + flag);
    const char* value = argv[++i];
    if (flag == "--out")
      o.out = value;
    else if (flag == "--steps")
      o.steps = positive(flag, value);
    else if (flag == "--every")
      o.every = positive(flag, value);
    else if (flag == "--plot-seconds")
      o.plotSeconds = static_cast<double>(positive(flag, value));
    else
      throw carom::Error("unknown option " + flag);
  }
  return o;
}

void runCase(TranLeokCase which, const Options& o) {
  const TranLeokSetup setup = tranLeokSetup(which);
  const CollisionIntegrator integrator = tranLeokIntegrator(setup);
  const double h = integrator.settings().h;
  const Vec3 g = setup.load.gravity;
  const std::filesystem::path dir = std::filesystem::path(o.out) / ("case-" + setup.name);
  std::filesystem::create_directories(dir);
  std::ofstream states(dir / "states.csv"), impacts(dir / "impacts.csv");
  states.precision(17);
  impacts.precision(17);
  states << "t,x,y,z,qw,qx,qy,qz,gamma_x,gamma_y,gamma_z,Pi_x,Pi_y,Pi_z,translational,rotational,"
            "potential,total,px,py,pz,Lx,Ly,Lz\n";
  impacts << "t,fraction,lambda,phidot_pre,phidot_post,phi\n";

  carom::demo::Series total{"total", "#000000", {}, {}},
      tpe{"translational + potential", "#1f77b4", {}, {}}, rot{"rotational", "#2ca02c", {}, {}},
      error{"E - E0", "#000000", {}, {}};
  std::vector<double> impactTimes;
  BodyState s = setup.initial;
  const double e0 = energy(setup.body, s, g).total();
  for (long k = 0; k <= o.steps; ++k) {
    const double t = k * h;
    const Energy e = energy(setup.body, s, g);
    if (k % o.every == 0) {
      const Eigen::Quaterniond q(s.R);
      const Vec3 L = spatialAngularMomentum(s);
      states << t << ',' << s.x.x() << ',' << s.x.y() << ',' << s.x.z() << ',' << q.w() << ','
             << q.x() << ',' << q.y() << ',' << q.z() << ',' << s.gamma.x() << ',' << s.gamma.y()
             << ',' << s.gamma.z() << ',' << s.Pi.x() << ',' << s.Pi.y() << ',' << s.Pi.z() << ','
             << e.translational << ',' << e.rotational << ',' << e.potential << ',' << e.total()
             << ',' << s.gamma.x() << ',' << s.gamma.y() << ',' << s.gamma.z() << ',' << L.x()
             << ',' << L.y() << ',' << L.z() << '\n';
      error.x.push_back(t);
      error.y.push_back(e.total() - e0);
    }
    if (t <= o.plotSeconds) {
      for (carom::demo::Series* series : {&total, &tpe, &rot})
        series->x.push_back(t);
      total.y.push_back(e.total());
      tpe.y.push_back(e.translational + e.potential);
      rot.y.push_back(e.rotational);
    }
    if (k == o.steps) break;
    const StepReport report = integrator.step(s, t);
    if (!report.ok()) throw carom::Error("case " + setup.name + ": " + report.message);
    for (const ImpactRecord& i : report.impacts) {
      impacts << i.time << ',' << i.fraction << ',' << i.lambda << ',' << i.phiDotMinus << ','
              << (i.applied ? -i.phiDotMinus : i.phiDotMinus) << ',' << i.phi << '\n';
      impactTimes.push_back(i.time);
    }
    s = report.state;
  }

  carom::demo::LinePlot energyPlot("Tran & Leok case " + setup.name + ": energy", "t (s)", "J");
  for (carom::demo::Series* series : {&total, &tpe, &rot})
    energyPlot.add(std::move(*series));
  energyPlot.addMarkers(impactTimes, "impacts");
  energyPlot.write((dir / "energy.svg").string());
  carom::demo::LinePlot errorPlot("Tran & Leok case " + setup.name + ": energy error", "t (s)",
                                  "E - E0 (J)");
  errorPlot.add(std::move(error));
  errorPlot.write((dir / "energy-error.svg").string());
  const Energy end = energy(setup.body, s, g);
  std::printf("case %-3s %8.1f s  %4zu impacts  E0 = %.10f J  E - E0 = %+.2e J  -> %s\n",
              setup.name.c_str(), o.steps * h, impactTimes.size(), e0, end.total() - e0,
              dir.string().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    for (TranLeokCase which : kTranLeokCases)
      runCase(which, options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "carom-lgvci-cases: %s\n", e.what());
    return 1;
  }
  return 0;
}
