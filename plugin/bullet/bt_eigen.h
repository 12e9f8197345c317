// Conversions between Bullet's (double) vectors and matrices and the core's Eigen types: the one
// place where the adapter crosses from Bullet to the core (ARCHITECTURE.md "Layers").
#pragma once

#include "carom/bullet/precision.h"

#include <LinearMath/btTransform.h>

#include "carom/core/types.h"

namespace carom::detail {

inline btVector3 toBt(const core::Vec3& v) {
  return btVector3(v.x(), v.y(), v.z());
}
inline core::Vec3 toEigen(const btVector3& v) {
  return core::Vec3(v.x(), v.y(), v.z());
}

inline btMatrix3x3 toBt(const core::Mat3& R) {
  return btMatrix3x3(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1),
                     R(2, 2));
}
inline core::Mat3 toEigen(const btMatrix3x3& m) {
  core::Mat3 R;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      R(i, j) = m[i][j];
  }
  return R;
}

}  // namespace carom::detail
