#include "initial_state.h"

#include <Eigen/QR>

#include "cube_model.h"

namespace carom::validation {
namespace {

// The sharp box's lowest corner above the board (m): the centre's height less the half side
// times the 1-norm of the board's vertical in the body frame.
double lowestCorner(const Frame& frame) {
  const Eigen::Matrix3d r = frame.rotation.toRotationMatrix();
  return frame.position.z() - kHalfSide * r.row(2).cwiseAbs().sum();
}

// The rotation vector of q (rad): its axis times its angle in [0, π].
Eigen::Vector3d rotationVector(const Eigen::Quaterniond& q) {
  const Eigen::AngleAxisd turn(q);
  return turn.angle() * turn.axis();
}

InitialState fromFirstTwoFrames(const Toss& toss, const Eigen::Vector3d& centreOfMass) {
  const Frame& f0 = toss.frames[0];
  const Frame& f1 = toss.frames[1];
  const double dt = f1.t - f0.t;
  InitialState start;
  start.position = massCentre(f0, centreOfMass);
  start.rotation = f0.rotation;
  start.velocity = (massCentre(f1, centreOfMass) - start.position) / dt +
                   Eigen::Vector3d(0, 0, kGravity * dt / 2);
  start.omegaWorld = f0.rotation * f1.omegaBody;
  start.flightFrames = 2;
  return start;
}

}  // namespace

Eigen::Vector3d massCentre(const Frame& frame, const Eigen::Vector3d& centreOfMass) {
  return frame.position + frame.rotation * centreOfMass;
}

InitialState initialState(const Toss& toss, const Eigen::Vector3d& centreOfMass) {
  const Frame& f0 = toss.frames[0];
  const Eigen::Quaterniond inverse0 = f0.rotation.inverse();
  int n = 0;
  for (const Frame& frame : toss.frames) {
    if (lowestCorner(frame) <= kFlightClearance ||
        Eigen::AngleAxisd(frame.rotation * inverse0).angle() >= kLargestFittedTurn) {
      break;
    }
    ++n;
  }
  if (n < 3) return fromFirstTwoFrames(toss, centreOfMass);
  // One design matrix [1 t_k] for both fits; the right sides a row per frame.
  Eigen::MatrixX2d design(n, 2);
  Eigen::MatrixX3d centre(n, 3), turn(n, 3);
  for (int k = 0; k < n; ++k) {
    const Frame& frame = toss.frames[static_cast<std::size_t>(k)];
    const double t = frame.t - f0.t;
    design.row(k) << 1, t;
    centre.row(k) = massCentre(frame, centreOfMass).transpose() +
                    Eigen::RowVector3d(0, 0, kGravity * t * t / 2);
    turn.row(k) = rotationVector(frame.rotation * inverse0).transpose();
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixX2d> qr(design);
  const Eigen::Matrix<double, 2, 3> parabola = qr.solve(centre);
  const Eigen::Matrix<double, 2, 3> spin = qr.solve(turn);
  InitialState start;
  start.position = parabola.row(0).transpose();
  start.velocity = parabola.row(1).transpose();
  const Eigen::Vector3d delta = spin.row(0).transpose();
  const double angle = delta.norm();
  const Eigen::Quaterniond correction =
      angle > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, delta / angle))
                : Eigen::Quaterniond::Identity();
  start.rotation = (correction * f0.rotation).normalized();
  start.omegaWorld = spin.row(1).transpose();
  start.flightFrames = n;
  return start;
}

}  // namespace carom::validation
