#include "centre_motion.h"

#include "bt_eigen.h"

namespace carom {

Quadratic heightOver(const CentreMotion& c, const btStaticPlaneShape& plane,
                     const btTransform& pose) {
  const core::Vec3 n = detail::toEigen(pose.getBasis() * plane.getPlaneNormal());
  const double offset = plane.getPlaneConstant() + n.dot(detail::toEigen(pose.getOrigin()));
  return {n.dot(c.x) - offset, n.dot(c.v), 0.5 * n.dot(c.a)};
}

CentreMotion inFrameOf(const CentreMotion& c, const btTransform& pose) {
  const core::Mat3 turn = detail::toEigen(pose.getBasis()).transpose();
  return {turn * (c.x - detail::toEigen(pose.getOrigin())), turn * c.v, turn * c.a};
}

}  // namespace carom
