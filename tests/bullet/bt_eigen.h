// The adapter's own conversions between Bullet and Eigen (plugin/bullet/bt_eigen.h) for tests that
// compare the adapter with the core, plus a pose helper.
#pragma once

#include "../../plugin/bullet/bt_eigen.h"

namespace carom::test {

using detail::toBt;
using detail::toEigen;

inline btTransform toBt(const core::Mat3& R, const core::Vec3& x) {
  return btTransform(detail::toBt(R), detail::toBt(x));
}

}  // namespace carom::test
