#include "sweep_contact.h"

#include <cmath>

namespace carom::core::contact {
namespace {

// The smallest Schur complement of K's tangential block, relative to K_nn, that solveLocal's block
// step trusts (dimensionless).
constexpr double kReliableSchur = 1e-8;

}  // namespace

SweepContact::SweepContact(const PersistentContact& c, const impact::ContactBody& bodyA,
                           const impact::ContactBody& bodyB)
    : a(c.bodyA), b(c.bodyB), inverseMassA(bodyA.inverseMass), inverseMassB(bodyB.inverseMass) {
  frame.col(0) = c.normal;
  frame.col(1) = c.normal.unitOrthogonal();
  frame.col(2) = c.normal.cross(frame.col(1));
  for (int k = 0; k < 3; ++k) {
    armA.col(k) = (c.point - bodyA.centerOfMass).cross(frame.col(k));
    armB.col(k) = (c.point - bodyB.centerOfMass).cross(frame.col(k));
  }
  for (const auto& [rows, matrix] : {std::pair{&rowsOfFrame, &frame}, std::pair{&rowsOfArmA, &armA},
                                     std::pair{&rowsOfArmB, &armB}}) {
    rows->topRows<3>() = matrix->transpose();
    rows->row(3).setZero();
  }
  turnA = bodyA.inverseInertiaWorld * armA;
  turnB = bodyB.inverseInertiaWorld * armB;
  turnBoundA = turnA.norm();
  turnBoundB = turnB.norm();
  // impact::inverseMassMatrix in the contact frame: −S(r) J⁻¹ S(r) there is armᵀ turn.
  Mat3 K = armA.transpose() * turnA + armB.transpose() * turnB;
  K.diagonal().array() += inverseMassA + inverseMassB;
  K.triangularView<Eigen::StrictlyLower>() = K.transpose();  // symmetric to the bit
  normalColumn = K.col(0);
  diagonal = K.diagonal();
  inverseKnn = 1.0 / K(0, 0);
  const Eigen::Matrix2d ktt = K.bottomRightCorner<2, 2>();
  stick = ktt.inverse();  // K_tt is positive definite: a contact has a body with mass
  // Zero where the complement has lost more than half its digits to cancellation (tangential rows
  // that nearly fix the normal one): the block is then never taken.
  const Eigen::Vector2d ktn = K.col(0).tail<2>();
  const double schur = K(0, 0) - ktn.dot(stick * ktn);
  inverseSchurNormal = schur > kReliableSchur * K(0, 0) ? 1.0 / schur : 0.0;
  const double half = 0.5 * (ktt(0, 0) + ktt(1, 1));
  const double skew = 0.5 * (ktt(0, 0) - ktt(1, 1));
  // √ rather than the slower std::hypot, whose care is for overflow: K's entries are inverse
  // masses, far from it.
  largestTangential = half + std::sqrt(skew * skew + ktt(0, 1) * ktt(0, 1));
}

}  // namespace carom::core::contact
