// Tests of Stronge's impact with tangential compliance (StrongeParameters::tangentialCompliance,
// η² = k_n/k_t): the rigid law at η² = 0 and in the limit η² → 0, no energy gain, Coulomb's cone,
// momentum, and closed forms for a uniform sphere that sticks throughout.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "carom/core/impact/stronge.h"
#include "carom/error.h"
#include "impact_fixtures.h"
#include "support/random.h"

namespace carom::core::impact {
namespace {

using test::randomContact;

StrongeParameters compliant(double mu, double e, double eta2) {
  StrongeParameters p;
  p.friction = mu;
  p.restitution = e;
  p.tangentialCompliance = eta2;
  return p;
}

// A uniform sphere (m = 2 kg, R = 0.1 m, J = (2/5)mR²) on fixed ground (A), normal +z: at the
// contact W = diag(1/m + R²/J, 1/m + R²/J, 1/m) = diag(1.75, 1.75, 0.5), with d = 0 (the
// tangential and normal motions decoupled) and B = 3.5 W_zz.
Contact sphereOnGround(const Vec3& contactVelocity) {
  const double m = 2.0, radius = 0.1;
  Contact contact;
  contact.point = Vec3::Zero();
  contact.normal = Vec3::UnitZ();
  contact.b.inverseMass = 1.0 / m;
  contact.b.inverseInertiaWorld = Mat3::Identity() / (0.4 * m * radius * radius);
  contact.b.centerOfMass = Vec3(0, 0, radius);
  // Rolling-free: the centre carries the whole contact velocity.
  contact.b.linearVelocity = contactVelocity;
  return contact;
}

// The closed form for the sphere when the tangential spring sticks throughout. The springs are
// then two independent oscillators: the normal one at ω_n = √(k_n W_zz) while compressing (a
// quarter period, π/(2ω_n)) and at ω_n/e while restituting (Stronge's unloading at k_n/e²: a
// quarter period π e/(2ω_n)); the tangential one at ω_t = √(k_t B) = ω_n √(3.5/η²) throughout. So
// the contact lasts t_c = π(1 + e)/(2ω_n), and the contact's tangential velocity is
//   γ⁺ = γ⁻ cos(ω_t t_c) = γ⁻ cos(π(1 + e)/2 · √(3.5/η²)),   v_z⁺ = −e v_z⁻.
// It sticks while the tangential over the normal force, (k_t γ⁻ sin ω_t t/ω_t)/(k_n|v_z⁻| sin ω_n
// t/ω_n) in compression, stays within μ; at the start that ratio is γ⁻/(η²|v_z⁻|).
double stickingSlipRatio(double e, double eta2) {
  return std::cos(M_PI * (1.0 + e) / 2.0 * std::sqrt(3.5 / eta2));
}

TEST(StrongeCompliance, ZeroComplianceIsTheRigidLawBitForBit) {
  test::Random random(31);
  for (int trial = 0; trial < 200; ++trial) {
    const Contact contact = randomContact(random);
    StrongeParameters rigid = compliant(random.uniform(0.0, 1.2), random.uniform(0.0, 1.0), 0.0);
    const StrongeImpact a = resolveStrongeImpact(contact, rigid);
    StrongeParameters defaults;  // the default is 0
    defaults.friction = rigid.friction;
    defaults.restitution = rigid.restitution;
    const StrongeImpact b = resolveStrongeImpact(contact, defaults);
    EXPECT_EQ(a.outcome.impulse, b.outcome.impulse);
    EXPECT_EQ(a.solution.trace, b.solution.trace);
    // Frictionless, a tangential spring carries no force: any η² is the rigid law.
    rigid.friction = 0.0;
    StrongeParameters soft = rigid;
    soft.tangentialCompliance = 2.0;
    EXPECT_EQ(resolveStrongeImpact(contact, rigid).outcome.impulse,
              resolveStrongeImpact(contact, soft).outcome.impulse);
  }
}

// As η² → 0 the tangential spring becomes rigid: the rod of the digest (§7.10), sticking after a
// short slip (μ = 0.8) and sliding throughout with a reversal (μ = 0.3), tends to Jia & Wang's
// impulses; the error shrinks with η (the tangential spring's oscillation about the line of
// sticking, of amplitude ∝ η).
TEST(StrongeCompliance, SmallComplianceTendsToTheRigidLaw) {
  const Mat3 W = (Mat3() << 2.5, 0.0, -1.5, 0.0, 4.0, 0.0, -1.5, 0.0, 2.5).finished();
  const Vec3 v(0.3, 0.0, -1.0);
  for (double mu : {0.8, 0.3}) {
    const Vec3 rigid = solveStrongeImpulse(W, v, compliant(mu, 0.5, 0.0)).impulse;
    double previous = 1.0;
    for (double eta2 : {1e-2, 1e-3, 1e-4}) {
      StrongeParameters p = compliant(mu, 0.5, eta2);
      p.maxSteps = 100000;
      const StrongeSolution s = solveStrongeImpulse(W, v, p);
      ASSERT_EQ(s.status, StrongeStatus::kConverged) << s.trace;
      const double error = (s.impulse - rigid).norm() / rigid.norm();
      SCOPED_TRACE("mu " + std::to_string(mu) + ", eta^2 " + std::to_string(eta2));
      EXPECT_LT(error, 0.6 * previous);
      EXPECT_LT(error, 3.0 * std::sqrt(eta2));
      previous = error;
    }
  }
}

TEST(StrongeCompliance, NeverGainsEnergyAndKeepsTheCone) {
  test::Random random(2030);
  int slipped = 0, reversed = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    Contact contact = randomContact(random);
    if (trial % 5 == 0) {  // no initial slip
      const Vec3 u0 = relativeVelocity(contact);
      contact.b.linearVelocity -= u0 - u0.dot(contact.normal) * contact.normal;
    }
    StrongeParameters p =
        compliant(trial % 2 ? random.uniform(0.01, 1.5) : random.uniform(0.01, 0.15),
                  random.uniform(0.0, 1.0), std::exp(random.uniform(-3.0, 2.0)));
    if (trial % 10 == 0) p.restitution = 0.0;
    if (trial % 10 == 1) p.restitution = 1.0;
    p.maxSteps = 100000;
    SCOPED_TRACE(trial);
    const StrongeImpact impact = resolveStrongeImpact(contact, p);
    const StrongeSolution& s = impact.solution;
    ASSERT_EQ(s.status, StrongeStatus::kConverged) << s.trace;
    const Mat3 K = inverseMassMatrix(contact);
    const Vec3 u = relativeVelocity(contact);
    const double scaleE = 0.5 * u.dot(K.ldlt().solve(u));
    const double dT = impact.outcome.energyChange;
    EXPECT_LE(dT, 1e-12 * scaleE);
    // The energy's account: the normal spring's (1 − e²)E_c and the slip's dissipation, to the
    // Runge–Kutta steps' own loss (≤ ~1e-10 per step).
    EXPECT_NEAR(dT, s.normalWork + s.frictionWork, 1e-6 * scaleE);
    EXPECT_LE(s.frictionWork, 0.0);
    // Coulomb's cone holds at every instant, so for the total; the bodies separate.
    const Vec3 n = contact.normal, I = impact.outcome.impulse;
    EXPECT_GT(I.dot(n), 0.0);
    EXPECT_LE((I - I.dot(n) * n).norm(), p.friction * I.dot(n) * (1 + 1e-9));
    const Contact next = test::after(contact, impact.outcome);
    EXPECT_GE(relativeVelocity(next).dot(n), -1e-9 * u.norm());
    slipped += s.frictionWork < -1e-9 * scaleE;
    // The contact's tangential velocity reversed: the tangential spring gave energy back.
    const Vec3 gammaBefore = u - u.dot(n) * n, gammaAfter = relativeVelocity(next);
    reversed += (gammaAfter - gammaAfter.dot(n) * n).dot(gammaBefore) < -1e-3 * u.squaredNorm();
  }
  // The sweep reached both slipping impacts and impacts that spring the tangential velocity back.
  EXPECT_GT(slipped, 300);
  EXPECT_GT(reversed, 50);
}

// The impulse acts at the contact point, equal and opposite: linear momentum and the angular
// momentum about the contact point are conserved.
TEST(StrongeCompliance, ConservesMomentum) {
  test::Random random(77);
  for (int trial = 0; trial < 200; ++trial) {
    const Contact contact = randomContact(random);
    const StrongeParameters p =
        compliant(random.uniform(0.05, 1.0), random.uniform(0.0, 1.0), random.uniform(0.2, 4.0));
    const StrongeImpact impact = resolveStrongeImpact(contact, p);
    ASSERT_TRUE(impact.outcome.resolved) << impact.outcome.trace;
    ASSERT_GT(impact.outcome.impulse.norm(), 0.0);
    const Contact next = test::after(contact, impact.outcome);
    const double scale = impact.outcome.impulse.norm();
    EXPECT_LT((test::linearMomentum(next) - test::linearMomentum(contact)).norm(), 1e-12 * scale);
    EXPECT_LT(
        (test::angularMomentum(next, contact.point) - test::angularMomentum(contact, contact.point))
            .norm(),
        1e-11 * scale);
  }
}

// η² = 3.5 = B/W_zz: ω_t = ω_n, so with e = 1 the tangential spring completes half an oscillation
// as the normal one does, and the force ratio is constant, γ⁻/(η²|v_z⁻|): a contact with at least
// that μ sticks throughout and leaves with its tangential velocity reversed, γ⁺ = −γ⁻, and no
// energy lost (the rough superball). With a smaller μ it slips and loses energy.
TEST(StrongeCompliance, SphereSticksThroughoutAndReversesItsTangentialVelocity) {
  const Vec3 v(0.6, -0.2, -1.0);  // γ⁻/(η²|v_z⁻|) = 0.6325/3.5 = 0.181
  const Contact contact = sphereOnGround(v);
  const StrongeImpact stick = resolveStrongeImpact(contact, compliant(0.19, 1.0, 3.5));
  ASSERT_TRUE(stick.outcome.resolved) << stick.outcome.trace;
  const Vec3 after = relativeVelocity(test::after(contact, stick.outcome));
  EXPECT_NEAR(stickingSlipRatio(1.0, 3.5), -1.0, 1e-15);
  EXPECT_LT((after - Vec3(-0.6, 0.2, 1.0)).norm(), 1e-6);
  EXPECT_NEAR(stick.outcome.energyChange, 0.0, 1e-7);  // the steps own loss, ~(ωh)⁶/144 each
  EXPECT_NEAR(stick.solution.frictionWork, 0.0, 1e-7);
  // E_c is the normal kinetic energy, ½ v_z²/W_zz.
  EXPECT_NEAR(stick.solution.compressionEnergy, 0.5 * 1.0 / 0.5, 1e-7);

  const StrongeImpact slip = resolveStrongeImpact(contact, compliant(0.15, 1.0, 3.5));
  const Vec3 slipAfter = relativeVelocity(test::after(contact, slip.outcome));
  EXPECT_LT(slip.outcome.energyChange, -1e-3);
  EXPECT_GT(slipAfter.head<2>().dot(v.head<2>()), -v.head<2>().squaredNorm() + 1e-3);
}

// η² = 0.875: ω_t = 2ω_n, a whole tangential oscillation per impact; the force ratio is
// γ⁻/(η²|v_z⁻|) cos ω_n t, within μ = that bound throughout: γ⁺ = γ⁻, and energy conserved.
TEST(StrongeCompliance, SphereCompletesAWholeTangentialOscillation) {
  const Vec3 v(0.3, 0.4, -2.0);  // γ⁻/(η²|v_z⁻|) = 0.5/1.75 = 0.2857
  const Contact contact = sphereOnGround(v);
  const StrongeImpact impact = resolveStrongeImpact(contact, compliant(0.2858, 1.0, 0.875));
  ASSERT_TRUE(impact.outcome.resolved) << impact.outcome.trace;
  const Vec3 after = relativeVelocity(test::after(contact, impact.outcome));
  EXPECT_NEAR(stickingSlipRatio(1.0, 0.875), 1.0, 1e-15);
  EXPECT_LT((after - Vec3(0.3, 0.4, 2.0)).norm(), 1e-6);
  EXPECT_NEAR(impact.outcome.energyChange, 0.0, 1e-7);
}

// The limit of infinite friction: the spring sticks whatever the ratio, and the closed form holds
// for any η² and e (a part of a tangential oscillation per impact; what the spring holds at
// separation is lost).
TEST(StrongeCompliance, SphereWithUnlimitedFrictionFollowsTheClosedForm) {
  const Vec3 v(0.8, 0.0, -1.5);
  const Contact contact = sphereOnGround(v);
  for (double eta2 : {0.5, 1.0, 1.21, 2.0, 6.0}) {
    for (double e : {1.0, 0.6, 0.25}) {
      SCOPED_TRACE("eta^2 " + std::to_string(eta2) + ", e " + std::to_string(e));
      const StrongeImpact impact = resolveStrongeImpact(contact, compliant(1e9, e, eta2));
      ASSERT_TRUE(impact.outcome.resolved) << impact.outcome.trace;
      const Vec3 after = relativeVelocity(test::after(contact, impact.outcome));
      EXPECT_NEAR(after.x(), 0.8 * stickingSlipRatio(e, eta2), 2e-6);
      EXPECT_NEAR(after.y(), 0.0, 1e-12);
      EXPECT_NEAR(after.z(), 1.5 * e, 2e-6);
    }
  }
}

TEST(StrongeCompliance, InvalidComplianceIsAnError) {
  const Mat3 W = Vec3(1.75, 1.75, 0.5).asDiagonal();
  for (double bad : {-0.1, std::nan(""), HUGE_VAL}) {
    try {
      solveStrongeImpulse(W, Vec3(0.1, 0, -1), compliant(0.3, 0.5, bad));
      ADD_FAILURE() << bad;
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("tangential compliance"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace carom::core::impact
