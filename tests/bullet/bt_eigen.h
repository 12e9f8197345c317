// Conversions between Bullet's and Eigen's vectors for tests that compare the adapter with the
// core.
#pragma once

#include <LinearMath/btTransform.h>

#include "carom/core/types.h"

namespace carom::test {

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

inline btTransform toBt(const core::Mat3& R, const core::Vec3& x) {
  return btTransform(toBt(R), toBt(x));
}

}  // namespace carom::test
