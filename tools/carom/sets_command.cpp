#include "sets_command.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <thread>

#include "carom/core/routh/policy.h"
#include "carom/core/routh/sample_set.h"
#include "carom/error.h"
#include "outcomes_plot.h"
#include "staged_output.h"

namespace carom::cli {
namespace {

using core::routh::ImpactPolicy;
using core::routh::PolicyKind;
using core::routh::PolicyResult;

// Ten significant digits: far below the sampling's own spread, and the same bytes for the same
// numbers on every run.
constexpr int kCsvDigits = 10;

// The impulse step h of Algorithm 2 (N·s). The paper tunes h per example (Tables 4–8); a scene
// states none, so h is the total normal impulse of the simultaneous (Anitescu–Potra) resolution:
// the impact's own scale, so one step with all caps near h can finish it, and caps uniform in
// [0, h] split it between contacts in every proportion.
double stepSizeOf(const PolicyResult& simultaneous) {
  return simultaneous.outcome.impulseN.sum();
}

PolicyResult resolveSequential(const SceneImpact& impact, std::vector<Eigen::Index> order,
                               std::uint64_t seed) {
  ImpactPolicy policy;
  policy.kind = PolicyKind::kSequential;
  policy.order = std::move(order);
  policy.seed = seed;
  return core::routh::resolveImpact(impact.problem, impact.vMinus, policy);
}

std::string outcomesCsv(const Scene& scene, const SceneImpact& impact,
                        const core::routh::ImpactSet& set) {
  std::ostringstream csv;
  csv << std::setprecision(kCsvDigits);
  csv << "sample,body,vx,vy,vz,wx,wy,wz,kinetic\n";
  for (std::size_t s = 0; s < set.outcomes.size(); ++s) {
    if (!set.outcomes[s].terminated()) continue;  // not a point of the set (digest §5.3)
    const Eigen::VectorXd& v = set.outcomes[s].v;
    for (std::size_t b = 0; b < impact.dynamic.size(); ++b) {
      csv << s << ',' << scene.bodies[impact.dynamic[b]].name;
      for (Eigen::Index k = 0; k < 6; ++k)
        csv << ',' << v(6 * b + k) + 0.0;  // + 0.0: no "-0"
      csv << ',' << bodyKineticEnergy(scene, impact, b, v) << '\n';
    }
  }
  return csv.str();
}

void logOutcome(const Scene& scene, const SceneImpact& impact, const std::string& label,
                const Eigen::VectorXd& v, std::ostream& log) {
  log << label << ":";
  for (std::size_t b = 0; b < impact.dynamic.size(); ++b) {
    log << " " << scene.bodies[impact.dynamic[b]].name << " v [" << v(6 * b) << ", " << v(6 * b + 1)
        << ", " << v(6 * b + 2) << "] ω [" << v(6 * b + 3) << ", " << v(6 * b + 4) << ", "
        << v(6 * b + 5) << "]";
  }
  log << ", kinetic " << impact.problem.kineticEnergy(v) << " J\n";
}

}  // namespace

void runSets(const SetsOptions& options, std::ostream& log) {
  const Scene scene = Scene::fromFile(options.scene);
  const auto shapes = makeShapes(scene);
  const SceneImpact impact = buildSceneImpact(scene, findContacts(scene, shapes));
  const std::uint64_t seed = scene.config.solver.seed;

  ImpactPolicy simultaneousPolicy;
  simultaneousPolicy.seed = seed;
  const PolicyResult simultaneous =
      core::routh::resolveImpact(impact.problem, impact.vMinus, simultaneousPolicy);
  const double h = stepSizeOf(simultaneous);
  if (!(h > 0)) {
    throw Error(scene.source + ": no contact approaches at t = 0: there is no impact to sample");
  }
  std::vector<Eigen::Index> order(static_cast<std::size_t>(impact.contacts.size()));
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<Eigen::Index>(i);
  const PolicyResult forward = resolveSequential(impact, order, seed);
  std::reverse(order.begin(), order.end());
  const PolicyResult backward = resolveSequential(impact, order, seed);

  core::routh::SampleSetOptions sampling;
  sampling.samples = options.samples;
  sampling.seed = seed;
  if (options.threads < 0)
    throw Error("--threads: must be ≥ 1, got " + std::to_string(options.threads));
  sampling.threads = options.threads > 0
                         ? options.threads
                         : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const core::routh::ImpactSet set =
      core::routh::sampleImpactSet(impact.problem, impact.vMinus, h, sampling);

  log << scene.source << ": " << impact.contacts.size() << " contacts\n";
  for (std::size_t c = 0; c < impact.contacts.size(); ++c) {
    const SceneContact& contact = impact.contacts[c];
    log << "contact " << c << ": " << scene.bodies[contact.bodyA].name << " / "
        << scene.bodies[contact.bodyB].name << " at [" << contact.point.x() << ", "
        << contact.point.y() << ", " << contact.point.z() << "] normal [" << contact.normal.x()
        << ", " << contact.normal.y() << ", " << contact.normal.z() << "] friction "
        << impact.problem.friction()(static_cast<Eigen::Index>(c)) << "\n";
  }
  log << "samples: " << set.terminatedCount() << " of " << set.outcomes.size()
      << " terminated, step size h " << h << " N·s, seed " << seed << ", " << set.meanSteps()
      << " LCPs per sample\n";
  // Halm–Posa's set is that of the compression impulses; a material's restitution is an
  // engine's business afterwards (core/routh/restitution.h), and a user should not expect it here.
  log << "the set is inelastic: material restitution is not applied by carom sets\n";
  logOutcome(scene, impact, "before", impact.vMinus, log);
  logOutcome(scene, impact, "simultaneous", simultaneous.outcome.v, log);
  logOutcome(scene, impact, "sequential 0..m-1", forward.outcome.v, log);
  logOutcome(scene, impact, "sequential m-1..0", backward.outcome.v, log);

  StagedOutput output(options.out);
  output.write("outcomes.csv", outcomesCsv(scene, impact, set));
  writeOutcomesPlot(impact, set.postImpactVelocities(),
                    {{"simultaneous (Anitescu–Potra)", "#d62728", simultaneous.outcome.v},
                     {"sequential, contacts 0..m−1", "#2ca02c", forward.outcome.v},
                     {"sequential, contacts m−1..0", "#ff7f0e", backward.outcome.v}},
                    "carom sets " + scene.source, output.stage("outcomes.svg"));
  output.commit();
  log << "wrote " << options.out << "/outcomes.csv and " << options.out << "/outcomes.svg\n";
}

}  // namespace carom::cli
