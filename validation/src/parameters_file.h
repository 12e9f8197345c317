// The fitted parameters, one case per row, in a small checked-in CSV (validation/fitted.csv):
//   case,restitution,friction,height_offset,train_mean_position,evaluations
// restitution and friction dimensionless, height_offset in m, train_mean_position the fit's
// objective (mean trajectory position error on the training tosses, fraction of the side).
#pragma once

#include <string>
#include <vector>

#include "cube_model.h"

namespace carom::validation {

struct FittedCase {
  CubeModel model;
  double trainMeanPosition = 0;  // the objective at the fitted point
  int evaluations = 0;           // how many the fit took
};

// Throws std::runtime_error "PATH:LINE: problem" for a malformed file.
std::vector<FittedCase> readParameters(const std::string& path);
// Throws std::runtime_error when the file cannot be written.
void writeParameters(const std::string& path, const std::vector<FittedCase>& cases);

}  // namespace carom::validation
