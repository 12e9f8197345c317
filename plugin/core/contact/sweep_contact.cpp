#include "sweep_contact.h"

#include <algorithm>
#include <cmath>

namespace carom::core::contact {

SweepContact::SweepContact(const PersistentContact& c, const impact::Contact& pair)
    : a(c.bodyA), b(c.bodyB), inverseMassA(pair.a.inverseMass), inverseMassB(pair.b.inverseMass) {
  frame.col(0) = c.normal;
  frame.col(1) = c.normal.unitOrthogonal();
  frame.col(2) = c.normal.cross(frame.col(1));
  for (int k = 0; k < 3; ++k) {
    armA.col(k) = (c.point - pair.a.centerOfMass).cross(frame.col(k));
    armB.col(k) = (c.point - pair.b.centerOfMass).cross(frame.col(k));
  }
  turnA = pair.a.inverseInertiaWorld * armA;
  turnB = pair.b.inverseInertiaWorld * armB;
  K = frame.transpose() * impact::inverseMassMatrix(pair) * frame;
  const Eigen::Matrix2d ktt = K.bottomRightCorner<2, 2>();
  stick = ktt.inverse();  // K_tt is positive definite: a contact has a body with mass
  const double half = 0.5 * (ktt(0, 0) + ktt(1, 1));
  largestTangential = half + std::hypot(0.5 * (ktt(0, 0) - ktt(1, 1)), ktt(0, 1));
}

Vec3 solveLocal(const SweepContact& s, const Vec3& u0, const Vec3& lambda0, double mu,
                double approach) {
  const double pn = std::max(0.0, lambda0(0) - (u0(0) + approach) / s.K(0, 0));
  const Vec3 u = u0 + s.K.col(0) * (pn - lambda0(0));  // the normal update, tangents unchanged
  const Eigen::Vector2d pt = lambda0.tail<2>(), ut = u.tail<2>();
  const double radius = mu * pn;
  Eigen::Vector2d next = pt - s.stick * ut;
  if (next.norm() > radius) {
    next = pt - ut / s.largestTangential;
    if (next.norm() > radius) next *= radius / next.norm();
  }
  return {pn, next(0), next(1)};
}

Vec3 onFrictionCone(const Vec3& lambda, double mu) {
  const double pn = std::max(0.0, lambda(0));
  Eigen::Vector2d pt = lambda.tail<2>();
  const double radius = mu * pn;
  if (pt.norm() > radius) pt *= radius / pt.norm();
  return {pn, pt(0), pt(1)};
}

Vec3 relativeVelocityOf(const std::vector<Vec3>& v, const std::vector<Vec3>& w,
                        const SweepContact& c) {
  Vec3 u = Vec3::Zero();
  if (c.b != kWorld) u += c.frame.transpose() * v[c.b] + c.armB.transpose() * w[c.b];
  if (c.a != kWorld) u -= c.frame.transpose() * v[c.a] + c.armA.transpose() * w[c.a];
  return u;
}

}  // namespace carom::core::contact
