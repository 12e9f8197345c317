// The README's pictures: stock Bullet against carom on two bundled scenes, every mode.
//   docs/img/bouncing_ball.svg   total energy of the elastic ball at 60 Hz over a minute, / E₀
//   docs/img/newtons_cradle.svg  each ball's final velocity in the gapped Newton's cradle
// Usage: carom-compare-modes [SCENES_DIR [OUT_DIR]]  (defaults demos/scenes, docs/img)
#include <cstdio>
#include <exception>
#include <string>

#include "body_totals.h"
#include "carom/bullet/scene.h"
#include "common/svg_plot.h"
#include "scene_world.h"

namespace {

using carom::SolverKind;

constexpr SolverKind kModes[] = {SolverKind::bullet, SolverKind::lcp, SolverKind::variational};
const char* colorOf(SolverKind mode) {
  return mode == SolverKind::bullet ? "#d62728" : mode == SolverKind::lcp ? "#ff7f0e" : "#1f77b4";
}

// A scene's world in `mode`, stepped as `carom run` steps it; `sample` sees it after every step.
template <typename Sample>
void runScene(const carom::Scene& scene, SolverKind mode, Sample sample) {
  carom::Config config = scene.config;
  config.solver.kind = mode;
  carom::cli::SceneWorld world(scene, config);
  const double h = scene.world.timestep;
  const long steps = static_cast<long>(scene.world.duration / h + 0.5);
  for (long n = 1; n <= steps; ++n) {
    world.world().stepSimulation(h, 1, h);
    sample(n * h, world);
  }
}

void plotBouncingBall(const std::string& scenes, const std::string& out) {
  const carom::Scene scene = carom::Scene::fromFile(scenes + "/bouncing_ball.toml");
  carom::demo::LinePlot plot("Elastic ball dropped from 1 m, stepped at 60 Hz", "t (s)",
                             "total energy / initial");
  for (SolverKind mode : kModes) {
    carom::demo::Series series{carom::toString(mode), colorOf(mode), {}, {}};
    double initial = 0;
    runScene(scene, mode, [&](double t, carom::cli::SceneWorld& world) {
      const double e = carom::cli::totalsOf(world.dynamicBodies(), scene.world.gravity).total();
      if (series.x.empty()) initial = e;
      series.x.push_back(t);
      series.y.push_back(e / initial);
    });
    std::printf("bouncing ball, %s: E/E0 after %g s = %.4f\n", carom::toString(mode),
                series.x.back(), series.y.back());
    plot.add(std::move(series));
  }
  plot.write(out + "/bouncing_ball.svg");
}

void plotCradle(const std::string& scenes, const std::string& out) {
  const carom::Scene scene = carom::Scene::fromFile(scenes + "/newtons_cradle_gapped.toml");
  carom::demo::LinePlot plot("Newton's cradle, gapped: velocities after the impacts", "ball",
                             "vx (m/s)");
  for (SolverKind mode : kModes) {
    // Larger dots first, so that modes that agree show as rings around one another.
    const double dot = mode == SolverKind::bullet ? 5 : mode == SolverKind::lcp ? 7 : 4;
    carom::demo::Series series{carom::toString(mode), colorOf(mode), {}, {}, dot};
    std::vector<double> vx;
    runScene(scene, mode, [&](double, carom::cli::SceneWorld& world) {
      vx.clear();
      for (const auto& body : world.dynamicBodies())
        vx.push_back(body.body->getLinearVelocity().x());
    });
    std::printf("cradle, %s: vx =", carom::toString(mode));
    for (std::size_t i = 0; i < vx.size(); ++i) {
      series.x.push_back(i + 1.0);
      series.y.push_back(vx[i]);
      std::printf(" %+.4f", vx[i]);
    }
    std::printf("\n");
    plot.add(std::move(series));
  }
  plot.write(out + "/newtons_cradle.svg");
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string scenes = argc > 1 ? argv[1] : "demos/scenes";
  const std::string out = argc > 2 ? argv[2] : "docs/img";
  plotBouncingBall(scenes, out);
  plotCradle(scenes, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "carom-compare-modes: %s\n", e.what());
  return 1;
}
