#include "carom/core/body.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

#include "carom/error.h"

namespace carom::core {
namespace {

// Relative tolerance for symmetry and for the triangle inequality: a few hundred ulps, so that
// inertias computed by summation or rotation are accepted, and nothing physically wrong is.
constexpr double kInertiaRelativeTolerance = 1e-12;

std::string describe(const Mat3& m) {
  std::ostringstream out;
  out << "[" << m.row(0) << "; " << m.row(1) << "; " << m.row(2) << "]";
  return out.str();
}

void requireFinite(const Vec3& v, const std::string& name) {
  if (!v.allFinite()) throw Error(name + " is not finite");
}

}  // namespace

MassProperties::MassProperties(double mass, const Mat3& inertia)
    : mass_(mass),
      inertia_(inertia),
      inverseInertia_(inertia.inverse()),
      nonStandardInertia_(0.5 * inertia.trace() * Mat3::Identity() - inertia),
      isotropic_(inertia == inertia(0, 0) * Mat3::Identity()) {}

MassProperties MassProperties::create(double mass, const Mat3& inertia) {
  if (!std::isfinite(mass) || !(mass > 0.0)) {
    throw Error("mass must be finite and positive, got " + std::to_string(mass));
  }
  if (!inertia.allFinite()) throw Error("inertia J is not finite: " + describe(inertia));
  const double scale = inertia.cwiseAbs().maxCoeff();
  if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() > kInertiaRelativeTolerance * scale) {
    throw Error("inertia J is not symmetric: " + describe(inertia));
  }
  const Mat3 symmetric = 0.5 * (inertia + inertia.transpose());
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(symmetric, Eigen::EigenvaluesOnly)
                           .eigenvalues();  // ascending
  if (!(moments(0) > 0.0)) {
    throw Error("inertia J is not positive definite (principal moments " +
                std::to_string(moments(0)) + ", " + std::to_string(moments(1)) + ", " +
                std::to_string(moments(2)) + ")");
  }
  if (moments(2) - (moments(0) + moments(1)) > kInertiaRelativeTolerance * moments(2)) {
    throw Error("inertia J violates the triangle inequality: principal moment " +
                std::to_string(moments(2)) + " exceeds the sum of the others " +
                std::to_string(moments(0)) + " + " + std::to_string(moments(1)));
  }
  return MassProperties(mass, symmetric);
}

MassProperties uniformEllipsoid(double mass, const Vec3& semiAxes) {
  requireFinite(semiAxes, "ellipsoid semi-axes");
  if (!(semiAxes.minCoeff() > 0.0)) throw Error("ellipsoid semi-axes must be positive");
  const Vec3 s = semiAxes.cwiseAbs2();
  return MassProperties::create(
      mass, (mass / 5.0) * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()).asDiagonal());
}

MassProperties uniformBox(double mass, const Vec3& halfExtents) {
  requireFinite(halfExtents, "box half extents");
  if (!(halfExtents.minCoeff() > 0.0)) throw Error("box half extents must be positive");
  const Vec3 s = halfExtents.cwiseAbs2();
  return MassProperties::create(
      mass, (mass / 3.0) * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()).asDiagonal());
}

BodyState stateFromVelocities(const MassProperties& body, const Vec3& position,
                              const Mat3& attitude, const Vec3& linearVelocity,
                              const Vec3& angularVelocityWorld) {
  BodyState state;
  state.x = position;
  state.R = attitude;
  state.gamma = body.mass() * linearVelocity;
  state.Pi = body.inertia() * (attitude.transpose() * angularVelocityWorld);
  validateState(state);
  return state;
}

void validateState(const BodyState& state, const std::string& what) {
  // The names are built only to throw: a variational step checks every state it flows (about 340
  // a step for 100 balls).
  const auto requireFiniteField = [&](const Vec3& v, const char* field) {
    if (!v.allFinite()) requireFinite(v, what + ": " + field);
  };
  requireFiniteField(state.x, "position x");
  requireFiniteField(state.gamma, "linear momentum gamma");
  requireFiniteField(state.Pi, "angular momentum Pi");
  if (!state.R.allFinite()) throw Error(what + ": attitude R is not finite");
  const double error = (state.R.transpose() * state.R - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (error > 1e-9 || state.R.determinant() < 0.0) {
    throw Error(what + ": attitude R is not a rotation (|R^T R - I| = " + std::to_string(error) +
                ", det R = " + std::to_string(state.R.determinant()) + ")");
  }
}

Vec3 linearVelocity(const MassProperties& body, const BodyState& state) {
  return body.inverseMass() * state.gamma;
}

Vec3 angularVelocityBody(const MassProperties& body, const BodyState& state) {
  return body.inverseInertia() * state.Pi;
}

Vec3 angularVelocityWorld(const MassProperties& body, const BodyState& state) {
  return state.R * angularVelocityBody(body, state);
}

Energy energy(const MassProperties& body, const BodyState& state, const Vec3& gravity) {
  Energy e;
  e.translational = 0.5 * body.inverseMass() * state.gamma.squaredNorm();
  e.rotational = 0.5 * state.Pi.dot(body.inverseInertia() * state.Pi);
  e.potential = -body.mass() * gravity.dot(state.x);
  return e;
}

Vec3 spatialAngularMomentum(const BodyState& state, const Vec3& about) {
  return (state.x - about).cross(state.gamma) + state.R * state.Pi;
}

}  // namespace carom::core
