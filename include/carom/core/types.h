// Fixed-size Eigen types used throughout the Bullet-free core.
#pragma once

#include <Eigen/Dense>

namespace carom::core {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

}  // namespace carom::core
