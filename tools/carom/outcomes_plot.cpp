#include "outcomes_plot.h"

#include "common/svg_plot.h"

namespace carom::cli {

std::pair<Eigen::Index, Eigen::Index> projectionContacts(const SceneImpact& impact) {
  const Eigen::MatrixXd& Jn = impact.problem.normalJacobian();
  Eigen::Index farthest = 0;
  double distance = -1;
  for (Eigen::Index i = 1; i < Jn.rows(); ++i) {
    const double d = (Jn.row(i) - Jn.row(0)).norm();
    if (d > distance) {
      distance = d;
      farthest = i;
    }
  }
  return {0, farthest};
}

void writeOutcomesPlot(const SceneImpact& impact, const std::vector<Eigen::VectorXd>& outcomes,
                       const std::vector<MarkedOutcome>& marked, const std::string& title,
                       const std::string& path) {
  const auto [i, j] = projectionContacts(impact);
  const Eigen::MatrixXd& Jn = impact.problem.normalJacobian();
  demo::LinePlot plot(title, "normal velocity at contact " + std::to_string(i) + " (m/s)",
                      "normal velocity at contact " + std::to_string(j) + " (m/s)");
  demo::Series samples{
      "sampled outcomes (" + std::to_string(outcomes.size()) + ")", "#1f77b4", {}, {}, 1.5};
  for (const Eigen::VectorXd& v : outcomes) {
    samples.x.push_back(Jn.row(i).dot(v));
    samples.y.push_back(Jn.row(j).dot(v));
  }
  plot.add(std::move(samples));
  for (const MarkedOutcome& outcome : marked) {
    plot.add({outcome.label,
              outcome.color,
              {Jn.row(i).dot(outcome.v)},
              {Jn.row(j).dot(outcome.v)},
              5.0});
  }
  plot.write(path);
}

}  // namespace carom::cli
