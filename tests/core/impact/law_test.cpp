#include "carom/core/impact/law.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/impact/impact_fixtures.h"

namespace carom::test {
namespace {

using core::impact::applyLaw;
using core::impact::ClassicalParameters;
using core::impact::ImpactLaw;
using core::impact::ImpactLawKind;
using core::impact::kindOf;
using core::impact::newtonImpact;
using core::impact::NewtonLaw;
using core::impact::parseImpactLawKind;
using core::impact::poissonImpact;
using core::impact::PoissonLaw;
using core::impact::resolveStrongeImpact;
using core::impact::strictImpact;
using core::impact::StrictLaw;
using core::impact::StrictParameters;
using core::impact::StrongeLaw;
using core::impact::StrongeParameters;

constexpr int kRandomPairs = 300;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Bit-for-bit equality of every field: dispatch must add nothing and lose nothing.
void expectSameOutcome(const ImpactOutcome& viaLaw, const ImpactOutcome& direct) {
  EXPECT_EQ(viaLaw.linearVelocityA, direct.linearVelocityA);
  EXPECT_EQ(viaLaw.angularVelocityA, direct.angularVelocityA);
  EXPECT_EQ(viaLaw.linearVelocityB, direct.linearVelocityB);
  EXPECT_EQ(viaLaw.angularVelocityB, direct.angularVelocityB);
  EXPECT_EQ(viaLaw.impulse, direct.impulse);
  EXPECT_EQ(viaLaw.energyChange, direct.energyChange);
  EXPECT_EQ(viaLaw.trace, direct.trace);
  EXPECT_EQ(viaLaw.resolved, direct.resolved);
}

StrictParameters strict(int roughness, const Vec3& roughDirection, double en, double er) {
  StrictParameters parameters;
  parameters.roughness = roughness;
  parameters.roughDirection = roughDirection;
  parameters.normalRestitution = en;
  parameters.tangentialRestitution = er;
  return parameters;
}

StrongeParameters stronge(double friction, double restitution) {
  StrongeParameters parameters;
  parameters.friction = friction;
  parameters.restitution = restitution;
  return parameters;
}

ClassicalParameters classical(double restitution, double friction) {
  ClassicalParameters parameters;
  parameters.restitution = restitution;
  parameters.friction = friction;
  return parameters;
}

TEST(ImpactLawDispatch, EveryLawGivesExactlyTheOutcomeOfItsDirectCall) {
  Random random(301);
  for (int i = 0; i < kRandomPairs; ++i) {
    const Contact c = randomContact(random);
    const double e = random.uniform(0.0, 1.0), mu = random.uniform(0.0, 1.0);
    for (int k = 0; k <= 2; ++k) {
      const StrictParameters p = strict(k, randomTangent(random, c.normal), e, 1.0 - e);
      expectSameOutcome(applyLaw(c, StrictLaw{p}), strictImpact(c, p));
    }
    expectSameOutcome(applyLaw(c, StrongeLaw{stronge(mu, e)}),
                      resolveStrongeImpact(c, stronge(mu, e)).outcome);
    expectSameOutcome(applyLaw(c, NewtonLaw{classical(e, mu)}), newtonImpact(c, classical(e, mu)));
    expectSameOutcome(applyLaw(c, PoissonLaw{classical(e, mu)}),
                      poissonImpact(c, classical(e, mu)));
  }
}

// Newton and Poisson share a parameter struct; the alternative, not the parameters, picks the law.
TEST(ImpactLawDispatch, NewtonAndPoissonWithEqualParametersStayDistinct) {
  const Contact rod = rodOnGround(Vec3(1.0, 0.0, -1.0));
  const ClassicalParameters p = classical(0.5, 0.5);
  EXPECT_EQ(applyLaw(rod, NewtonLaw{p}).trace.rfind("newton", 0), 0u);
  EXPECT_EQ(applyLaw(rod, PoissonLaw{p}).trace.rfind("poisson", 0), 0u);
  EXPECT_EQ(kindOf(NewtonLaw{p}), ImpactLawKind::kNewton);
  EXPECT_EQ(kindOf(PoissonLaw{p}), ImpactLawKind::kPoisson);
  EXPECT_EQ(kindOf(StrictLaw{}), ImpactLawKind::kStrict);
  EXPECT_EQ(kindOf(StrongeLaw{}), ImpactLawKind::kStronge);
  EXPECT_EQ(kindOf(ImpactLaw{}), ImpactLawKind::kStronge);  // INTERFACES.md's default law
}

// A Stronge integration that stops at its step cap is reported, not applied and not replaced.
TEST(ImpactLawDispatch, AnUnfinishedStrongeImpactIsReportedWithThePreImpactVelocities) {
  StrongeParameters capped = stronge(0.5, 0.9);
  capped.maxSteps = 1;
  Random random(302);
  int unresolved = 0;
  for (int i = 0; i < 50; ++i) {
    const Contact c = randomContact(random);
    const ImpactOutcome outcome = applyLaw(c, StrongeLaw{capped});
    if (outcome.resolved) continue;
    ++unresolved;
    EXPECT_EQ(outcome.impulse, Vec3::Zero());
    EXPECT_EQ(outcome.linearVelocityB, c.b.linearVelocity);
    EXPECT_EQ(outcome.angularVelocityA, c.a.angularVelocity);
    EXPECT_NE(outcome.trace.find("step limit"), std::string::npos) << outcome.trace;
  }
  EXPECT_GT(unresolved, 0);
  const Contact c = randomContact(random);
  EXPECT_TRUE(applyLaw(c, StrongeLaw{stronge(0.5, 0.9)}).resolved);
}

// Traced only on failure, a resolved impact is the same to the bit with an empty trace, and one
// that fails is solved again with its trace: frictionless and frictional, sliding and sticking.
TEST(ImpactLawDispatch, AStrongeImpactTracedOnFailureIsTheSameImpactWithoutItsTrace) {
  Random random(303);
  for (const StrongeParameters& parameters :
       {stronge(0.0, 1.0), stronge(0.0, 0.4), stronge(0.3, 0.8), stronge(2.0, 0.5)}) {
    for (int i = 0; i < 50; ++i) {
      const Contact c = randomContact(random);
      const ImpactOutcome traced = applyLaw(c, StrongeLaw{parameters});
      ImpactOutcome untraced =
          applyLaw(c, StrongeLaw{parameters}, core::impact::TraceWhen::kOnFailure);
      ASSERT_TRUE(traced.resolved) << traced.trace;
      EXPECT_FALSE(traced.trace.empty());
      EXPECT_TRUE(untraced.trace.empty()) << untraced.trace;
      untraced.trace = traced.trace;
      expectSameOutcome(untraced, traced);
    }
  }
  StrongeParameters capped = stronge(0.5, 0.9);
  capped.maxSteps = 1;
  int unresolved = 0;
  for (int i = 0; i < 50; ++i) {
    const Contact c = randomContact(random);
    const ImpactOutcome traced = applyLaw(c, StrongeLaw{capped});
    const ImpactOutcome onFailure =
        applyLaw(c, StrongeLaw{capped}, core::impact::TraceWhen::kOnFailure);
    expectSameOutcome(onFailure, traced);
    unresolved += !traced.resolved;
  }
  EXPECT_GT(unresolved, 0);
}

// Asked not to trace, a Stronge impact writes nothing into its trace, the same impulse otherwise;
// the laws that are not Stronge's keep their (constant) traces.
TEST(ImpactLawDispatch, AnUntracedStrongeImpactHasAnEmptyTrace) {
  Random random(304);
  StrongeParameters quiet = stronge(0.3, 0.7);
  quiet.trace = false;
  StrongeParameters compliant = quiet;
  compliant.tangentialCompliance = 1.21;
  for (int i = 0; i < 20; ++i) {
    const Contact c = randomContact(random);
    for (const StrongeParameters& parameters : {quiet, compliant}) {
      StrongeParameters traced = parameters;
      traced.trace = true;
      const ImpactOutcome without = applyLaw(c, StrongeLaw{parameters});
      const ImpactOutcome with = applyLaw(c, StrongeLaw{traced});
      EXPECT_TRUE(without.trace.empty()) << without.trace;
      EXPECT_NE(with.trace.find("Stronge (converged)"), std::string::npos) << with.trace;
      EXPECT_EQ(without.impulse, with.impulse);
    }
    const ClassicalParameters classical{0.5, 0.3};
    EXPECT_EQ(applyLaw(c, NewtonLaw{classical}, core::impact::TraceWhen::kOnFailure).trace,
              applyLaw(c, NewtonLaw{classical}).trace);
  }
}

TEST(ImpactLawNames, NamesRoundTrip) {
  EXPECT_STREQ(toString(ImpactLawKind::kStrict), "strict");
  EXPECT_STREQ(toString(ImpactLawKind::kStronge), "stronge");
  EXPECT_STREQ(toString(ImpactLawKind::kNewton), "newton");
  EXPECT_STREQ(toString(ImpactLawKind::kPoisson), "poisson");
  for (ImpactLawKind kind : {ImpactLawKind::kStrict, ImpactLawKind::kStronge,
                             ImpactLawKind::kNewton, ImpactLawKind::kPoisson}) {
    EXPECT_EQ(parseImpactLawKind(toString(kind)), kind);
  }
}

TEST(ImpactLawNames, UnknownNamesAreRefusedWithTheValidOnesListed) {
  for (const char* bad : {"Stronge", "", "coulomb", "newton ", "strict,stronge"}) {
    try {
      parseImpactLawKind(bad);
      ADD_FAILURE() << "no carom::Error for \"" << bad << "\"";
    } catch (const Error& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find('"' + std::string(bad) + '"'), std::string::npos) << message;
      for (const char* valid : {"\"strict\"", "\"stronge\"", "\"newton\"", "\"poisson\""}) {
        EXPECT_NE(message.find(valid), std::string::npos) << message;
      }
    }
  }
}

// The contract of issue 3 §4 through the one interface: every law refuses bad input by name.
TEST(ImpactLawErrors, BadParametersAreNamedForEveryLaw) {
  const Contact rod = rodOnGround(Vec3(1.0, 0.0, -1.0));
  const auto call = [&](ImpactLaw law) { return [=] { applyLaw(rod, law); }; };
  for (double bad : {-0.1, 1.1, kNan}) {
    expectErrorNaming(call(StrictLaw{strict(0, Vec3::UnitX(), bad, 1.0)}), "normalRestitution");
    expectErrorNaming(call(StrongeLaw{stronge(0.5, bad)}), "restitution");
    expectErrorNaming(call(NewtonLaw{classical(bad, 0.5)}), "restitution");
    expectErrorNaming(call(PoissonLaw{classical(bad, 0.5)}), "restitution");
  }
  for (double bad : {-0.1, kNan, kInfinity}) {
    expectErrorNaming(call(StrongeLaw{stronge(bad, 0.5)}), "friction");
    expectErrorNaming(call(NewtonLaw{classical(0.5, bad)}), "friction");
    expectErrorNaming(call(PoissonLaw{classical(0.5, bad)}), "friction");
  }
  expectErrorNaming(call(StrictLaw{strict(3, Vec3::UnitX(), 1.0, 1.0)}), "roughness");
}

TEST(ImpactLawErrors, BadContactsAreNamedForEveryLaw) {
  const Contact rod = rodOnGround(Vec3(1.0, 0.0, -1.0));
  Contact unnormalised = rod;
  unnormalised.normal *= 1.01;
  Contact immovable;
  Contact nan = rod;
  nan.b.linearVelocity.x() = kNan;
  Contact indefinite = rod;
  indefinite.b.inverseInertiaWorld(2, 2) = -1.0;
  for (const ImpactLaw& law : {ImpactLaw{StrictLaw{}}, ImpactLaw{StrongeLaw{stronge(0.5, 0.5)}},
                               ImpactLaw{NewtonLaw{}}, ImpactLaw{PoissonLaw{}}}) {
    const auto call = [&](const Contact& c) { return [&] { applyLaw(c, law); }; };
    expectErrorNaming(call(unnormalised), "normal");
    expectErrorNaming(call(immovable), "immovable");
    expectErrorNaming(call(nan), "linear velocity");
    expectErrorNaming(call(indefinite), "positive semi-definite");
    expectErrorNaming(call(reversed(rod)), "relative normal velocity");
  }
}

// A body pinned at its centre (zero inverse mass) cannot be pushed along its lever arm r: K = I −
// rrᵀ has r in its null space. With r along a tangent only the specular map, which pushes along the
// normal alone, has an answer; with r along the normal no law has one.
TEST(ImpactLawErrors, ImpulsesTheBodiesCannotExchangeAreRefused) {
  Contact pinned;
  pinned.a.inverseInertiaWorld = Mat3::Identity();
  pinned.a.centerOfMass = -Vec3::UnitX();
  pinned.a.angularVelocity = -Vec3::UnitY();  // the contact point of A moves along +z, into B
  EXPECT_NO_THROW(applyLaw(pinned, StrictLaw{}));
  for (const ImpactLaw& law :
       {ImpactLaw{StrictLaw{strict(2, Vec3::UnitX(), 1.0, 1.0)}},
        ImpactLaw{StrongeLaw{stronge(0.5, 0.5)}}, ImpactLaw{NewtonLaw{classical(0.5, 0.5)}},
        ImpactLaw{PoissonLaw{classical(0.5, 0.5)}}}) {
    expectErrorNaming([&] { applyLaw(pinned, law); }, "inverse mass matrix");
  }
  pinned.a.centerOfMass = -Vec3::UnitZ();
  expectErrorNaming([&] { applyLaw(pinned, StrictLaw{}); }, "inverse mass matrix");
}

// The inverse-inertia check accepts eigenvalues down to −1e-12 × its largest entry (rounding of a
// singular, rotationally locked body) and refuses anything more negative.
TEST(ImpactLawErrors, InverseInertiaMayBeSingularButNotIndefinite) {
  Random random(303);
  const Mat3 q = random.rotation();
  const auto withEigenvalues = [&](const Vec3& eigenvalues) {
    Contact c = rodOnGround(Vec3(0.0, 0.0, -1.0));
    c.a.inverseMass = 1.0;
    c.a.centerOfMass = Vec3(0.0, 0.0, -1.0);
    c.a.inverseInertiaWorld = q * eigenvalues.asDiagonal() * q.transpose();
    c.a.inverseInertiaWorld = 0.5 * (c.a.inverseInertiaWorld + c.a.inverseInertiaWorld.transpose());
    return c;
  };
  for (const Vec3& accepted : {Vec3(2.0, 1.0, 0.0), Vec3(2.0, 1.0, -1e-13), Vec3(2.0, 0.0, 0.0),
                               Vec3(2.0, -1e-13, -1e-13)}) {
    EXPECT_NO_THROW(applyLaw(withEigenvalues(accepted), NewtonLaw{})) << accepted.transpose();
  }
  for (const Vec3& refused : {Vec3(2.0, 1.0, -1e-10), Vec3(2.0, 1.0, -1e-3), Vec3(2.0, 0.0, -1e-10),
                              Vec3(-1.0, 1.0, 1.0)}) {
    expectErrorNaming([&] { applyLaw(withEigenvalues(refused), NewtonLaw{}); },
                      "inverse inertia is not positive semi-definite");
  }
}

// Kinetic energy ½ωᵀJω reads J from J⁻¹: the inverse for a free body, the pseudo-inverse for one
// rotationally locked about an axis, whose J⁻¹ = q diag(½, ¼, 0) qᵀ is singular only up to
// rounding (an inverse of that would count the locked axis at about 1e16 times its weight).
TEST(KineticEnergy, ReadsTheInertiaOfFreeAndRotationallyLockedBodies) {
  Random random(304);
  const Mat3 q = random.rotation();
  const Vec3 omega(0.7, -1.3, 2.1);
  const Vec3 along = q.transpose() * omega;  // ω in the principal frame
  Contact c = rodOnGround(Vec3::Zero());
  c.a.linearVelocity = Vec3::Zero();
  c.a.angularVelocity = omega;
  c.b.inverseMass = 0.0;
  c.b.inverseInertiaWorld = Mat3::Zero();
  c.b.linearVelocity = c.b.angularVelocity = Vec3::Zero();
  c.a.inverseInertiaWorld = q * Vec3(0.5, 0.25, 0.125).asDiagonal() * q.transpose();
  EXPECT_NEAR(core::impact::kineticEnergy(c),
              0.5 * (2 * along(0) * along(0) + 4 * along(1) * along(1) + 8 * along(2) * along(2)),
              1e-13);
  c.a.inverseInertiaWorld = q * Vec3(0.5, 0.25, 0.0).asDiagonal() * q.transpose();
  EXPECT_NEAR(core::impact::kineticEnergy(c),
              0.5 * (2 * along(0) * along(0) + 4 * along(1) * along(1)), 1e-13);
}

}  // namespace
}  // namespace carom::test
