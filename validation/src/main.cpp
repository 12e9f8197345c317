// carom-validate: re-simulates the measured cube tosses (validation/data/cube_tosses) in every mode
// and impact law with the fitted parameters, reports the errors on the held-out tosses and draws
// the figures of docs/validation.md; --fit refits the parameters on the training tosses first.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "evaluate.h"
#include "figures.h"
#include "first_impact.h"
#include "fit.h"
#include "report.h"
#include "split.h"

namespace cv = carom::validation;

namespace {

// Every case the validation runs: stock Bullet at the camera's step, a half, a quarter and an
// eighth of it, and each carom mode with each law (strict maps at each roughness, Stronge's rigid
// and compliant).
std::vector<std::string> allCases() {
  std::vector<std::string> cases{"bullet", "bullet@2", "bullet@4", "bullet@8"};
  for (const char* mode : {"lcp", "variational"}) {
    for (const char* law :
         {"newton", "poisson", "stronge", "stronge-tc", "strict-k0", "strict-k1", "strict-k2"})
      cases.push_back(std::string(mode) + "/" + law);
  }
  return cases;
}

// A case's starting point for a fit: its fitted values if the file has them; for a compliant case
// without, its rigid case's values and η² = 1 (an elastic contact's is 1.1–1.4); else the source's
// friction and a middling restitution and offset.
cv::FittedCase startOf(const std::string& name, const std::vector<cv::FittedCase>& known) {
  for (const cv::FittedCase& c : known) {
    if (cv::caseName(c.model) == name) return c;
  }
  cv::FittedCase start;
  start.model = cv::parseCaseName(name);
  if (start.model.compliant) {
    cv::CubeModel rigid = start.model;
    rigid.compliant = false;
    for (const cv::FittedCase& c : known) {
      if (cv::caseName(c.model) != cv::caseName(rigid)) continue;
      start.model.restitution = c.model.restitution;
      start.model.friction = c.model.friction;
      start.model.heightOffset = c.model.heightOffset;
      start.model.tangentialCompliance = 1.0;
      return start;
    }
    start.model.tangentialCompliance = 1.0;
  }
  start.model.restitution = 0.3;
  start.model.friction = 0.2;
  start.model.heightOffset = 0.001;
  return start;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("carom-validate: real cube tosses re-simulated in every mode and law");
  std::string data = CAROM_VALIDATION_DIR "/data/cube_tosses/tosses";
  std::string parameters = CAROM_VALIDATION_DIR "/fitted.csv";
  std::string out = "validate-out", trajectories;
  std::vector<std::string> cases;
  bool fit = false, figures = true;
  int budget = 50, threads = 0, trainStride = 1;
  app.add_option("--data", data, "directory of toss_NNN.csv files");
  app.add_option("--parameters", parameters, "fitted parameters CSV (read; written by --fit)");
  app.add_option("--out", out, "directory for results.md, per_toss.csv and the SVG figures");
  app.add_option("--cases", cases, "cases to run, e.g. bullet variational/stronge (default: all)")
      ->delimiter(',');
  app.add_flag("--fit", fit, "refit the cases' parameters on the training tosses first");
  app.add_option("--budget", budget, "objective evaluations per fitted case")
      ->check(CLI::PositiveNumber);
  app.add_option("--train-stride", trainStride,
                 "fit on every Nth training toss only (faster, coarser fits)")
      ->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "worker threads (0: all cores; results do not depend on it)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("!--no-figures", figures, "skip the SVG figures");
  app.add_option("--trajectories", trajectories,
                 "also write every toss simulated by each case to DIR/CASE/toss_NNN.csv");
  CLI11_PARSE(app, argc, argv);

  try {
    const auto started = std::chrono::steady_clock::now();
    const std::vector<cv::Toss> tosses = cv::readTosses(data);
    const cv::Split split = cv::splitTosses(tosses);
    std::printf("%zu tosses: %zu for training (even group number), %zu held out (odd)\n",
                tosses.size(), split.train.size(), split.test.size());
    std::vector<cv::FittedCase> known;
    if (std::filesystem::exists(parameters)) known = cv::readParameters(parameters);
    if (cases.empty()) cases = fit || known.empty() ? allCases() : std::vector<std::string>{};
    if (cases.empty()) {
      for (const cv::FittedCase& c : known)
        cases.push_back(cv::caseName(c.model));
    }

    std::vector<cv::FittedCase> fitted;
    for (const std::string& name : cases) {
      fitted.push_back(startOf(name, known));
      if (!fit) continue;
      std::vector<const cv::Toss*> train;
      for (std::size_t i = 0; i < split.train.size(); i += trainStride)
        train.push_back(split.train[i]);
      std::printf("fitting %s on %zu training tosses, %d evaluations\n", name.c_str(), train.size(),
                  budget);
      cv::FitOptions options;
      options.maxEvaluations = budget;
      options.threads = threads;
      fitted.back() = cv::fitCase(fitted.back().model, train, options, &std::cout);
      // Written after each case so that an interrupted fit keeps what it has done.
      std::vector<cv::FittedCase> merged = known;
      bool replaced = false;
      for (cv::FittedCase& c : merged) {
        if (cv::caseName(c.model) == name) c = fitted.back(), replaced = true;
      }
      if (!replaced) merged.push_back(fitted.back());
      cv::writeParameters(parameters, merged);
      known = merged;
    }

    std::filesystem::create_directories(out);
    std::vector<cv::CaseResult> results;
    std::vector<std::vector<cv::TossMetrics>> perToss;
    for (const cv::FittedCase& c : fitted) {
      const auto caseStart = std::chrono::steady_clock::now();
      perToss.push_back(cv::evaluate(split.test, c.model, threads));
      results.push_back({c, cv::aggregate(perToss.back())});
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - caseStart).count();
      std::printf("%s  (%.1f s)\n", cv::summaryLine(results.back()).c_str(), seconds);
      std::fflush(stdout);
    }
    cv::writePerTossCsv(out + "/per_toss.csv", cases, perToss);
    if (!trajectories.empty()) {
      for (const cv::FittedCase& c : fitted) {
        std::string folder = cv::caseName(c.model);
        std::replace(folder.begin(), folder.end(), '/', '_');
        folder = trajectories + "/" + folder;
        std::filesystem::create_directories(folder);
        cv::parallelFor(static_cast<int>(tosses.size()), threads, [&](int i) {
          char name[32];
          std::snprintf(name, sizeof name, "/toss_%03d.csv", tosses[i].number);
          cv::writeTrajectoryCsv(folder + name, tosses[i], cv::simulate(tosses[i], c.model));
        });
      }
    }
    std::ofstream md(out + "/results.md");
    md << "## Headline (held-out tosses, mean trajectory position error, % of the side)\n\n"
       << cv::headlineTable(results) << "\n## Every case\n\n"
       << cv::markdownTable(results);
    std::cout << "\n" << cv::headlineTable(results) << "\n" << cv::markdownTable(results);

    // Part 4: the Halm–Posa set at multi-corner first impacts of the held-out tosses, with the
    // best variational Poisson fit's μ, e, height offset and centre of mass where there is one.
    cv::FirstImpactOptions impactOptions;
    for (const cv::FittedCase& c : known) {
      if (cv::caseName(c.model) == "variational/poisson") {
        impactOptions.friction = c.model.friction;
        impactOptions.restitution = c.model.restitution;
        impactOptions.heightOffset = c.model.heightOffset;
        impactOptions.centreOfMass = c.model.centreOfMass;
      }
    }
    std::vector<std::optional<cv::FirstImpactResult>> impacts(split.test.size());
    cv::parallelFor(static_cast<int>(split.test.size()), threads, [&](int i) {
      impacts[i] = cv::analyseFirstImpact(*split.test[i], impactOptions);
    });
    std::vector<cv::FirstImpactResult> found;
    for (const auto& impact : impacts) {
      if (impact) found.push_back(*impact);
    }
    const std::string impactTable =
        cv::firstImpactTable(found, static_cast<int>(split.test.size()));
    md << "\n## First impacts with several corners (held-out tosses)\n\n" << impactTable;
    std::cout << "\n" << impactTable;

    if (figures) {
      // Each mode's best case, as in the headline.
      std::map<std::string, const cv::CaseResult*> best;
      for (const cv::CaseResult& r : results) {
        const cv::CaseResult*& b = best[carom::toString(r.fitted.model.kind)];
        if (!b || r.heldOut.meanPosition.mean < b->heldOut.meanPosition.mean) b = &r;
      }
      std::vector<cv::CubeModel> models;
      for (const char* mode : {"bullet", "lcp", "variational"}) {
        if (best.count(mode)) models.push_back(best[mode]->fitted.model);
      }
      cv::writeErrorOverTime(out + "/error-over-time.svg", split.test, models, threads);
      cv::writeTossFigures(out + "/toss-" + std::to_string(split.test.front()->number),
                           *split.test.front(), models);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("\nwrote %s/results.md, per_toss.csv%s (%.0f s)\n", out.c_str(),
                figures ? " and the SVG figures" : "", seconds);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "carom-validate: %s\n", error.what());
    return 1;
  }
  return 0;
}
