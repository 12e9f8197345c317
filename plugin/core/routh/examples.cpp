#include "carom/core/routh/examples.h"

#include <array>
#include <cmath>
#include <initializer_list>

namespace carom::core::routh {
namespace {

constexpr double kGravity = 9.81;  // m/s², the authors' code

double degrees(double angle) {
  return angle * EIGEN_PI / 180.0;
}

// The row mapping a planar body's [vx, vy, ω] to the velocity of the point at offset r from its
// centre of mass along `direction`: d·(v + ω e_z × r) = [d_x, d_y, r_x d_y − r_y d_x].
Eigen::RowVector3d planarRow(const Eigen::Vector2d& r, const Eigen::Vector2d& direction) {
  return {direction.x(), direction.y(), r.x() * direction.y() - r.y() * direction.x()};
}

// The contact rows of one planar body against fixed surfaces: per contact {r, n, t}, the offset
// of the contact point from the centre of mass, the surface normal and its tangent.
struct PlanarBodyContacts {
  Eigen::MatrixXd Jn, Jt;
};

PlanarBodyContacts fixedSurfaceContacts(
    const std::initializer_list<std::array<Eigen::Vector2d, 3>>& contacts) {
  PlanarBodyContacts rows{Eigen::MatrixXd(contacts.size(), 3), Eigen::MatrixXd(contacts.size(), 3)};
  Eigen::Index i = 0;
  for (const auto& [r, n, t] : contacts) {
    rows.Jn.row(i) = planarRow(r, n);
    rows.Jt.row(i) = planarRow(r, t);
    ++i;
  }
  return rows;
}

}  // namespace

ImpactExample rockingBlock() {
  const double width = 1.0, height = 2.0, mass = 1.0;
  const double inertia = mass * (width * width + height * height) / 12.0;
  const Eigen::Vector2d up(0.0, 1.0), right(1.0, 0.0);
  const PlanarBodyContacts rows = fixedSurfaceContacts({
      {Eigen::Vector2d(-width / 2, -height / 2), up, right},  // A
      {Eigen::Vector2d(width / 2, -height / 2), up, right},   // B
  });
  const double v0 = std::sqrt(2.0 * kGravity * 0.01);
  return {ImpactProblem::planar(Eigen::Vector3d(mass, mass, inertia).asDiagonal().toDenseMatrix(),
                                rows.Jn, rows.Jt, Eigen::Vector2d(1.0, 1.0)),
          Eigen::Vector3d(0.0, -v0, 0.0), 0.3, 10};
}

ImpactExample compassGait() {
  const double legLength = 1.0, massOffset = 0.5, legMass = 1.0, rate = 0.25;
  const double lead = degrees(-78.0), trail = degrees(78.0);
  // Point (x + s sin φ, y − s cos φ) on a leg has Jacobian [[1, 0, s cos φ], [0, 1, s sin φ]] in
  // (x, y, φ); M = Σ_legs m JᵀJ and a foot (s = l) gives the contact rows (floor: n = +y, t = +x).
  const auto pointJacobian = [](double s, double phi, Eigen::Index column) {
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(2, 4);
    J(0, 0) = J(1, 1) = 1.0;
    J(0, column) = s * std::cos(phi);
    J(1, column) = s * std::sin(phi);
    return J;
  };
  const Eigen::MatrixXd massLead = pointJacobian(massOffset, lead, 2);
  const Eigen::MatrixXd massTrail = pointJacobian(massOffset, trail, 3);
  const Eigen::MatrixXd M =
      legMass * (massLead.transpose() * massLead + massTrail.transpose() * massTrail);
  const Eigen::MatrixXd footLead = pointJacobian(legLength, lead, 2);
  const Eigen::MatrixXd footTrail = pointJacobian(legLength, trail, 3);
  Eigen::MatrixXd Jn(2, 4), Jt(2, 4);
  Jn << footLead.row(1), footTrail.row(1);
  Jt << footLead.row(0), footTrail.row(0);
  // Both legs turn at `rate` and the hip moves so that the trailing foot stays still.
  Eigen::Vector4d vMinus(-legLength * std::cos(trail) * rate, -legLength * std::sin(trail) * rate,
                         rate, rate);
  return {ImpactProblem::planar(M, Jn, Jt, Eigen::Vector2d(5.0, 5.0)), vMinus, 0.25, 5};
}

ImpactExample boxAndWall() {
  const double side = 1.0, mass = 1.0, inertia = mass * side * side / 6.0;
  const double angle = degrees(90.0 - 10.0);
  const Eigen::Rotation2Dd rotation(angle);
  // The lowest corner A touches the floor (n = +y, t = +x), the rightmost corner B the wall at
  // x = 0 facing −x (n = −x, t = −y, the code's contactFrameProjection).
  const PlanarBodyContacts rows = fixedSurfaceContacts({
      {rotation * Eigen::Vector2d(-side / 2, -side / 2), Eigen::Vector2d(0, 1),
       Eigen::Vector2d(1, 0)},
      {rotation * Eigen::Vector2d(side / 2, -side / 2), Eigen::Vector2d(-1, 0),
       Eigen::Vector2d(0, -1)},
  });
  return {ImpactProblem::planar(Eigen::Vector3d(mass, mass, inertia).asDiagonal().toDenseMatrix(),
                                rows.Jn, rows.Jt, Eigen::Vector2d(1.0, 1.0)),
          Eigen::Vector3d(1.0, 0.0, 0.0), 2.0, 5};
}

ImpactExample diskStack() {
  const double radius = 1.0, mass = 1.0, inertia = 0.5 * mass * radius * radius;
  const Eigen::Vector2d left(0.0, 1.0), right(2.0, 1.0), top(1.0, 1.0 + std::sqrt(3.0));
  enum Body { kLeft = 0, kRight = 1, kTop = 2 };
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(5, 9), Jt = Eigen::MatrixXd::Zero(5, 9);
  // Contact i between body a (normal pointing into it) and body b (−1 for the ground): rows
  // relative velocity of a's point minus b's point, with t = n rotated by +90°.
  const auto addContact = [&](Eigen::Index i, int a, int b, const Eigen::Vector2d& n,
                              const Eigen::Vector2d& point, const Eigen::Vector2d* centers) {
    const Eigen::Vector2d t(-n.y(), n.x());
    Jn.block<1, 3>(i, 3 * a) = planarRow(point - centers[a], n);
    Jt.block<1, 3>(i, 3 * a) = planarRow(point - centers[a], t);
    if (b < 0) return;
    Jn.block<1, 3>(i, 3 * b) = -planarRow(point - centers[b], n);
    Jt.block<1, 3>(i, 3 * b) = -planarRow(point - centers[b], t);
  };
  const Eigen::Vector2d centers[3] = {left, right, top};
  const Eigen::Vector2d up(0.0, 1.0);
  addContact(0, kLeft, -1, up, left - radius * up, centers);    // A
  addContact(1, kRight, -1, up, right - radius * up, centers);  // B
  const Eigen::Vector2d nC = (top - left).normalized(), nD = (top - right).normalized();
  addContact(2, kTop, kLeft, nC, left + radius * nC, centers);    // C
  addContact(3, kTop, kRight, nD, right + radius * nD, centers);  // D
  const Eigen::Vector2d nE = (right - left).normalized();
  addContact(4, kRight, kLeft, nE, left + radius * nE, centers);  // E
  Eigen::VectorXd masses(9);
  masses << mass, mass, inertia, mass, mass, inertia, mass, mass, inertia;
  Eigen::VectorXd vMinus = Eigen::VectorXd::Zero(9);
  vMinus(3 * kTop + 1) = -1.0;
  return {ImpactProblem::planar(masses.asDiagonal().toDenseMatrix(), Jn, Jt,
                                Eigen::VectorXd::Constant(5, std::sqrt(3.0))),
          vMinus, 1.0, 10};
}

}  // namespace carom::core::routh
