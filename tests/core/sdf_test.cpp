#include "carom/core/sdf.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "carom/core/lie.h"
#include "carom/error.h"
#include "support/random.h"
#include "support/sphere_grid.h"

namespace carom::core {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Lowest height n·(x + Rρ) − offset over a dense sample of the surface of an ellipsoid, keeping
// only points for which `keep` holds (body frame).
double sampledLowest(const Ellipsoid& e, const Plane& plane, const Vec3& x, const Mat3& R,
                     const std::function<bool(const Vec3&)>& keep) {
  double lowest = INFINITY;
  test::forEachOnUnitSphere(400, [&](const Vec3& unit) {
    const Vec3 rho = e.center() + e.semiAxes().cwiseProduct(unit);
    if (keep(rho)) lowest = std::min(lowest, plane.normal().dot(x + R * rho) - plane.offset());
  });
  return lowest;
}

bool inside(const Ellipsoid& e, const Vec3& rho) {
  return (rho - e.center()).cwiseQuotient(e.semiAxes()).squaredNorm() <= 1.0 + 1e-12;
}

// χ must be the derivative of Φ(x, R exp(S(ζ))) in ζ at 0, and ∂Φ/∂x that in x (digest C2).
void expectGradientsMatchFiniteDifferences(const Shape& shape, const Plane& plane, const Vec3& x,
                                           const Mat3& R) {
  const GapSample s = shape.gap(plane, x, R);
  const double d = 1e-6;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = Vec3::Unit(k);
    const double dx =
        (shape.gap(plane, x + d * e, R).phi - shape.gap(plane, x - d * e, R).phi) / (2 * d);
    const double dz =
        (shape.gap(plane, x, R * expSO3(d * e)).phi - shape.gap(plane, x, R * expSO3(-d * e)).phi) /
        (2 * d);
    EXPECT_NEAR(dx, s.dPhidx(k), 1e-8);
    EXPECT_NEAR(dz, s.chi(k), 1e-7 * (1.0 + s.chi.norm()));
  }
  // Digest C4: χ = ρ_C × Rᵀn.
  EXPECT_LE((s.chi - s.contactPoint.cross(R.transpose() * plane.normal())).norm(), 1e-14);
  // Φ is the height of the contact point.
  EXPECT_NEAR(s.phi, plane.normal().dot(x + R * s.contactPoint) - plane.offset(), 1e-13);
}

TEST(Plane, RefusesNonUnitOrNonFiniteNormal) {
  EXPECT_THROW(Plane(Vec3(0, 0, 2)), Error);
  EXPECT_THROW(Plane(Vec3(0, 0, 0)), Error);
  EXPECT_THROW(Plane(Vec3(0, NAN, 1)), Error);
  EXPECT_THROW(Plane(Vec3(0, 0, 1), INFINITY), Error);
  EXPECT_NO_THROW(Plane(Vec3(0, 0.6, 0.8), -2.0));
}

TEST(EllipsoidGap, ClosedFormOfThePaper) {
  // (2.16) at R = I over the horizontal plane: Φ = z − c.
  const Ellipsoid e({2, 3, 4});
  const GapSample s = e.gap(Plane({0, 0, 1}), {0, 0, 10}, Mat3::Identity());
  EXPECT_DOUBLE_EQ(s.phi, 6.0);
  EXPECT_LE((s.contactPoint - Vec3(0, 0, -4)).norm(), 1e-15);
  // Case II's tilted plane at the initial state: Φ₀ = 10 ñ₃ − ‖I_E ñ‖ = 5.9957356 (digest §6.1).
  const double theta = -kPi / 90.0;
  const Plane tilted(Vec3(std::sin(theta), 0, std::cos(theta)));
  EXPECT_NEAR(e.gap(tilted, {0, 0, 10}, Mat3::Identity()).phi, 5.9957356, 5e-8);
}

TEST(EllipsoidGap, MatchesBruteForceAndFiniteDifferencesInAnyPose) {
  test::Random random(30);
  for (int i = 0; i < 20; ++i) {
    const Ellipsoid e(Vec3(random.uniform(0.5, 3), random.uniform(0.5, 3), random.uniform(0.5, 3)),
                      random.vector(1.0));
    const Plane plane(random.unitVector(), random.uniform(-1, 1));
    const Vec3 x = random.vector(5.0);
    const Mat3 R = random.rotation();
    const double exact = e.gap(plane, x, R).phi;
    const double sampled = sampledLowest(e, plane, x, R, [](const Vec3&) { return true; });
    EXPECT_LE(exact, sampled + 1e-12);  // digest C1: never above a surface point
    EXPECT_NEAR(exact, sampled, 1e-3);
    expectGradientsMatchFiniteDifferences(e, plane, x, R);
  }
}

TEST(EllipsoidUnionGap, IsTheLowerMemberWithItsGradient) {
  // Case III's union (digest §6.1): centres (0.5062872, 0, 0) and (−5.4937128, 0, 0); Φ₀ = 5.
  const double c = -0.9937128;
  const Ellipsoid e1({3, 4, 5}, {1.5 + c, 0, 0}), e2({6, 1, 1}, {-4.5 + c, 0, 0});
  const EllipsoidUnion u({e1, e2});
  const Plane ground({0, 0, 1});
  EXPECT_DOUBLE_EQ(u.gap(ground, {0, 0, 10}, Mat3::Identity()).phi, 5.0);
  test::Random random(31);
  for (int i = 0; i < 20; ++i) {
    const Mat3 R = random.rotation();
    const Vec3 x = random.vector(5.0);
    const double expected = std::min(e1.gap(ground, x, R).phi, e2.gap(ground, x, R).phi);
    EXPECT_EQ(u.gap(ground, x, R).phi, expected);
    expectGradientsMatchFiniteDifferences(u, ground, x, R);
  }
  EXPECT_THROW(EllipsoidUnion({}), Error);
}

TEST(EllipsoidIntersectionGap, MatchesBruteForceOnTheLens) {
  // Two overlapping spheres side by side: the lens's lowest point lies on the intersection circle,
  // above the lowest point of either sphere, so max(Φ₁, Φ₂) would be wrong.
  const Ellipsoid e1({1, 1, 1}, {-0.5, 0, 0}), e2({1, 1, 1}, {0.5, 0, 0});
  const EllipsoidIntersection lens(e1, e2);
  const Plane ground({0, 0, 1});
  const GapSample s = lens.gap(ground, {0, 0, 3}, Mat3::Identity());
  EXPECT_NEAR(s.phi, 3.0 - std::sqrt(0.75), 1e-12);  // circle radius √(1 − 0.5²)
  EXPECT_GT(s.phi, std::max(e1.gap(ground, {0, 0, 3}, Mat3::Identity()).phi,
                            e2.gap(ground, {0, 0, 3}, Mat3::Identity()).phi) +
                       0.1);

  test::Random random(32);
  const Ellipsoid a({2, 1, 1.5}, {0.3, 0, 0}), b({1, 2.5, 1.2}, {-0.2, 0.4, 0.1});
  const EllipsoidIntersection ab(a, b);
  for (int i = 0; i < 10; ++i) {
    const Plane plane(random.unitVector(), 0.0);
    const Vec3 x = random.vector(3.0);
    const Mat3 R = random.rotation();
    const double exact = ab.gap(plane, x, R).phi;
    const double sampled =
        std::min(sampledLowest(a, plane, x, R, [&](const Vec3& p) { return inside(b, p); }),
                 sampledLowest(b, plane, x, R, [&](const Vec3& p) { return inside(a, p); }));
    EXPECT_LE(exact, sampled + 1e-9);
    EXPECT_NEAR(exact, sampled, 1e-2);
    expectGradientsMatchFiniteDifferences(ab, plane, x, R);
  }
}

TEST(EllipsoidIntersectionGap, NestedEllipsoidsGiveTheInnerOne) {
  const Ellipsoid inner({1, 2, 0.5}, {0.1, 0, 0}), outer({5, 5, 5});
  const EllipsoidIntersection nested(inner, outer);
  test::Random random(33);
  for (int i = 0; i < 10; ++i) {
    const Plane plane(random.unitVector(), 0.5);
    const Vec3 x = random.vector(3.0);
    const Mat3 R = random.rotation();
    EXPECT_NEAR(nested.gap(plane, x, R).phi, inner.gap(plane, x, R).phi, 1e-12);
  }
}

TEST(EllipsoidIntersectionGap, RefusesDisjointEllipsoids) {
  EXPECT_THROW(
      EllipsoidIntersection(Ellipsoid({1, 1, 1}, {-2, 0, 0}), Ellipsoid({1, 1, 1}, {2, 0, 0})),
      Error);
}

TEST(RoundedPolytopeGap, CubeContactsAtTheLowestVertexWithTheRoundingOffset) {
  // Case IV: side 2√3, ε = 1e-13; Φ₀ = 10 − √3 − ε (digest §6.1).
  const RoundedPolytope cube = RoundedPolytope::cube(2.0 * std::sqrt(3.0), 1e-13);
  const Plane ground({0, 0, 1});
  EXPECT_NEAR(cube.gap(ground, {0, 0, 10}, Mat3::Identity()).phi, 10.0 - std::sqrt(3.0) - 1e-13,
              1e-14);
  test::Random random(34);
  for (int i = 0; i < 20; ++i) {
    const Plane plane(random.unitVector(), random.uniform(-1, 1));
    const Vec3 x = random.vector(4.0);
    const Mat3 R = random.rotation();
    const GapSample s = cube.gap(plane, x, R);
    double lowest = INFINITY;
    for (int v = 0; v < 8; ++v) {
      const Vec3 corner(v & 1 ? 1 : -1, v & 2 ? 1 : -1, v & 4 ? 1 : -1);
      lowest =
          std::min(lowest, plane.normal().dot(x + R * (std::sqrt(3.0) * corner)) - plane.offset());
    }
    EXPECT_NEAR(s.phi, lowest - 1e-13, 1e-13);
    expectGradientsMatchFiniteDifferences(cube, plane, x, R);
  }
}

TEST(RoundedPolytopeGap, RefusesDegenerateInput) {
  EXPECT_THROW(RoundedPolytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, 0.0), Error);
  EXPECT_THROW(RoundedPolytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, 0.0), Error);  // flat
  EXPECT_THROW(RoundedPolytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, -1e-3), Error);
  EXPECT_THROW(RoundedPolytope({{0, 0, 0}, {1, 0, 0}, {0, NAN, 0}, {0, 0, 1}}, 0.0), Error);
  EXPECT_THROW(RoundedPolytope::cube(0.0, 0.0), Error);
}

}  // namespace
}  // namespace carom::core
