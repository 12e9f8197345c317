#include "carom/core/lie.h"

#include <gtest/gtest.h>

#include <cmath>

#include "carom/error.h"
#include "support/random.h"

namespace carom::core {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(Lie, HatIsTheCrossProductAndVeeInvertsIt) {
  test::Random random(1);
  for (int i = 0; i < 100; ++i) {
    const Vec3 x = random.vector(2.0), y = random.vector(2.0);
    EXPECT_LE((hat(x) * y - x.cross(y)).norm(), 1e-15);
    EXPECT_EQ(vee(hat(x)), x);
    EXPECT_LE((hat(x) + hat(x).transpose()).norm(), 0.0);  // (2.1a)
    // (2.1b) S(x)² = xxᵀ − |x|²I and (2.1c) S(x × y) = yxᵀ − xyᵀ.
    EXPECT_LE((hat(x) * hat(x) - (x * x.transpose() - x.squaredNorm() * Mat3::Identity())).norm(),
              1e-14);
    EXPECT_LE((hat(x.cross(y)) - (y * x.transpose() - x * y.transpose())).norm(), 1e-14);
    // (2.1d) S(Rx) = R S(x) Rᵀ.
    const Mat3 R = random.rotation();
    EXPECT_LE((hat(R * x) - R * hat(x) * R.transpose()).norm(), 1e-14);
  }
}

TEST(Lie, AsymHasNoFactorOneHalf) {
  Mat3 a;
  a << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  const Mat3 expected = a - a.transpose();
  EXPECT_EQ(asym(a), expected);
}

TEST(Lie, CayleyGivesRotationsAndInvertsExactly) {
  test::Random random(2);
  for (int i = 0; i < 200; ++i) {
    const Vec3 f = random.vector(3.0);
    const Mat3 F = cayley(f);
    EXPECT_LE(orthogonalityError(F), 1e-14);
    EXPECT_NEAR(F.determinant(), 1.0, 1e-14);
    EXPECT_LE((cayleyInverse(F) - f).norm(), 1e-12 * (1.0 + f.squaredNorm()));
    // (D.5): F = (I + S(f))(I − S(f))⁻¹.
    const Mat3 direct = (Mat3::Identity() + hat(f)) * (Mat3::Identity() - hat(f)).inverse();
    EXPECT_LE((F - direct).norm(), 1e-13);
  }
}

TEST(Lie, CayleyVectorIsTanOfHalfAngle) {
  const Vec3 axis = Vec3(1.0, -2.0, 0.5).normalized();
  const double angle = 1.2;
  EXPECT_LE((cayley(std::tan(0.5 * angle) * axis) - expSO3(angle * axis)).norm(), 1e-15);
}

TEST(Lie, CayleyInverseRefusesHalfTurn) {
  EXPECT_THROW(cayleyInverse(expSO3(Vec3(0.0, kPi, 0.0))), Error);
}

TEST(Lie, ExpMatchesRodriguesAndLogInvertsIt) {
  test::Random random(3);
  for (int i = 0; i < 200; ++i) {
    const Vec3 w = random.uniform(0.0, kPi - 1e-9) * random.unitVector();
    const Mat3 R = expSO3(w);
    EXPECT_LE(orthogonalityError(R), 1e-14);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
    EXPECT_LE((logSO3(R) - w).norm(), 1e-9) << w.transpose();
    EXPECT_LE((R * w - w).norm(), 1e-14);  // the axis is fixed
  }
}

TEST(Lie, ExpAndLogAreAccurateNearZeroAndNearPi) {
  for (double angle : {0.0, 1e-300, 1e-12, 1e-6, 1e-3, kPi - 1e-6, kPi - 1e-9, kPi}) {
    const Vec3 w = angle * Vec3(2.0, -1.0, 3.0).normalized();
    const Mat3 R = expSO3(w);
    EXPECT_LE(orthogonalityError(R), 1e-15) << angle;
    const Vec3 back = logSO3(R);
    if (angle < kPi - 1e-3) {
      EXPECT_LE((back - w).norm(), 1e-15 + 1e-14 * angle) << angle;
    } else {  // at π the sign of the axis is a convention; the rotation is what must agree
      EXPECT_LE((expSO3(back) - R).norm(), 1e-12) << angle;
    }
  }
  EXPECT_LE((expSO3(Vec3(1e-9, 0, 0)) - (Mat3::Identity() + hat(Vec3(1e-9, 0, 0)))).norm(), 1e-18);
}

}  // namespace
}  // namespace carom::core
