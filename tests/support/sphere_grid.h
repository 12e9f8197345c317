// A dense latitude–longitude grid on the unit sphere, for brute-force references over a curved
// surface (an ellipsoid's points are its semi-axes times these).
#pragma once

#include <cmath>

#include "carom/core/types.h"

namespace carom::test {

// Calls visit(u) for the unit vectors at polar angles πi/n (i = 0…n) and azimuths πj/n
// (j = 0…2n−1): neighbours lie π/n apart at most.
template <typename Visit>
void forEachOnUnitSphere(int n, Visit&& visit) {
  constexpr double kPi = 3.14159265358979323846;
  for (int i = 0; i <= n; ++i) {
    const double theta = kPi * i / n;
    for (int j = 0; j < 2 * n; ++j) {
      const double phi = kPi * j / n;
      visit(core::Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                       std::cos(theta)));
    }
  }
}

}  // namespace carom::test
