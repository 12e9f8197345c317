// Stronge's frictional impact with tangential compliance (Stronge, Impact Mechanics, 2000, ch. 8;
// Jia, "Energy-based modeling of tangential compliance in 3-dimensional impact", WAFR 2010): the
// bodies touch through a massless element with a normal spring k_n and an isotropic tangential
// spring k_t = k_n/η². In the contact frame, with s the springs' deflection (s_n the normal
// compression, s_t the tangential stretch; each pushes B with its spring's force):
//
//   u = v⁻ + W I          the relative velocity of the bodies' contact points (eq. 10's W)
//   dI/dt = K s           K = diag(k_t, k_t, k): k = k_n compressing, k_n/e² restituting
//   ds/dt = −u            while the tangential spring sticks; while it slips,
//                         ds_t/dt = −u_t − σ ŝ_t with σ ≥ 0, so that k_t‖s_t‖ = μ k s_n
//
// The kinetic energy plus the springs' ½sᵀKs is conserved while sticking; slipping dissipates
// μ k s_n σ. Compression ends where u_z = 0 with E_c = ½k_n s_n² stored, as in Jia & Wang's rigid
// law; the normal spring then unloads Stronge's way, stiffened to k_n/e² at the same force, so that
// it releases e²E_c, and the impact ends where s_n = 0. Whatever the tangential spring holds then
// is lost: without a normal force it cannot hold any. As η² → 0 the tangential spring becomes
// rigid and the model becomes Jia & Wang's (the slip's direction and the line of sticking appear
// as its fast limits); η² = 0 itself is solved by the rigid law (stronge.cpp).
//
// Why time and not the normal impulse, as the rigid law integrates: dI_z = k s_n dt, so I_z is an
// equally valid parameter, but the force ratio k_t s_t/(k s_n) that drives the tangential spring
// in I_z is singular where the normal force vanishes, at both ends of the impact; in time every
// term is smooth. The steps are classical Runge–Kutta on the trial deflection (the spring as if it
// stuck), with every stage's tangential force returned radially onto Coulomb's cone and the
// deflection returned at the step's end (plasticity's radial return: first order where the spring
// slips, exact in direction for a constant slip). Where it sticks the system is linear and
// conservative, and with the step below (ωh ≈ 0.05) Runge–Kutta loses ~(ωh)⁶/144 of the energy
// per step and never gains. The two events are located within their step by an Illinois search.
// The answer does not depend on k_n's scale: k_n = 1/W_zz sets the time unit.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "carom/core/impact/stronge.h"
#include "stronge_path.h"

namespace carom::core::impact {
namespace {

// Runge–Kutta steps per period of the fastest mode of the sticking contact.
constexpr int kStepsPerPeriod = 128;

// The impulse I (head, N s) and the springs' deflection s (tail) of one instant.
using SpringState = Eigen::Matrix<double, 6, 1>;

struct Springs {
  const Mat3& W;
  const Vec3& vMinus;
  double mu = 0;
  Vec3 stiffness = Vec3::Zero();  // (k_t, k_t, k)

  Vec3 velocity(const SpringState& y) const { return vMinus + W * y.head<3>(); }
  // The tangential deflection returned onto Coulomb's cone k_t‖s_t‖ ≤ μ k max(s_n, 0).
  Vec2 returned(const SpringState& y) const {
    const double limit = mu * stiffness.z() * std::max(y(5), 0.0);
    const double force = stiffness.x() * y.segment<2>(3).norm();
    return force <= limit ? Vec2(y.segment<2>(3)) : Vec2(y.segment<2>(3) * (limit / force));
  }
  // dI/dt = K s with the tangential spring's force returned onto the cone, ds/dt = −u.
  SpringState rate(const SpringState& y) const {
    SpringState r;
    r << stiffness.x() * returned(y), stiffness.z() * y(5), -velocity(y);
    return r;
  }
  // The step for the fastest mode: ω² the largest eigenvalue of K^½ W K^½.
  double step() const {
    const Vec3 root = stiffness.cwiseSqrt();
    const Mat3 scaled = root.asDiagonal() * W * root.asDiagonal();
    const double omega =
        std::sqrt(Eigen::SelfAdjointEigenSolver<Mat3>(scaled, Eigen::EigenvaluesOnly)
                      .eigenvalues()
                      .maxCoeff());
    return 2.0 * M_PI / (kStepsPerPeriod * omega);
  }
  // One classical Runge–Kutta step of length h of the deflection as if the spring stuck (the
  // trial deflection), every stage's tangential force returned onto the cone, then the deflection
  // returned too (a radial return: the slip's direction is the trial's, as in plasticity's
  // return mapping). The forces stay within the cone at every stage, so the impulse does; where
  // the spring sticks the step is plain Runge–Kutta. Adds the energy the step removed (kinetic
  // plus the springs', before minus after) and says whether the return acted at its end.
  SpringState advance(const SpringState& y, double h, double& dissipated,
                      bool* slipped = nullptr) const {
    const SpringState k1 = rate(y);
    const SpringState k2 = rate(y + 0.5 * h * k1);
    const SpringState k3 = rate(y + 0.5 * h * k2);
    const SpringState k4 = rate(y + h * k3);
    SpringState next = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    const Vec2 back = returned(next);
    if (slipped) *slipped = back != next.segment<2>(3);
    next.segment<2>(3) = back;
    dissipated += energy(y) - energy(next);
    return next;
  }
  // The kinetic energy of the relative motion less its value before the impact, plus the springs'.
  double energy(const SpringState& y) const {
    const Vec3 impulse = y.head<3>();
    return impulse.dot(vMinus) + 0.5 * impulse.dot(W * impulse) +
           0.5 * y.tail<3>().dot(stiffness.cwiseProduct(y.tail<3>()));
  }
};

enum class Event { kCompressionEnds, kRestitutionEnds };

// g ≥ 0 once the event has happened: u_z for the end of compression, −s_n for the end of
// restitution.
double eventValue(const Springs& springs, const SpringState& y, Event event) {
  return event == Event::kCompressionEnds ? springs.velocity(y).z() : -y(5);
}

// The event lies within the step of length h from y (g(y) < 0 ≤ g(after the step)): moves y and
// `dissipated` to it (to the side where it has happened) by an Illinois search on the fraction of
// the step, bisecting where that stalls. False if maxIterations did not bracket it to 1e-12.
bool locateEvent(const Springs& springs, SpringState& y, double h, Event event, double& dissipated,
                 int maxIterations) {
  double lo = 0, hi = 1;
  double gLo = eventValue(springs, y, event);
  double dissipatedHi = 0;
  SpringState atHi = springs.advance(y, h, dissipatedHi);
  double gHi = eventValue(springs, atHi, event);
  int side = 0;  // which end the last iteration moved (Illinois' halving)
  bool converged = false;
  for (int iteration = 0; iteration < maxIterations && !converged; ++iteration) {
    double theta = (lo * gHi - hi * gLo) / (gHi - gLo);
    // Bisect where the secant stalls at an end or leaves the bracket.
    if (!(theta > lo + 0.01 * (hi - lo) && theta < hi - 0.01 * (hi - lo))) theta = 0.5 * (lo + hi);
    double dissipatedAt = 0;
    const SpringState at = springs.advance(y, theta * h, dissipatedAt);
    const double g = eventValue(springs, at, event);
    if (g >= 0.0) {
      hi = theta, gHi = g, atHi = at, dissipatedHi = dissipatedAt;
      if (side == 1) gLo *= 0.5;
      side = 1;
    } else {
      lo = theta, gLo = g;
      if (side == -1) gHi *= 0.5;
      side = -1;
    }
    converged = gHi == 0.0 || hi - lo <= 1e-12;
  }
  y = atHi;
  dissipated += dissipatedHi;
  return converged;
}

}  // namespace

StrongeSolution solveCompliantStronge(const Mat3& W, const Vec3& vMinus,
                                      const StrongeParameters& parameters) {
  const double e = parameters.restitution;
  const double kNormal = 1.0 / W(2, 2);
  const double kTangential = kNormal / parameters.tangentialCompliance;
  Springs springs{W, vMinus, parameters.friction, Vec3(kTangential, kTangential, kNormal)};
  StrongeSolution solution;
  const std::string model =
      "tangential compliance eta^2 = " + traceNumber(parameters.tangentialCompliance) + ", ";
  SpringState y = SpringState::Zero();
  if (parameters.recordPath) solution.path.push_back(Vec3::Zero());
  double h = springs.step();
  double dissipated = 0;
  int slippingSteps = 0;
  Event next = Event::kCompressionEnds;
  for (;;) {
    if (solution.steps >= parameters.maxSteps) {
      solution.status = StrongeStatus::kStepLimit;
      solution.trace = "Stronge (" + std::string(toString(solution.status)) + "): " + model +
                       std::to_string(solution.steps) + " steps";
      return solution;
    }
    ++solution.steps;
    double lost = 0;
    bool slipped = false;
    const SpringState after = springs.advance(y, h, lost, &slipped);
    if (eventValue(springs, after, next) < 0.0) {
      y = after;
      dissipated += lost;
      slippingSteps += slipped;
      if (parameters.recordPath) solution.path.push_back(y.head<3>());
      continue;
    }
    if (!locateEvent(springs, y, h, next, dissipated, parameters.maxEventIterations)) {
      solution.status = StrongeStatus::kEventIterationLimit;
      solution.trace = "Stronge (" + std::string(toString(solution.status)) + "): " + model +
                       "an event could not be located";
      return solution;
    }
    if (parameters.recordPath) solution.path.push_back(y.head<3>());
    if (next == Event::kCompressionEnds) {
      solution.sequence += 'c';
      solution.compressionImpulse = y(2);
      solution.compressionEnergy = 0.5 * kNormal * y(5) * y(5);
      if (e == 0.0) break;
      // Unloading: the same force from a stiffer spring, holding e² of the energy.
      y(5) *= e * e;
      springs.stiffness.z() = kNormal / (e * e);
      h = springs.step();
      next = Event::kRestitutionEnds;
      continue;
    }
    solution.sequence += 'r';
    break;
  }
  // The contact opens: the tangential spring's energy has nowhere to go.
  dissipated += 0.5 * kTangential * y.segment<2>(3).squaredNorm();
  const Vec3 velocity = springs.velocity(y);
  solution.impulse = y.head<3>();
  solution.normalWork = -(1.0 - e * e) * solution.compressionEnergy;
  solution.frictionWork = -dissipated;
  solution.finalSlip = velocity.head<2>();
  solution.trace = "Stronge (" + std::string(toString(solution.status)) + "): " + model +
                   std::to_string(solution.steps) + " steps, slipping in " +
                   std::to_string(slippingSteps) +
                   "; compression ends at I_z = " + traceNumber(solution.compressionImpulse) +
                   ", the impact at I_z = " + traceNumber(solution.impulse.z());
  return solution;
}

}  // namespace carom::core::impact
