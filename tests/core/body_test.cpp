#include "carom/core/body.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <limits>

#include "carom/core/lie.h"
#include "carom/error.h"
#include "support/random.h"

namespace carom::core {
namespace {

// Expects `statement` to throw carom::Error whose message mentions `word`.
#define EXPECT_ERROR_NAMING(statement, word)                                            \
  try {                                                                                 \
    statement;                                                                          \
    ADD_FAILURE() << "no carom::Error from " #statement;                                \
  } catch (const Error& error) {                                                        \
    EXPECT_NE(std::string(error.what()).find(word), std::string::npos) << error.what(); \
  }

TEST(MassProperties, NonStandardInertiaAndIdentitiesOfAppendixB) {
  test::Random random(10);
  for (int i = 0; i < 100; ++i) {
    const MassProperties body = random.body();
    const Mat3& J = body.inertia();
    const Mat3& Jd = body.nonStandardInertia();
    EXPECT_LE((Jd - (0.5 * J.trace() * Mat3::Identity() - J)).norm(), 1e-14);  // (4.1)
    EXPECT_LE((J - (Jd.trace() * Mat3::Identity() - Jd)).norm(), 1e-13);       // (4.1)
    const Vec3 omega = random.vector(3.0);
    EXPECT_LE((hat(J * omega) - (hat(omega) * Jd + Jd * hat(omega))).norm(), 1e-13);  // (4.2)
    // Prop. B.2: ½ tr(S(Ω) J_d S(Ω)ᵀ) = ½ ΩᵀJΩ.
    EXPECT_NEAR(0.5 * (hat(omega) * Jd * hat(omega).transpose()).trace(),
                0.5 * omega.dot(J * omega), 1e-13);
    EXPECT_LE((body.inverseInertia() * J - Mat3::Identity()).norm(), 1e-13);
  }
}

TEST(MassProperties, UniformShapesMatchThePaper) {
  // Tran & Leok §6.1: ellipsoid diag(2,3,4) of unit mass has J = diag(5, 4, 2.6); the cube of side
  // 2√3 has J = 2 I.
  EXPECT_LE(
      (uniformEllipsoid(1.0, {2, 3, 4}).inertia() - Vec3(5, 4, 2.6).asDiagonal().toDenseMatrix())
          .norm(),
      1e-14);
  const double half = std::sqrt(3.0);
  EXPECT_LE((uniformBox(1.0, {half, half, half}).inertia() - 2.0 * Mat3::Identity()).norm(), 1e-14);
}

TEST(MassProperties, RefusesBadMassAndInertiaNamingTheQuantity) {
  const Mat3 J = Vec3(1, 2, 2.5).asDiagonal();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_ERROR_NAMING(MassProperties::create(0.0, J), "mass");
  EXPECT_ERROR_NAMING(MassProperties::create(-1.0, J), "mass");
  EXPECT_ERROR_NAMING(MassProperties::create(nan, J), "mass");
  EXPECT_ERROR_NAMING(MassProperties::create(INFINITY, J), "mass");
  Mat3 nonFinite = J;
  nonFinite(1, 1) = nan;
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, nonFinite), "not finite");
  Mat3 asymmetric = J;
  asymmetric(0, 1) = 0.1;
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, asymmetric), "symmetric");
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, Vec3(1, 2, 0).asDiagonal()), "positive definite");
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, Vec3(1, -2, 2).asDiagonal()),
                      "positive definite");
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, Vec3(1, 1, 2.5).asDiagonal()), "triangle");
  // The same off the principal axes, where the moments come from the eigensolver.
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, Q * Vec3(1, -2, 2).asDiagonal() * Q.transpose()),
                      "positive definite");
  EXPECT_ERROR_NAMING(MassProperties::create(1.0, Q * Vec3(1, 1, 2.5).asDiagonal() * Q.transpose()),
                      "triangle");
  EXPECT_NO_THROW(MassProperties::create(1.0, Q * Vec3(1, 2, 2.5).asDiagonal() * Q.transpose()));
  EXPECT_ERROR_NAMING(uniformEllipsoid(1.0, {1, 0, 1}), "semi-axes");
  EXPECT_ERROR_NAMING(uniformBox(0.0, {1, 1, 1}), "mass");
}

TEST(MassProperties, AcceptsTheFlatLimitOfTheTriangleInequality) {
  // A thin disk: J₃ = J₁ + J₂ exactly (J_d singular), still a rigid body.
  EXPECT_NO_THROW(MassProperties::create(1.0, Vec3(1, 1, 2).asDiagonal()));
}

TEST(BodyState, EnergyAndMomentaFollowTheirDefinitions) {
  const MassProperties body = uniformEllipsoid(2.0, {2, 3, 4});
  BodyState s;
  s.x = {1, 2, 3};
  s.R = expSO3(Vec3(0.3, -0.2, 0.1));
  s.gamma = {2, 0, -4};
  s.Pi = {4, -4, 4};
  const Vec3 g(0, 0, -9.80665);
  const Energy e = energy(body, s, g);
  EXPECT_DOUBLE_EQ(e.translational, 20.0 / 4.0);
  EXPECT_NEAR(e.rotational, 0.5 * (16.0 / 10.0 + 16.0 / 8.0 + 16.0 / 5.2), 1e-14);
  EXPECT_DOUBLE_EQ(e.potential, 2.0 * 9.80665 * 3.0);
  EXPECT_DOUBLE_EQ(e.total(), e.translational + e.rotational + e.potential);
  const Vec3 p(0.5, -1.0, 2.0);
  EXPECT_LE((spatialAngularMomentum(s, p) - ((s.x - p).cross(s.gamma) + s.R * s.Pi)).norm(), 1e-14);
  EXPECT_LE((angularVelocityWorld(body, s) - s.R * body.inverseInertia() * s.Pi).norm(), 1e-15);
}

TEST(BodyState, FromVelocitiesRoundTrips) {
  test::Random random(11);
  const MassProperties body = random.body();
  const Mat3 R = random.rotation();
  const Vec3 v = random.vector(3.0), w = random.vector(3.0);
  const BodyState s = stateFromVelocities(body, Vec3(1, 2, 3), R, v, w);
  EXPECT_LE((linearVelocity(body, s) - v).norm(), 1e-14);
  EXPECT_LE((angularVelocityWorld(body, s) - w).norm(), 1e-13);
}

TEST(BodyState, ValidationNamesTheBadComponent) {
  BodyState s;
  s.gamma.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_ERROR_NAMING(validateState(s, "ball"), "gamma");
  s = BodyState{};
  s.Pi.z() = INFINITY;
  EXPECT_ERROR_NAMING(validateState(s), "Pi");
  s = BodyState{};
  s.x.y() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_ERROR_NAMING(validateState(s), "position");
  s = BodyState{};
  s.R(0, 0) = 1.1;
  EXPECT_ERROR_NAMING(validateState(s), "rotation");
  s.R = -Mat3::Identity();  // orthogonal but a reflection
  EXPECT_ERROR_NAMING(validateState(s), "rotation");
}

}  // namespace
}  // namespace carom::core
