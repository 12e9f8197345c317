// The SVG figures of docs/validation.md, drawn with the demos' plot helper (demos/common).
#pragma once

#include <string>
#include <vector>

#include "cube_model.h"
#include "toss.h"

namespace carom::validation {

// Mean position error (fraction of the side, in %) against time after release over `tosses`, one
// curve per model; at each frame the mean is over the tosses that last that long, and the curve
// stops where fewer than a quarter of them do.
void writeErrorOverTime(const std::string& path, const std::vector<const Toss*>& tosses,
                        const std::vector<CubeModel>& models, int threads);

// One toss: measured and simulated height (mm) and orientation (the angle turned from the first
// frame, degrees) against time, one file each: PATH_PREFIX-height.svg, PATH_PREFIX-angle.svg.
void writeTossFigures(const std::string& pathPrefix, const Toss& toss,
                      const std::vector<CubeModel>& models);

}  // namespace carom::validation
