#include "variational_limits.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "carom/core/contact/joint_rows.h"
#include "carom/core/event.h"
#include "carom/error.h"
#include "variational_joints.h"

namespace carom::detail {
namespace {

using core::BodyState;
using core::Vec3;
using core::joints::JointedSystem;

constexpr double kPi = 3.14159265358979323846;

// A stop closer than this to its angle counts as reached (rad): a locked hinge leaves its angle
// there to the joints' tolerance (1e-14), a located strike on the admissible side of the root.
constexpr double kAtStop = 1e-12;
// Strikes of one flow before it gives up (then it throws): a Zeno sequence ends in a lock after
// one rebound, so only a group whose stops strike each other in turn comes near it.
constexpr int kMaxStopStrikes = 64;

// An angle brought into (−π, π].
double wrapped(double angle) {
  return std::atan2(std::sin(angle), std::cos(angle));
}

// One stop of a hinge: side +1 the low stop (φ = θ − low), −1 the high one (φ = high − θ).
struct Stop {
  int drive;
  double side;
};

// The frames' axes in the world (E = RC; C on the world) of a joint's side.
core::Mat3 axesOf(const core::joints::JointFrame& frame, const std::vector<BodyState>& states) {
  if (frame.body == core::joints::kWorld) return frame.basis;
  return states[frame.body].R * frame.basis;
}

// φ of a stop: the distance of θ from the stop on the admissible side (rad), θ taken within π of
// the range's centre.
double gapOf(const JointedSystem& system, const HingeDrive& drive, double side,
             const std::vector<BodyState>& states) {
  const double offset = wrapped(hingeAngle(system, drive, states) - drive.center);
  return drive.halfRange + side * offset;
}

// Body i of the group as the core's velocity-level solvers take it.
core::impact::ContactBody contactBodyOf(const core::MassProperties& mass, const BodyState& state) {
  core::impact::ContactBody body;
  body.inverseMass = mass.inverseMass();
  body.inverseInertiaWorld = state.R * mass.inverseInertia() * state.R.transpose();
  body.centerOfMass = state.x;
  body.linearVelocity = core::linearVelocity(mass, state);
  body.angularVelocity = core::angularVelocityWorld(mass, state);
  return body;
}

// The row θ̇ · side of a hinge (φ̇ of its stop on `side`; θ̇ itself for side 1): an angular row
// sign·side·(ω_A − ω_B)·z_A between the joint's bodies.
core::contact::JointRow angleRowOf(const JointedSystem& system, const HingeDrive& drive,
                                   double side, const std::vector<BodyState>& states) {
  const core::joints::Joint& joint = system.joints()[drive.joint];
  const Vec3 axis = axesOf(joint.a, states).col(2) * (drive.sign * side);
  core::contact::JointRow row;
  if (joint.a.body != core::joints::kWorld) {
    row.bodyA = joint.a.body;
    row.angularA = axis;
  }
  if (joint.b.body != core::joints::kWorld) {
    row.bodyB = joint.b.body;
    row.angularB = -axis;
  }
  return row;
}

// Applies along `row` the impulse `impulseFor(v, w)` (v the row's velocity now, w its change per
// unit impulse with the system's joint rows held at their velocities) to the states' momenta,
// through the joints. Nothing where no motion of the group changes the row (w ≈ 0).
void strikeRow(const JointedSystem& system, std::vector<BodyState>& states,
               const core::contact::JointRow& row,
               const std::function<double(double, double)>& impulseFor) {
  std::vector<core::impact::ContactBody> bodies;
  for (std::size_t i = 0; i < states.size(); ++i)
    bodies.push_back(contactBodyOf(system.bodies()[i], states[i]));
  std::vector<int> slots(states.size());
  std::iota(slots.begin(), slots.end(), 0);
  const core::contact::JointSystem joints(bodies, jointRowsOf(system, states, slots));
  std::vector<Vec3> linear, angular;
  for (const core::impact::ContactBody& body : bodies) {
    linear.push_back(body.linearVelocity);
    angular.push_back(body.angularVelocity);
  }
  const Eigen::VectorXd held = joints.velocities(linear, angular);
  const auto rowVelocity = [&](const std::vector<Vec3>& v, const std::vector<Vec3>& w) {
    double u = 0;
    if (row.bodyA >= 0) u += row.linearA.dot(v[row.bodyA]) + row.angularA.dot(w[row.bodyA]);
    if (row.bodyB >= 0) u += row.linearB.dot(v[row.bodyB]) + row.angularB.dot(w[row.bodyB]);
    return u;
  };
  // The response to a unit impulse along the row, the joint rows then brought back to their
  // velocities: linear in the impulse, so any impulse λ moves the velocities by λ times it.
  std::vector<Vec3> unitLinear = linear, unitAngular = angular;
  const auto push = [&](int b, const Vec3& l, const Vec3& a) {
    if (b < 0) return;
    unitLinear[b] += bodies[b].inverseMass * l;
    unitAngular[b] += bodies[b].inverseInertiaWorld * a;
  };
  push(row.bodyA, row.linearA, row.angularA);
  push(row.bodyB, row.linearB, row.angularB);
  if (!joints.empty()) joints.hold(unitLinear, unitAngular, held);
  const double v = rowVelocity(linear, angular);
  const double w = rowVelocity(unitLinear, unitAngular) - v;
  // Below this a stop's row is one no motion of the group turns (1/(kg m²), far below any body's).
  constexpr double kRigidRow = 1e-12;
  if (!(w > kRigidRow)) return;
  const double lambda = impulseFor(v, w);
  for (std::size_t i = 0; i < states.size(); ++i) {
    const core::MassProperties& mass = system.bodies()[i];
    const Vec3 velocity = linear[i] + lambda * (unitLinear[i] - linear[i]);
    const Vec3 omega = angular[i] + lambda * (unitAngular[i] - angular[i]);
    states[i].gamma = mass.mass() * velocity;  // γ = m v, Π = J Rᵀ ω (Tran & Leok (4.11))
    states[i].Pi = mass.inertia() * (states[i].R.transpose() * omega);
  }
}

// Newton's restitution at a stop: an approaching φ̇ = v < 0 leaves at −e v.
void strikeStop(const JointedSystem& system, std::vector<BodyState>& states,
                const HingeDrive& drive, double side, double restitution) {
  strikeRow(system, states, angleRowOf(system, drive, side, states),
            [&](double v, double w) { return v < 0 ? -(1 + restitution) * v / w : 0.0; });
}

// The system with the hinges of `locked` stops welded at those stops: each such hinge a fixed
// joint whose B frame is turned about its z axis by the stop's raw angle, so that the weld's
// x_A·y_B = 0 holds the hinge at θ = the stop (y_B·x_A = sin(θ/sign) for the turned frame's y).
JointedSystem lockedSystem(const JointedSystem& system, const std::vector<HingeDrive>& drives,
                           const std::vector<Stop>& stops, const std::vector<bool>& locked) {
  std::vector<core::joints::Joint> joints = system.joints();
  for (std::size_t k = 0; k < stops.size(); ++k) {
    if (!locked[k]) continue;
    const HingeDrive& drive = drives[stops[k].drive];
    const double raw = drive.sign * (drive.center - stops[k].side * drive.halfRange);
    core::joints::Joint& joint = joints[drive.joint];
    joint.type = core::joints::JointType::kFixed;
    joint.b.basis = joint.b.basis * Eigen::AngleAxisd(raw, Vec3::UnitZ()).toRotationMatrix();
  }
  return JointedSystem(system.bodies(), std::move(joints));
}

}  // namespace

void requireHingeDrive(btHingeConstraint& hinge, const std::string& what) {
  const auto refuse = [&](const std::string& why) {
    throw Error(what + " with " + why + " is not supported in variational mode");
  };
  if (hinge.hasLimit()) {
    const double relaxation = hinge.getLimitRelaxationFactor();
    const double bias = hinge.getLimitBiasFactor();
    if (!(relaxation >= 0 && relaxation <= 1) || !(bias >= 0 && bias <= 1)) {
      std::ostringstream why;
      why << "a limit whose bounce factors are outside [0, 1] (relaxationFactor " << relaxation
          << ", biasFactor " << bias << "; the stop's restitution is their product)";
      refuse(why.str());
    }
  } else if (hinge.getLowerLimit() == hinge.getUpperLimit()) {
    refuse(
        "a limit whose low equals its high (Bullet locks the hinge there; use btFixedConstraint)");
  }
  if (hinge.getEnableAngularMotor()) {
    if (!std::isfinite(hinge.getMotorTargetVelocity()))
      refuse("a motor whose target velocity is not finite");
    if (!(hinge.getMaxMotorImpulse() >= 0 && std::isfinite(hinge.getMaxMotorImpulse())))
      refuse("a motor whose maxMotorImpulse is negative or not finite");
  }
}

HingeDrive hingeDriveOf(btHingeConstraint& hinge, int joint) {
  HingeDrive drive;
  drive.joint = joint;
  drive.sign = hinge.getUseReferenceFrameA() ? -1.0 : 1.0;  // m_referenceSign
  if (hinge.hasLimit()) {
    // Bullet keeps the range as its centre and half-range and gives its ends brought into
    // (−π, π]: the half-range is half the turn from low to high. A whole turn comes back as 0.
    const double low = hinge.getLowerLimit(), high = hinge.getUpperLimit();
    double turn = std::fmod(high - low, 2 * kPi);
    if (turn <= 0) turn += 2 * kPi;
    drive.halfRange = 0.5 * turn;
    drive.center = wrapped(low + drive.halfRange);
    drive.bounce = hinge.getLimitRelaxationFactor() * hinge.getLimitBiasFactor();
  }
  drive.motor = hinge.getEnableAngularMotor();
  drive.targetSpeed = hinge.getMotorTargetVelocity();
  drive.maxImpulse = hinge.getMaxMotorImpulse();
  return drive;
}

double hingeAngle(const JointedSystem& system, const HingeDrive& drive,
                  const std::vector<BodyState>& states) {
  const core::joints::Joint& joint = system.joints()[drive.joint];
  const core::Mat3 a = axesOf(joint.a, states), b = axesOf(joint.b, states);
  return drive.sign * std::atan2(b.col(1).dot(a.col(0)), b.col(1).dot(a.col(1)));
}

std::vector<BodyState> flowWithStops(const JointedSystem& system,
                                     const std::vector<HingeDrive>& drives,
                                     const std::vector<BodyState>& states, double h,
                                     const GroupFlow& flow) {
  std::vector<Stop> stops;
  for (std::size_t d = 0; d < drives.size(); ++d) {
    if (!drives[d].limited() || drives[d].halfRange >= kPi) continue;
    stops.push_back({static_cast<int>(d), 1.0});
    stops.push_back({static_cast<int>(d), -1.0});
  }
  if (stops.empty()) return flow(system, states, h);
  std::vector<bool> locked(stops.size(), false);
  const auto hingeLocked = [&](int drive) {
    for (std::size_t k = 0; k < stops.size(); ++k) {
      if (locked[k] && stops[k].drive == drive) return true;
    }
    return false;
  };
  JointedSystem held = system;  // the system with the stops locked so far
  std::vector<BodyState> now = states;
  std::vector<BodyState> end = flow(held, now, h);
  double rest = h;
  for (int strikes = 0;; ++strikes) {
    // The stop the flow crosses first, and the fraction of `rest` at which it does.
    int first = -1;
    double alpha = 1;
    for (std::size_t k = 0; k < stops.size(); ++k) {
      const Stop& stop = stops[k];
      const HingeDrive& drive = drives[stop.drive];
      if (hingeLocked(stop.drive)) continue;
      const double phiEnd = gapOf(held, drive, stop.side, end);
      if (!(phiEnd < 0)) continue;
      const double phiNow = gapOf(held, drive, stop.side, now);
      double at = 0;
      if (phiNow > kAtStop) {
        const auto phiAt = [&](double fraction) {
          return gapOf(held, drive, stop.side, flow(held, now, fraction * rest));
        };
        const core::RootResult root = core::locateRoot(phiAt, 0, phiNow, 1, phiEnd);
        if (root.status != core::RootStatus::kConverged) {
          throw Error("variational step: a hinge stop's instant could not be located (" +
                      std::string(core::toString(root.status)) + ")");
        }
        at = root.alpha;
      }
      if (first < 0 || at < alpha) {
        first = static_cast<int>(k);
        alpha = at;
      }
    }
    if (first < 0) return end;
    if (strikes == kMaxStopStrikes) {
      throw Error("variational step: hinge stops struck " + std::to_string(kMaxStopStrikes) +
                  " times in one flow of their joint group; take a smaller timestep");
    }
    if (alpha > 0) now = flow(held, now, alpha * rest);
    rest *= 1 - alpha;
    const Stop& stop = stops[first];
    const HingeDrive& drive = drives[stop.drive];
    strikeStop(held, now, drive, stop.side, drive.bounce);
    if (!(rest > 0)) return now;
    end = flow(held, now, rest);
    // A rebound that reaches the stop again within the flow: plastic, and the stop held.
    if (gapOf(held, drive, stop.side, end) < 0) {
      strikeStop(held, now, drive, stop.side, 0.0);
      locked[first] = true;
      held = lockedSystem(system, drives, stops, locked);
      end = flow(held, now, rest);
    }
  }
}

void kickMotors(const JointedSystem& system, const std::vector<HingeDrive>& drives,
                std::vector<BodyState>& states) {
  for (const HingeDrive& drive : drives) {
    if (!drive.motor) continue;
    strikeRow(system, states, angleRowOf(system, drive, 1.0, states), [&](double v, double w) {
      return std::clamp((drive.targetSpeed - v) / w, -drive.maxImpulse, drive.maxImpulse);
    });
  }
}

}  // namespace carom::detail
