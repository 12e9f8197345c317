// What `carom check` prints: the scene as carom understood it, defaults filled in.
#pragma once

#include <ostream>

#include "carom/bullet/scene.h"

namespace carom::cli {

void printScene(const Scene& scene, std::ostream& out);

}  // namespace carom::cli
