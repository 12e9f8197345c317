#include "sweep_contact.h"

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
  turnBoundA = turnA.norm();
  turnBoundB = turnB.norm();
  K = frame.transpose() * impact::inverseMassMatrix(pair) * frame;
  const Eigen::Matrix2d ktt = K.bottomRightCorner<2, 2>();
  stick = ktt.inverse();  // K_tt is positive definite: a contact has a body with mass
  const double half = 0.5 * (ktt(0, 0) + ktt(1, 1));
  largestTangential = half + std::hypot(0.5 * (ktt(0, 0) - ktt(1, 1)), ktt(0, 1));
}

}  // namespace carom::core::contact
