// core::contact::separationVelocities: pseudo velocities that open overlaps at the asked speed,
// shared between the bodies by their masses, without turning a body pushed through its centre.
#include "carom/core/contact/separation.h"

#include <gtest/gtest.h>

#include "carom/core/contact/persistent_contact.h"
#include "carom/error.h"

namespace carom::core::contact {
namespace {

impact::ContactBody ball(double mass, const Vec3& centre) {
  impact::ContactBody body;
  body.inverseMass = 1.0 / mass;
  body.inverseInertiaWorld = Mat3::Identity() / (0.4 * mass * 0.1 * 0.1);  // solid, r = 0.1 m
  body.centerOfMass = centre;
  body.linearVelocity = Vec3(3, -2, 1);  // not read: the push starts from rest
  return body;
}

TEST(Separation, ABallInTheGroundIsPushedOutAtTheSpeedAsked) {
  const std::vector<impact::ContactBody> bodies{ball(2.0, Vec3(0, 0.09, 0))};
  const std::vector<PseudoVelocity> pushed =
      separationVelocities(bodies, {{kWorld, 0, Vec3(0, -0.005, 0), Vec3::UnitY(), 0.3}}, 10);
  ASSERT_EQ(pushed.size(), 1u);
  EXPECT_LT((pushed[0].linear - Vec3(0, 0.3, 0)).norm(), 1e-12);
  EXPECT_LT(pushed[0].angular.norm(), 1e-12);  // pushed through its centre
}

TEST(Separation, TwoBodiesShareThePushByTheirMasses) {
  // B (3 kg) overlaps A (1 kg) along x: their relative pseudo speed is the speed asked, and the
  // push conserves their pseudo momentum (zero).
  const std::vector<impact::ContactBody> bodies{ball(1.0, Vec3(0, 0, 0)),
                                                ball(3.0, Vec3(0.19, 0, 0))};
  const std::vector<PseudoVelocity> pushed =
      separationVelocities(bodies, {{0, 1, Vec3(0.095, 0, 0), Vec3::UnitX(), 0.4}}, 10);
  EXPECT_NEAR(pushed[1].linear.x() - pushed[0].linear.x(), 0.4, 1e-12);
  EXPECT_NEAR(1.0 * pushed[0].linear.x() + 3.0 * pushed[1].linear.x(), 0.0, 1e-12);
  EXPECT_NEAR(pushed[0].linear.x(), -0.3, 1e-12);
}

TEST(Separation, AnOverlapAlreadyOpeningFastEnoughIsNotPulledBack) {
  // Two rows on one ball: the second asks less than the first gives it; it takes no impulse.
  const std::vector<impact::ContactBody> bodies{ball(1.0, Vec3(0, 0.09, 0))};
  const std::vector<PseudoVelocity> pushed =
      separationVelocities(bodies,
                           {{kWorld, 0, Vec3(0, -0.01, 0), Vec3::UnitY(), 0.5},
                            {kWorld, 0, Vec3(0, -0.01, 0), Vec3::UnitY(), 0.2}},
                           10);
  EXPECT_NEAR(pushed[0].linear.y(), 0.5, 1e-12);
}

TEST(Separation, AJointedBodyIsPushedAsItsJointLetsItMove) {
  // A ball held by a row that keeps its x velocity zero (a slider along y and z), pushed out of
  // the ground along n = (0.6, 0.8, 0) at its centre: free it would leave along n at 0.4 m/s; held,
  // along y only, at u_y = 0.4 / n_y = 0.5 m/s, so that n·u is still the speed asked.
  const std::vector<impact::ContactBody> bodies{ball(2.0, Vec3(0, 0.09, 0))};
  JointRow slider;
  slider.bodyB = 0;
  slider.linearB = Vec3::UnitX();
  const JointSystem joints(bodies, {slider});
  const Separation row{kWorld, 0, Vec3(0, 0.09, 0), Vec3(0.6, 0.8, 0), 0.4};
  const std::vector<PseudoVelocity> free = separationVelocities(bodies, {row}, 10);
  EXPECT_LT((free[0].linear - Vec3(0.24, 0.32, 0)).norm(), 1e-12);
  const std::vector<PseudoVelocity> held = separationVelocities(bodies, {row}, 10, &joints);
  EXPECT_LT((held[0].linear - Vec3(0, 0.5, 0)).norm(), 1e-12);
  EXPECT_LT(held[0].angular.norm(), 1e-12);
}

TEST(Separation, RefusesBadRows) {
  const std::vector<impact::ContactBody> bodies{ball(1.0, Vec3::Zero())};
  const auto refused = [&](const Separation& row, int sweeps = 10) {
    EXPECT_THROW(separationVelocities(bodies, {row}, sweeps), Error);
  };
  refused({kWorld, 1, Vec3::Zero(), Vec3::UnitY(), 0.1});  // out of range
  refused({0, 0, Vec3::Zero(), Vec3::UnitY(), 0.1});       // itself
  refused({kWorld, 0, Vec3::Zero(), Vec3(0, 2, 0), 0.1});  // not a unit normal
  refused({kWorld, 0, Vec3::Zero(), Vec3::UnitY(), -0.1});
  refused({kWorld, 0, Vec3::Zero(), Vec3::UnitY(), 0.1}, 0);
}

}  // namespace
}  // namespace carom::core::contact
