#include "carom/core/routh/problem.h"

#include <gtest/gtest.h>

#include <string>

#include "carom/error.h"

#include "core/routh/random_problems.h"

namespace carom::core::routh {
namespace {

using test::Random;
using test::routh::randomImpact;

// (75b) written out from its definition with a dense M⁻¹: W over [β | λ_n | λ_D | γ] with the
// λ block J̄ M⁻¹ J̄ᵀ, J̄ = [J_n; J_D], and its border of ±I, E, −Eᵀ and μ.
Eigen::MatrixXd referenceStepMatrix(const ImpactProblem& p) {
  const Eigen::Index m = p.contacts(), k = p.directions(), nD = p.frictionRows();
  Eigen::MatrixXd Jbar(m + nD, p.dofs());
  Jbar << p.normalJacobian(), p.directionJacobian();
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(3 * m + nD, 3 * m + nD);
  W.block(m, m, m + nD, m + nD) = Jbar * p.massMatrix().inverse() * Jbar.transpose();
  for (Eigen::Index i = 0; i < m; ++i) {
    W(i, m + i) = -1.0;
    W(m + i, i) = 1.0;
    W(2 * m + nD + i, m + i) = p.friction()(i);
    for (Eigen::Index j = 0; j < k; ++j) {
      W(2 * m + k * i + j, 2 * m + nD + i) = 1.0;
      W(2 * m + nD + i, 2 * m + k * i + j) = -1.0;
    }
  }
  return W;
}

// W, M⁻¹J̄ᵀ (through velocityChange) and the kinetic energy, each against its definition.
void expectDefinitions(const ImpactProblem& p, Random& random) {
  const Eigen::MatrixXd W = referenceStepMatrix(p);
  EXPECT_LE((p.stepMatrix() - W).cwiseAbs().maxCoeff(), 1e-12 * W.cwiseAbs().maxCoeff());
  const Eigen::VectorXd lambdaN = test::lcp::uniformVector(random, p.contacts());
  const Eigen::VectorXd lambdaD = test::lcp::uniformVector(random, p.frictionRows());
  const Eigen::VectorXd expected =
      p.massMatrix().inverse() *
      (p.normalJacobian().transpose() * lambdaN + p.directionJacobian().transpose() * lambdaD);
  EXPECT_LE((p.velocityChange(lambdaN, lambdaD) - expected).norm(), 1e-12 * expected.norm());
  const Eigen::VectorXd v = test::lcp::uniformVector(random, p.dofs());
  const double energy = 0.5 * v.dot(p.massMatrix() * v);
  EXPECT_NEAR(p.kineticEnergy(v), energy, 1e-14 * energy);
}

TEST(ImpactProblem, IsItsDefinitionForPlanarAndSpatialContacts) {
  Random random(41);
  for (const int directions : {2, 4, 8, 12}) {
    for (const Eigen::Index m : {1, 2, 5}) {
      SCOPED_TRACE(testing::Message() << directions << " directions, " << m << " contacts");
      expectDefinitions(randomImpact(random, m, directions).problem, random);
    }
  }
}

// Rigid bodies' block-diagonal M (mass 1 × 1 three times, inertia 3 × 3, per body), which M⁻¹J̄ᵀ
// takes block by block, with contacts that each reach two of three bodies.
TEST(ImpactProblem, IsItsDefinitionOnRigidBodiesMassBlocks) {
  Random random(43);
  const Eigen::Index bodies = 3, m = 4, nv = 6 * bodies;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(nv, nv);
  for (Eigen::Index b = 0; b < bodies; ++b) {
    M.block(6 * b, 6 * b, 3, 3) = random.uniform(0.5, 3.0) * Eigen::Matrix3d::Identity();
    M.block(6 * b + 3, 6 * b + 3, 3, 3) = test::lcp::spdMatrix(random, 3);
  }
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(m, nv), Jt = Eigen::MatrixXd::Zero(2 * m, nv);
  for (Eigen::Index i = 0; i < m; ++i) {
    for (const Eigen::Index b : {i % bodies, (i + 1) % bodies}) {
      Jn.block(i, 6 * b, 1, 6) = test::lcp::gaussianLike(random, 1, 6);
      Jt.block(2 * i, 6 * b, 2, 6) = test::lcp::gaussianLike(random, 2, 6);
    }
  }
  const Eigen::VectorXd mu = Eigen::VectorXd::Constant(m, 0.4);
  expectDefinitions(ImpactProblem::spatial(M, Jn, Jt, mu), random);
}

// Finite inputs whose W overflows (a mass of 1e-310 kg: M⁻¹ is 1e310) are refused where the
// problem is built: its step LCPs do not read W's entries for finiteness again.
TEST(ImpactProblem, RefusesAStepMatrixThatOverflows) {
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(6, 6);
  M(0, 0) = 1e-310;
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(1, 6), Jt = Eigen::MatrixXd::Zero(2, 6);
  Jn(0, 0) = 1.0;
  Jt(0, 1) = Jt(1, 2) = 1.0;
  try {
    ImpactProblem::spatial(M, Jn, Jt, Eigen::VectorXd::Constant(1, 0.5));
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("step matrix"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace carom::core::routh
