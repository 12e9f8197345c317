// One step of the Dormand–Prince 5(4) embedded Runge–Kutta pair (Hairer, Nørsett & Wanner,
// "Solving ODEs I", §II.5, the coefficients of DOPRI5) with its error estimate and its 4th-order
// continuous extension, for a fixed-size state. The step-size control and the events belong to
// the caller: this file only knows the tableau.
#pragma once

#include <Eigen/Dense>

namespace carom::core::impact {

template <int N>
struct DormandPrinceStep {
  using State = Eigen::Matrix<double, N, 1>;
  State y;         // the 5th-order solution at t + h
  State error;     // 5th- minus 4th-order solution: the local error estimate
  State rateEnd;   // f(t + h, y): the first stage of the next step (FSAL)
  State dense[5];  // coefficients of the continuous extension

  // The 4th-order interpolant at t + θh, 0 ≤ θ ≤ 1 (HNW II.6, dense output of DOPRI5).
  State at(double theta) const {
    return dense[0] +
           theta * (dense[1] +
                    (1.0 - theta) * (dense[2] + theta * (dense[3] + (1.0 - theta) * dense[4])));
  }
};

// Advances y' = rate(t, y) from (t, y0), where rate0 = rate(t, y0), by h.
template <int N, class Rate>
DormandPrinceStep<N> dormandPrinceStep(const Rate& rate, double t,
                                       const Eigen::Matrix<double, N, 1>& y0,
                                       const Eigen::Matrix<double, N, 1>& rate0, double h) {
  using State = Eigen::Matrix<double, N, 1>;
  const State& k1 = rate0;
  const State k2 = rate(t + h / 5.0, y0 + h * (k1 / 5.0));
  const State k3 = rate(t + 3.0 * h / 10.0, y0 + h * (3.0 / 40.0 * k1 + 9.0 / 40.0 * k2));
  const State k4 =
      rate(t + 4.0 * h / 5.0, y0 + h * (44.0 / 45.0 * k1 - 56.0 / 15.0 * k2 + 32.0 / 9.0 * k3));
  const State k5 = rate(t + 8.0 * h / 9.0, y0 + h * (19372.0 / 6561.0 * k1 - 25360.0 / 2187.0 * k2 +
                                                     64448.0 / 6561.0 * k3 - 212.0 / 729.0 * k4));
  const State k6 =
      rate(t + h, y0 + h * (9017.0 / 3168.0 * k1 - 355.0 / 33.0 * k2 + 46732.0 / 5247.0 * k3 +
                            49.0 / 176.0 * k4 - 5103.0 / 18656.0 * k5));
  DormandPrinceStep<N> step;
  step.y = y0 + h * (35.0 / 384.0 * k1 + 500.0 / 1113.0 * k3 + 125.0 / 192.0 * k4 -
                     2187.0 / 6784.0 * k5 + 11.0 / 84.0 * k6);
  const State& k7 = step.rateEnd = rate(t + h, step.y);
  step.error = h * (71.0 / 57600.0 * k1 - 71.0 / 16695.0 * k3 + 71.0 / 1920.0 * k4 -
                    17253.0 / 339200.0 * k5 + 22.0 / 525.0 * k6 - 1.0 / 40.0 * k7);
  step.dense[0] = y0;
  step.dense[1] = step.y - y0;
  step.dense[2] = h * k1 - step.dense[1];
  step.dense[3] = step.dense[1] - h * k7 - step.dense[2];
  step.dense[4] = h * (-12715105075.0 / 11282082432.0 * k1 + 87487479700.0 / 32700410799.0 * k3 -
                       10690763975.0 / 1880347072.0 * k4 + 701980252875.0 / 199316789632.0 * k5 -
                       1453857185.0 / 822651844.0 * k6 + 69997945.0 / 29380423.0 * k7);
  return step;
}

}  // namespace carom::core::impact
