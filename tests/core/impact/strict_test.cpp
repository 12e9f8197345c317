#include "carom/core/impact/strict.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/impact/impact_fixtures.h"

namespace carom::test {
namespace {

using core::impact::relativeVelocity;
using core::impact::strictImpact;
using core::impact::StrictParameters;

constexpr int kRandomPairs = 3000;

StrictParameters strictParameters(int roughness, const Vec3& roughDirection = Vec3::UnitX()) {
  StrictParameters parameters;
  parameters.roughness = roughness;
  parameters.roughDirection = roughDirection;
  return parameters;
}

// Velocities of A and B stacked, to compare whole states.
Eigen::Matrix<double, 12, 1> state(const Contact& c) {
  Eigen::Matrix<double, 12, 1> x;
  x << c.a.linearVelocity, c.a.angularVelocity, c.b.linearVelocity, c.b.angularVelocity;
  return x;
}

// Digest §3.4: golden vectors for an asymmetric pair from an independent re-implementation.
Contact goldenContact() {
  Contact c;
  c.a.inverseMass = 1.0 / 2.0;
  c.a.inverseInertiaWorld = Vec3(1 / 0.5, 1 / 0.8, 1 / 1.1).asDiagonal();
  c.a.centerOfMass = Vec3::Zero();
  c.a.linearVelocity = Vec3(0.5, 0.2, -0.1);
  c.a.angularVelocity = Vec3(0.3, -0.4, 0.2);
  c.b.inverseMass = 1.0 / 3.0;
  c.b.inverseInertiaWorld = Vec3(1 / 1.2, 1 / 0.9, 1 / 0.7).asDiagonal();
  c.b.centerOfMass = Vec3(0.3, 1.5, -0.2);
  c.b.linearVelocity = Vec3(-0.2, -1.0, 0.3);
  c.b.angularVelocity = Vec3(0.1, 0.5, -0.6);
  c.point = Vec3(0.1, 0.7, 0.05);
  c.normal = Vec3(0.1, 1.0, -0.05).normalized();
  return c;
}

struct GoldenRow {
  int roughness;
  Vec3 impulse, linearA, angularA, linearB, angularB;
};

TEST(StrictMap, ReproducesTheGoldenVectorsOfDigest34) {
  const Contact c = goldenContact();
  EXPECT_NEAR(c.normal.dot(relativeVelocity(c)), -1.200520051920, 1e-11);
  EXPECT_NEAR(core::impact::kineticEnergy(c), 2.348, 1e-12);
  const Vec3 t = (Vec3::UnitX() - c.normal.x() * c.normal).normalized();
  EXPECT_LE((t - Vec3(0.995049474544, -0.099256805441, 0.004962840272)).norm(), 1e-11);
  const GoldenRow rows[] = {
      {0,
       {0.263549852115, 2.635498521152, -0.131774926058},
       {0.368225073942, -1.117749260576, -0.034112536971},
       {0.748034748596, -0.432943731514, 0.128122767605},
       {-0.112150049295, -0.121500492949, 0.256075024647},
       {-0.361212241202, 0.543924975353, -1.051799746483}},
      {1,
       {1.141258591389, 2.700228363679, -0.135011418184},
       {-0.070629295694, -1.150114181840, -0.032494290908},
       {0.759038821825, -0.488205089235, 0.680780161458},
       {0.180419530463, -0.099923878774, 0.254996193939},
       {-0.372539963644, 0.787013738012, -0.067198285178}},
      {2,
       {1.143936441488, 2.697638342867, -0.273411170887},
       {-0.071968220744, -1.148819171433, 0.036705585443},
       {0.952539473528, -0.505672423954, 0.682719704322},
       {0.181312147163, -0.100787219044, 0.208862943038},
       {-0.279733874173, 0.757002084661, -0.063397879119}},
  };
  for (const GoldenRow& row : rows) {
    SCOPED_TRACE(row.roughness);
    const ImpactOutcome out = strictImpact(c, strictParameters(row.roughness, t));
    EXPECT_LE((out.impulse - row.impulse).norm(), 1e-10);
    EXPECT_LE((out.linearVelocityA - row.linearA).norm(), 1e-10);
    EXPECT_LE((out.angularVelocityA - row.angularA).norm(), 1e-10);
    EXPECT_LE((out.linearVelocityB - row.linearB).norm(), 1e-10);
    EXPECT_LE((out.angularVelocityB - row.angularB).norm(), 1e-10);
    EXPECT_NEAR(core::impact::kineticEnergy(after(c, out)), 2.348, 1e-13);
  }
}

// A uniform round body (J = κ m R² about every axis) on an immovable floor with normal n.
Contact roundBodyOnFloor(double kappa, const Vec3& normal, const Vec3& v, const Vec3& omega) {
  const double mass = 2.0, radius = 0.5;
  Contact c;
  c.normal = normal;
  c.b.inverseMass = 1.0 / mass;
  c.b.inverseInertiaWorld = Mat3::Identity() / (kappa * mass * radius * radius);
  c.b.centerOfMass = Vec3(0.2, -0.1, 0.4);
  c.point = c.b.centerOfMass - radius * normal;
  c.b.linearVelocity = v;
  c.b.angularVelocity = omega;
  return c;
}

// Digest §3.1, 1-D form on the floor n = +y, u = v + Rω_z: the solid ball (κ = 2/5) super-ball
// bounce v' = (3v − 4Rω)/7, Rω' = (−10v − 3Rω)/7, and the same map twice is the identity.
TEST(StrictMap, CompletelyRoughBallMatchesTheSuperBallFormulas) {
  const double radius = 0.5;
  const Contact c = roundBodyOnFloor(0.4, Vec3::UnitY(), Vec3(1, -3, 0), Vec3::Zero());
  const ImpactOutcome out = strictImpact(c, strictParameters(2));
  EXPECT_LE((out.linearVelocityB - Vec3(3.0 / 7.0, 3.0, 0.0)).norm(), 1e-14);
  EXPECT_NEAR(radius * out.angularVelocityB.z(), -10.0 / 7.0, 1e-14);
  EXPECT_NEAR(out.angularVelocityB.x(), 0.0, 1e-15);
  EXPECT_NEAR(out.angularVelocityB.y(), 0.0, 1e-15);
  // Apply again to the time-reversed outcome: back to the time-reversed start.
  const ImpactOutcome back = strictImpact(reversed(after(c, out)), strictParameters(2));
  EXPECT_LE((back.linearVelocityB + Vec3(1, -3, 0)).norm(), 1e-14);
  EXPECT_LE(back.angularVelocityB.norm(), 1e-14);

  const Contact spinning =
      roundBodyOnFloor(0.4, Vec3::UnitY(), Vec3(0.3, -1, 0), Vec3(0, 0, 1.7 / radius));
  const ImpactOutcome spun = strictImpact(spinning, strictParameters(2));
  EXPECT_NEAR(spun.linearVelocityB.x(), (0.9 - 6.8) / 7.0, 1e-14);
  EXPECT_NEAR(radius * spun.angularVelocityB.z(), (-3.0 - 5.1) / 7.0, 1e-14);
}

// Digest §3.1, vector form for any floor orientation and spin: v_n⁺ = −v_n⁻,
// v_t⁺ = v_t⁻ − 2κ/(1+κ) u_t⁻, ω⁺ = ω⁻ + 2/((1+κ)R) n × u_t⁻ with u_t = v_t + R n × ω; and the
// dissipative extension with e_n, e_r is the β-model: v_n⁺ = −e_n v_n⁻, u_t⁺ = −e_r u_t⁻.
TEST(StrictMap, RoughRoundBodyOnARandomFloorMatchesTheClosedForm) {
  Random random(11);
  const double radius = 0.5;
  for (int i = 0; i < 200; ++i) {
    const double kappa = random.uniform(0.2, 1.0);
    const Vec3 n = random.unitVector();
    Vec3 v = random.vector(2.0);
    if (v.dot(n) > 0.0) v = -v;
    const Vec3 omega = random.vector(3.0);
    const Contact c = roundBodyOnFloor(kappa, n, v, omega);
    const Vec3 vt = v - v.dot(n) * n;
    const Vec3 slip = vt + radius * n.cross(omega);
    const ImpactOutcome out = strictImpact(c, strictParameters(2));
    const Vec3 vExpected = vt - 2.0 * kappa / (1.0 + kappa) * slip - v.dot(n) * n;
    const Vec3 omegaExpected = omega + 2.0 / ((1.0 + kappa) * radius) * n.cross(slip);
    EXPECT_LE((out.linearVelocityB - vExpected).norm(), 1e-13);
    EXPECT_LE((out.angularVelocityB - omegaExpected).norm(), 1e-13);

    StrictParameters beta = strictParameters(2);
    beta.normalRestitution = random.uniform(0.0, 1.0);
    beta.tangentialRestitution = random.uniform(0.0, 1.0);
    const Contact post = after(c, strictImpact(c, beta));
    const Vec3 du = relativeVelocity(post);
    EXPECT_NEAR(du.dot(n), -beta.normalRestitution * v.dot(n), 1e-13);
    EXPECT_LE((du - du.dot(n) * n + beta.tangentialRestitution * slip).norm(), 1e-13);
  }
}

// Digest §3.2, the paper's eq. (2.3) for a uniform disk (κ = 1/2) at a wall with inward normal ν
// in angle–position coordinates v0 = Rθ̇/√2: on (v0, v·Jν, v·ν) the rough map is
// [[−1/3, 2√2/3, 0], [2√2/3, 1/3, 0], [0, 0, −1]]. The disk is a cylinder about z moving in the
// x–y plane; Jν = z × ν.
TEST(StrictMap, RoughDiskMatchesPaperEquation23) {
  const double radius = 0.5, mass = 2.0, root2 = std::sqrt(2.0);
  Eigen::Matrix3d paper;
  paper << -1.0 / 3.0, 2.0 * root2 / 3.0, 0.0, 2.0 * root2 / 3.0, 1.0 / 3.0, 0.0, 0.0, 0.0, -1.0;
  auto diskAtWall = [&](const Vec3& nu, double v0, const Vec3& v) {
    Contact c;
    c.normal = nu;
    c.b.inverseMass = 1.0 / mass;
    c.b.inverseInertiaWorld = Vec3(3.0, 3.0, 1.0 / (0.5 * mass * radius * radius)).asDiagonal();
    c.point = c.b.centerOfMass - radius * nu;
    c.b.linearVelocity = v;
    c.b.angularVelocity = Vec3(0, 0, root2 * v0 / radius);
    return c;
  };
  // The worked numbers: ν = (0, 1), (v0, v) = (0, (1, −1)) → v0' = −2√2/3, v' = (1/3, 1).
  for (int roughness : {1, 2}) {  // the slip is along x only, so rank 1 across x is the same map
    const ImpactOutcome out = strictImpact(diskAtWall(Vec3::UnitY(), 0.0, Vec3(1, -1, 0)),
                                           strictParameters(roughness, Vec3::UnitX()));
    EXPECT_NEAR(radius * out.angularVelocityB.z() / root2, -0.942809041582, 1e-12);
    EXPECT_LE((out.linearVelocityB - Vec3(1.0 / 3.0, 1.0, 0.0)).norm(), 1e-14);
  }
  Random random(23);
  for (int i = 0; i < 200; ++i) {
    const double angle = random.uniform(0.0, 6.3);
    const Vec3 nu(std::cos(angle), std::sin(angle), 0.0), jnu = Vec3::UnitZ().cross(nu);
    const Vec3 paperIn(random.uniform(-2, 2), random.uniform(-2, 2), random.uniform(-2, -0.01));
    const Vec3 paperOut = paper * paperIn;
    const Contact c = diskAtWall(nu, paperIn.x(), paperIn.y() * jnu + paperIn.z() * nu);
    const ImpactOutcome out = strictImpact(c, strictParameters(2));
    EXPECT_NEAR(radius * out.angularVelocityB.z() / root2, paperOut.x(), 1e-13);
    EXPECT_LE((out.linearVelocityB - paperOut.y() * jnu - paperOut.z() * nu).norm(), 1e-13);
  }
}

// Digest §2.2(a): k = 0 is the textbook frictionless elastic impulse −2(n·Δu)/(nᵀKn) n.
TEST(StrictMap, SpecularMapIsTheClassicalFrictionlessElasticImpact) {
  Random random(31);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const Vec3 expected = frictionlessImpulse(c, 1.0);
    const ImpactOutcome out = strictImpact(c, strictParameters(0));
    EXPECT_LE((out.impulse - expected).norm(), 1e-12 * (1.0 + expected.norm()));
  }
}

// The strict axioms (paper Def 2.5) and the reversal of the rough contact-velocity components
// (digest §2.2), on random asymmetric pairs for every roughness rank. Tolerances: digest §5.
TEST(StrictMap, RandomPairsConserveEnergyAndMomentaAndReverseTheRoughComponents) {
  Random random(47);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const Vec3 t = randomTangent(random, c.normal);
    const Vec3 smooth = c.normal.cross(t);
    const Vec3 origin = random.vector(5.0);
    const Vec3 du = relativeVelocity(c);
    const double energy = core::impact::kineticEnergy(c);
    for (int roughness : {0, 1, 2}) {
      SCOPED_TRACE(roughness);
      const ImpactOutcome out = strictImpact(c, strictParameters(roughness, t));
      const Contact post = after(c, out);
      const Vec3 duPost = relativeVelocity(post);
      const double scale = 1.0 + out.impulse.norm();
      EXPECT_NEAR(out.energyChange, 0.0, 1e-12 * energy);
      EXPECT_NEAR(core::impact::kineticEnergy(post), energy, 1e-12 * energy);
      EXPECT_LE((linearMomentum(post) - linearMomentum(c)).norm(), 1e-12 * scale);
      const Vec3 angular = angularMomentum(c, origin);
      EXPECT_LE((angularMomentum(post, origin) - angular).norm(),
                1e-12 * (scale + angular.norm()) * (1.0 + origin.norm()));
      EXPECT_NEAR(duPost.dot(c.normal), -du.dot(c.normal), 1e-12 * (1.0 + du.norm()));
      if (roughness == 0) {
        EXPECT_LE(out.impulse.cross(c.normal).norm(), 1e-12 * scale);
      }
      if (roughness == 1) {
        EXPECT_NEAR(duPost.dot(t), -du.dot(t), 1e-12 * (1.0 + du.norm()));
        EXPECT_NEAR(out.impulse.dot(smooth), 0.0, 1e-12 * scale);  // no impulse along smooth
      }
      if (roughness == 2) {
        EXPECT_LE((duPost + du).norm(), 1e-12 * (1.0 + du.norm()));
      }
    }
  }
}

// C² = I (paper Def 2.5(3)). The outgoing state separates, so the map is applied to its time
// reverse, which approaches: C(−Cx) = −x ⇔ C²x = x for the linear map C.
TEST(StrictMap, IsAnInvolution) {
  Random random(59);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const Vec3 t = randomTangent(random, c.normal);
    for (int roughness : {0, 1, 2}) {
      const StrictParameters parameters = strictParameters(roughness, t);
      const Contact post = after(c, strictImpact(c, parameters));
      const Contact twice = after(post, strictImpact(reversed(post), parameters));
      EXPECT_LE((state(twice) + state(c)).norm(), 1e-12 * (1.0 + state(c).norm()));
    }
  }
}

// C = I on the non-slipping subspace S = {Δu = 0} (paper Thm 2.1, Cor 2.1): adding a non-slip
// velocity field s to the incoming state x leaves the impulse unchanged and adds s to the
// outgoing state, C(x + s) = Cx + s, so Cs = s for the linear map C.
TEST(StrictMap, IsTheIdentityOnNonSlipVelocities) {
  Random random(61);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const Vec3 t = randomTangent(random, c.normal);
    // Non-slip field: v_B + ω_B × r_B = v_A + ω_A × r_A with v_A, ω_A, ω_B free.
    Contact slipFree = c;
    slipFree.a.linearVelocity = random.vector(2.0);
    slipFree.a.angularVelocity = random.vector(2.0);
    slipFree.b.angularVelocity = random.vector(2.0);
    slipFree.b.linearVelocity = slipFree.a.linearVelocity +
                                slipFree.a.angularVelocity.cross(c.point - c.a.centerOfMass) -
                                slipFree.b.angularVelocity.cross(c.point - c.b.centerOfMass);
    ASSERT_LE(relativeVelocity(slipFree).norm(), 1e-13);
    Contact shifted = c;
    shifted.a.linearVelocity += slipFree.a.linearVelocity;
    shifted.a.angularVelocity += slipFree.a.angularVelocity;
    shifted.b.linearVelocity += slipFree.b.linearVelocity;
    shifted.b.angularVelocity += slipFree.b.angularVelocity;
    for (int roughness : {0, 1, 2}) {
      const StrictParameters parameters = strictParameters(roughness, t);
      const ImpactOutcome out = strictImpact(c, parameters);
      const ImpactOutcome outShifted = strictImpact(shifted, parameters);
      EXPECT_LE((outShifted.impulse - out.impulse).norm(), 1e-12 * (1.0 + out.impulse.norm()));
      EXPECT_LE((state(after(shifted, outShifted)) - state(after(c, out)) - state(slipFree)).norm(),
                1e-12 * (1.0 + state(shifted).norm()));
    }
  }
}

// Only the rough line matters (digest §2.2(c)): t and −t give the same map.
TEST(StrictMap, RankOneMapDependsOnlyOnTheRoughLine) {
  Random random(67);
  for (int i = 0; i < 200; ++i) {
    const Contact c = randomContact(random);
    const Vec3 t = randomTangent(random, c.normal);
    const Vec3 plus = strictImpact(c, strictParameters(1, t)).impulse;
    EXPECT_LE((strictImpact(c, strictParameters(1, -t)).impulse - plus).norm(),
              1e-13 * (1.0 + plus.norm()));
  }
}

// An immovable body is the infinite-mass limit, no special case (digest §5).
TEST(StrictMap, ImmovableBodyIsTheInfiniteMassLimit) {
  Random random(71);
  for (int i = 0; i < 200; ++i) {
    Contact fixed = randomContact(random);
    fixed.a.linearVelocity = random.vector(1.0);
    fixed.a.angularVelocity = random.vector(1.0);
    Contact heavy = fixed;
    fixed.a.inverseMass = 0.0;
    fixed.a.inverseInertiaWorld.setZero();
    heavy.a.inverseMass = 1e-12;
    heavy.a.inverseInertiaWorld = 1e-12 * Mat3::Identity();
    if (fixed.normal.dot(relativeVelocity(fixed)) > 0.0) {  // make it an impact
      fixed = reversed(fixed);
      heavy = reversed(heavy);
    }
    const Vec3 t = randomTangent(random, fixed.normal);
    for (int roughness : {0, 1, 2}) {
      const Vec3 exact = strictImpact(fixed, strictParameters(roughness, t)).impulse;
      const Vec3 limit = strictImpact(heavy, strictParameters(roughness, t)).impulse;
      EXPECT_LE((exact - limit).norm(), 1e-8 * (1.0 + exact.norm()));
    }
  }
}

// Digest §6: with e_n, e_r ∈ [0, 1] the extension keeps the impulse at the contact (so momenta
// are conserved), sets n·Δu⁺ = −e_n n·Δu⁻, and loses
//   −ΔT(e_n, e_r) = (1 − e_n²)·½(n·Δu)²/(nᵀKn) + (1 − e_r²)·(−ΔT(1, 0)) ≥ 0,
// where ½(n·Δu)²/(nᵀKn) is the textbook loss of a perfectly plastic frictionless impact.
TEST(DissipativeExtension, NeverGainsEnergyAndConservesMomenta) {
  Random random(73);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    StrictParameters parameters = strictParameters(1 + i % 2, randomTangent(random, c.normal));
    parameters.normalRestitution = random.uniform(0.0, 1.0);
    parameters.tangentialRestitution = random.uniform(0.0, 1.0);
    const double en = parameters.normalRestitution, er = parameters.tangentialRestitution;
    const ImpactOutcome out = strictImpact(c, parameters);
    const Contact post = after(c, out);
    const double energy = core::impact::kineticEnergy(c);
    const Vec3 origin = random.vector(5.0);
    const double scale = 1.0 + out.impulse.norm();
    EXPECT_LE(out.energyChange, 1e-12 * energy);
    EXPECT_NEAR(core::impact::kineticEnergy(post) - energy, out.energyChange, 1e-12 * energy);
    EXPECT_LE((linearMomentum(post) - linearMomentum(c)).norm(), 1e-12 * scale);
    const Vec3 angular = angularMomentum(c, origin);
    EXPECT_LE((angularMomentum(post, origin) - angular).norm(),
              1e-12 * (scale + angular.norm()) * (1.0 + origin.norm()));
    const double approach = c.normal.dot(relativeVelocity(c));
    EXPECT_NEAR(c.normal.dot(relativeVelocity(post)), -en * approach,
                1e-12 * (1 + std::abs(approach)));

    const double plasticNormalLoss = 0.5 * approach * approach / normalInverseMass(c);
    StrictParameters roughOnly = parameters;
    roughOnly.normalRestitution = 1.0;
    roughOnly.tangentialRestitution = 0.0;
    const double roughLoss = -strictImpact(c, roughOnly).energyChange;
    EXPECT_GE(roughLoss, -1e-12 * energy);
    EXPECT_NEAR(-out.energyChange, (1 - en * en) * plasticNormalLoss + (1 - er * er) * roughLoss,
                1e-12 * energy);
  }
}

// Digest §6 warning: Newton's rule applied axis by axis, WᵀΔu⁺ = −diag(e_n, e_t) WᵀΔu⁻, creates
// energy when K couples n and t; that is why the extension scales M-orthogonal projectors
// instead. The 45° rod with Δu⁻ = (0.3, 0, −1), W = [n, x], e_n = 1, e_t = 0: the naive impulse
// solves [[2.5, −1.5], [−1.5, 2.5]] (P_x, P_z) = (−0.3, 2), so P = (9/16, 0, 91/80) and
// ΔT = ½ P·(Δu⁻ + Δu⁺) = ½ (9/16)(0.3) = 27/320 J > 0, 15.5% of the 0.545 J before. The extension
// with the same coefficients loses ½(b − a) with a = (n·Δu)²/nᵀKn = 0.4 and
// b = (WᵀΔu)ᵀ(WᵀKW)⁻¹(WᵀΔu) = 1.825/4, i.e. ΔT = −9/320 J.
TEST(DissipativeExtension, AxisWiseNewtonRestitutionCanGainEnergy) {
  const Contact rod = rodOnGround(Vec3(0.3, 0.0, -1.0));
  ASSERT_NEAR(core::impact::kineticEnergy(rod), 0.545, 1e-15);
  Eigen::Matrix<double, 3, 2> w;
  w << rod.normal, Vec3::UnitX();
  const Eigen::Vector2d reversal(2.0, 1.0);  // 1 + e per column: e_n = 1, e_t = 0
  const Eigen::Vector2d target = -reversal.cwiseProduct(w.transpose() * relativeVelocity(rod));
  const Vec3 naive =
      w * (w.transpose() * core::impact::inverseMassMatrix(rod) * w).ldlt().solve(target);
  EXPECT_LE((naive - Vec3(9.0 / 16.0, 0.0, 91.0 / 80.0)).norm(), 1e-14);
  const ImpactOutcome naiveOut = core::impact::applyImpulse(rod, naive);
  EXPECT_NEAR(naiveOut.energyChange, 27.0 / 320.0, 1e-14);
  EXPECT_GT(naiveOut.energyChange, 0.15 * 0.545);

  StrictParameters parameters = strictParameters(1, Vec3::UnitX());
  parameters.tangentialRestitution = 0.0;
  EXPECT_NEAR(strictImpact(rod, parameters).energyChange, -9.0 / 320.0, 1e-14);
}

TEST(StrictMap, RejectsBadParametersNamingThem) {
  const Contact c = goldenContact();
  auto call = [&](const StrictParameters& p) { return [&c, p] { strictImpact(c, p); }; };
  StrictParameters p = strictParameters(3);
  expectErrorNaming(call(p), "roughness");
  p.roughness = -1;
  expectErrorNaming(call(p), "roughness");
  p = strictParameters(1, Vec3(2.0, 0.0, 0.0) - 2.0 * c.normal.x() * c.normal);
  expectErrorNaming(call(p), "roughDirection");  // not unit length
  p = strictParameters(1, Vec3::UnitX());
  expectErrorNaming(call(p), "roughDirection");  // not perpendicular to the normal
  p.roughDirection = Vec3(NAN, 0.0, 0.0);
  expectErrorNaming(call(p), "roughDirection");
  for (double bad : {-0.1, 1.1, double(NAN)}) {
    p = strictParameters(0);
    p.normalRestitution = bad;
    expectErrorNaming(call(p), "normalRestitution");
    p = strictParameters(0);
    p.tangentialRestitution = bad;
    expectErrorNaming(call(p), "tangentialRestitution");
  }
  expectErrorNaming([&] { strictImpact(reversed(c), strictParameters(0)); },
                    "relative normal velocity");
  Contact unnormalised = c;
  unnormalised.normal *= 2.0;
  expectErrorNaming([&] { strictImpact(unnormalised, strictParameters(0)); }, "normal");
}

}  // namespace
}  // namespace carom::test
