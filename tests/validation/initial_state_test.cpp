// The state a toss starts from (validation/src/initial_state.h): the free flight's fit recovers a
// known flight through tracking noise, and the centre of mass of a cube whose tracked centre turns
// about it, stops before the board, falls back on the first two frames where the flight is too
// short, and on a real toss equals a regression computed here by other formulas.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cube_model.h"
#include "initial_state.h"
#include "toss.h"

namespace carom::validation {
namespace {

const std::string kData = CAROM_VALIDATION_DATA_DIR;
constexpr double kDt = 1 / kFrameRate;

// A torque-free flight: the centre of mass on a parabola of the model's gravity, the rotation at a
// constant board-frame rate, q(t) = exp(ω t) q₀, the tracked centre c from the centre of mass
// (body frame). `noise` (m, rad) is added to frame k's position and rotation with the sign (−1)^k
// along fixed directions: zero-mean tracking noise of that size.
struct Flight {
  Eigen::Vector3d x0{0.1, -0.2, 0.3}, v{-1.0, 0.8, 0.5}, omega{3.0, -2.0, 1.5};
  Eigen::Quaterniond q0{Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized())};
  Eigen::Vector3d c = kCentreOfMass;

  Frame at(int k, double noise) const {
    const double t = k * kDt, sign = k % 2 == 0 ? 1 : -1;
    Frame frame;
    frame.t = t;
    const Eigen::Vector3d turn = omega * t + sign * noise * Eigen::Vector3d(-1, 2, 1).normalized();
    frame.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(turn.norm(), turn.normalized())) * q0;
    frame.position = x0 + v * t - Eigen::Vector3d(0, 0, kGravity * t * t / 2) - frame.rotation * c +
                     sign * noise * Eigen::Vector3d(1, -1, 1).normalized();
    // Row k's backward differences, as the data's; the two-frame fallback reads row 1's rate.
    frame.velocity = v - Eigen::Vector3d(0, 0, kGravity * (t - kDt / 2));
    frame.omegaBody = frame.rotation.inverse() * omega;
    return frame;
  }
  Toss toss(int frames, double noise) const {
    Toss toss;
    for (int k = 0; k < frames; ++k)
      toss.frames.push_back(at(k, noise));
    return toss;
  }
};

double angleBetween(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return Eigen::AngleAxisd(a.inverse() * b).angle();
}

// Exact frames give the flight back exactly, whatever their number.
TEST(InitialState, ExactFlightIsRecovered) {
  const Flight flight;
  for (int frames : {3, 5, 12}) {
    const InitialState start = initialState(flight.toss(frames, 0), flight.c);
    EXPECT_EQ(start.flightFrames, frames);
    EXPECT_LT((start.position - flight.x0).norm(), 1e-12) << frames;
    EXPECT_LT((start.velocity - flight.v).norm(), 1e-10) << frames;
    EXPECT_LT((start.omegaWorld - flight.omega).norm(), 1e-9) << frames;
    EXPECT_LT(angleBetween(start.rotation, flight.q0), 1e-12) << frames;
  }
}

// A cube spinning at 15 rad/s whose centre of mass is 5 mm off its tracked centre: the tracked
// centre turns about the parabola on a 5 mm circle. Fitted with the offset, the centre of mass's
// start comes back exactly; a parabola through the tracked centre misses its velocity by about
// ω × c (0.075 m/s).
TEST(InitialState, TheCentreOfMassIsFittedNotTheTrackedCentre) {
  Flight flight;
  flight.omega = {15, 0, 0};
  flight.c = {0, 0, 0.005};
  const Toss toss = flight.toss(12, 0);
  const InitialState start = initialState(toss, flight.c);
  EXPECT_LT((start.position - flight.x0).norm(), 1e-12);
  EXPECT_LT((start.velocity - flight.v).norm(), 1e-10);
  EXPECT_LT((start.omegaWorld - flight.omega).norm(), 1e-9);
  const InitialState centred = initialState(toss, Eigen::Vector3d::Zero());
  EXPECT_GT((centred.velocity - flight.v).norm(), 0.02);
}

// With 0.1 mm and 0.5° of alternating noise on twelve frames, the fit's velocities are within a
// sixth of the two frames' difference error (which is about 2 × noise / Δt: 0.03 m/s, 1.7 rad/s).
TEST(InitialState, FitAveragesTrackingNoise) {
  const Flight flight;
  const Toss noisy = flight.toss(12, 1e-4);
  const InitialState fitted = initialState(noisy, flight.c);
  ASSERT_EQ(fitted.flightFrames, 12);
  const double linearNoise = 2 * 1e-4 / kDt;
  EXPECT_LT((fitted.velocity - flight.v).norm(), linearNoise / 6);
  const Toss rotating = flight.toss(12, 0.5 * M_PI / 180);
  const double angularNoise = 2 * 0.5 * M_PI / 180 / kDt;
  EXPECT_LT((initialState(rotating, flight.c).omegaWorld - flight.omega).norm(), angularNoise / 6);
  // The same frames cut to two: the difference carries the noise's full size.
  Toss pair = noisy;
  pair.frames.resize(2);
  EXPECT_GT((initialState(pair, flight.c).velocity - flight.v).norm(), linearNoise / 2);
}

// Frames once a corner is within kFlightClearance of the board, or after a turn of
// kLargestFittedTurn, are not fitted: a bounce after them changes nothing.
TEST(InitialState, FitStopsBeforeTheBoardAndBeforeALargeTurn) {
  Flight flight;
  flight.x0.z() = 0.12;
  flight.v.z() = 0;
  Toss toss = flight.toss(40, 0);
  int clear = 0;  // frames whose sharp box is 3 mm clear, counted by each of the eight corners
  for (const Frame& frame : toss.frames) {
    bool above = true;
    for (int c = 0; c < 8; ++c) {
      const Eigen::Vector3d corner((c & 1 ? 1 : -1) * kHalfSide, (c & 2 ? 1 : -1) * kHalfSide,
                                   (c & 4 ? 1 : -1) * kHalfSide);
      above = above && (frame.position + frame.rotation * corner).z() > kFlightClearance;
    }
    if (!above) break;
    ++clear;
  }
  ASSERT_GE(clear, 4);
  ASSERT_LT(clear, 40);
  for (std::size_t k = static_cast<std::size_t>(clear); k < toss.frames.size(); ++k)
    toss.frames[k].position.x() += 0.05 * static_cast<double>(k);  // not a free flight
  const InitialState start = initialState(toss, flight.c);
  EXPECT_EQ(start.flightFrames, clear);
  EXPECT_LT((start.velocity - flight.v).norm(), 1e-10);
  // A fast spin high above the board: the fit ends before the turn from frame 0 reaches 2.5 rad.
  Flight spinning;
  spinning.x0.z() = 5;
  spinning.omega = {0, 0, 30};  // 0.2 rad a frame
  const InitialState spun = initialState(spinning.toss(40, 0), spinning.c);
  EXPECT_EQ(spun.flightFrames, static_cast<int>(std::ceil(kLargestFittedTurn / (30 * kDt))));
  EXPECT_LT((spun.omegaWorld - spinning.omega).norm(), 1e-9);
}

// Fewer than three frames clear of the board: frame 0's pose, the velocity at t₀ from frames 0–1
// (x₁ − x₀)/Δt + gΔt/2 ẑ, and row 1's body rate turned into the board frame.
TEST(InitialState, ShortFlightFallsBackOnTheFirstTwoFrames) {
  Flight flight;
  flight.x0.z() = 0.1;
  flight.v.z() = -8;  // frame 1 is already at the board
  const Toss toss = flight.toss(10, 1e-4);
  const InitialState start = initialState(toss, flight.c);
  ASSERT_EQ(start.flightFrames, 2);
  const Frame& f0 = toss.frames[0];
  const Frame& f1 = toss.frames[1];
  const Eigen::Vector3d x0 = f0.position + f0.rotation * flight.c;  // the centre of mass
  const Eigen::Vector3d x1 = f1.position + f1.rotation * flight.c;
  EXPECT_LT((start.position - x0).norm(), 1e-15);
  EXPECT_LT(angleBetween(start.rotation, f0.rotation), 1e-15);
  const Eigen::Vector3d v = (x1 - x0) / kDt + Eigen::Vector3d(0, 0, kGravity * kDt / 2);
  EXPECT_LT((start.velocity - v).norm(), 1e-12);
  EXPECT_LT((start.omegaWorld - f0.rotation * f1.omegaBody).norm(), 1e-12);
}

// On a real toss, the fit equals simple linear regression written out (slope Σ(t−t̄)(y−ȳ)/Σ(t−t̄)²)
// over the frames counted here, for the centre of mass (gravity added back) and each
// rotation-vector component.
TEST(InitialState, RealTossMatchesARegressionComputedHere) {
  const Toss toss = readToss(kData + "/toss_000.csv");
  const InitialState start = initialState(toss, kCentreOfMass);
  ASSERT_GE(start.flightFrames, 8);  // toss_000 flies for a dozen frames before its first corner
  const int n = start.flightFrames;
  const Eigen::Quaterniond q0 = toss.frames[0].rotation;
  std::vector<double> t(n);
  std::vector<Eigen::Matrix<double, 6, 1>> y(n);
  for (int k = 0; k < n; ++k) {
    const Frame& frame = toss.frames[static_cast<std::size_t>(k)];
    t[k] = frame.t - toss.frames[0].t;
    const Eigen::AngleAxisd turn(frame.rotation * q0.inverse());
    y[k].head<3>() = frame.position + frame.rotation * kCentreOfMass +
                     Eigen::Vector3d(0, 0, kGravity * t[k] * t[k] / 2);
    y[k].tail<3>() = turn.angle() * turn.axis();
  }
  double tMean = 0;
  Eigen::Matrix<double, 6, 1> yMean = Eigen::Matrix<double, 6, 1>::Zero();
  for (int k = 0; k < n; ++k)
    tMean += t[k] / n, yMean += y[k] / n;
  double stt = 0;
  Eigen::Matrix<double, 6, 1> sty = Eigen::Matrix<double, 6, 1>::Zero();
  for (int k = 0; k < n; ++k)
    stt += (t[k] - tMean) * (t[k] - tMean), sty += (t[k] - tMean) * (y[k] - yMean);
  const Eigen::Matrix<double, 6, 1> slope = sty / stt, intercept = yMean - slope * tMean;
  EXPECT_LT((start.velocity - slope.head<3>()).norm(), 1e-9);
  EXPECT_LT((start.position - intercept.head<3>()).norm(), 1e-12);
  EXPECT_LT((start.omegaWorld - slope.tail<3>()).norm(), 1e-9);
  const Eigen::Vector3d delta = intercept.tail<3>();
  const Eigen::Quaterniond rotation(Eigen::AngleAxisd(delta.norm(), delta.normalized()) * q0);
  EXPECT_LT(angleBetween(start.rotation, rotation), 1e-9);
  // The frame after the fitted ones is within the clearance (or the turn's bound).
  const Frame& next = toss.frames[static_cast<std::size_t>(n)];
  const double lowest =
      next.position.z() - kHalfSide * next.rotation.toRotationMatrix().row(2).cwiseAbs().sum();
  EXPECT_TRUE(lowest <= kFlightClearance ||
              Eigen::AngleAxisd(next.rotation * q0.inverse()).angle() >= kLargestFittedTurn);
}

}  // namespace
}  // namespace carom::validation
