// outcomes.svg of `carom sets`: the sampled post-impact velocities projected on the normal
// velocities of two contacts, with the deterministic resolutions marked.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "scene_impact.h"

namespace carom::cli {

struct MarkedOutcome {
  std::string label;
  std::string color;
  Eigen::VectorXd v;
};

// The two contacts to project on: contact 0 and the one whose normal row differs most from it
// (for a block on a floor, two opposite corners), so that the set's branches separate.
std::pair<Eigen::Index, Eigen::Index> projectionContacts(const SceneImpact& impact);

// Writes the plot to `path`; throws when the file cannot be written.
void writeOutcomesPlot(const SceneImpact& impact, const std::vector<Eigen::VectorXd>& outcomes,
                       const std::vector<MarkedOutcome>& marked, const std::string& title,
                       const std::string& path);

}  // namespace carom::cli
