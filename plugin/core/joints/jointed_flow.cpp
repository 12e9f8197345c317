#include "carom/core/joints/jointed_flow.h"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <string>

#include "carom/core/joints/constraint.h"
#include "carom/error.h"

namespace carom::core::joints {
namespace {

// The Newton and projection matrices are factorised by partial pivoting (FullPivLU's search over
// the whole matrix took half of a ragdoll pile's step); one whose reciprocal condition estimate is
// below this is singular (redundant rows, as a closed loop has). Dimensionless: 1e3 round-offs.
constexpr double kSingularRcond = 1e-13;
// A singular one's singular values below this fraction of its largest are its redundant rows'
// (a door on two coaxial hinges, whose ten rows hold five freedoms). Dimensionless.
constexpr double kRedundantRank = 1e-12;

// x with A x = b, A square: by partial pivoting, or where A is singular from redundant rows, the
// least-squares solution of least norm (a complete orthogonal decomposition): the rows that repeat
// others share their impulse, and the freedoms they hold are held as the others hold them. Not
// finite where A has a non-finite entry.
Eigen::VectorXd solveRedundant(const Eigen::MatrixXd& A, const Eigen::VectorXd& b) {
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(A);
  if (lu.rcond() > kSingularRcond) return lu.solve(b);
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> redundant;
  redundant.setThreshold(kRedundantRank);
  redundant.compute(A);
  return redundant.solve(b);
}

// One body's block of a block-diagonal 6N × 6N matrix: diag(linear I, angular).
struct BodyBlock {
  double linear;
  Mat3 angular;
};

// m ← diag(blocks) m, rows 6i..6i+5 by body i's block.
void applyBlocks(const std::vector<BodyBlock>& blocks, Eigen::MatrixXd& m) {
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    m.middleRows<3>(6 * i) *= blocks[i].linear;
    m.middleRows<3>(6 * i + 3) = blocks[i].angular * m.middleRows<3>(6 * i + 3);
  }
}

// left diag(blocks) rightᵀ, for gradients (rows × 6N) whose rows each have columns at a few bodies
// (a joint's rows at its two): per body, only the rows with columns there, where a dense product
// would take rows² × 6N.
Eigen::MatrixXd weightedProduct(const Eigen::MatrixXd& left, const std::vector<BodyBlock>& blocks,
                                const Eigen::MatrixXd& right) {
  Eigen::MatrixXd weighted = right.transpose();  // diag(blocks) rightᵀ
  applyBlocks(blocks, weighted);
  Eigen::MatrixXd product = Eigen::MatrixXd::Zero(left.rows(), right.rows());
  std::vector<Eigen::Index> leftRows, rightRows;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const Eigen::Index at = 6 * static_cast<Eigen::Index>(i);
    leftRows.clear();
    rightRows.clear();
    for (Eigen::Index r = 0; r < left.rows(); ++r)
      if (!left.block<1, 6>(r, at).isZero(0.0)) leftRows.push_back(r);
    for (Eigen::Index s = 0; s < right.rows(); ++s)
      if (!right.block<1, 6>(s, at).isZero(0.0)) rightRows.push_back(s);
    for (const Eigen::Index r : leftRows)
      for (const Eigen::Index s : rightRows)
        product(r, s) += left.block<1, 6>(r, at) * weighted.block<6, 1>(at, s);
  }
  return product;
}

// M⁻¹ = diag(I/m_i, J_i⁻¹): generalised momentum (γ, Π) to velocity (ẋ, Ω).
std::vector<BodyBlock> inverseMass(const JointedSystem& system) {
  std::vector<BodyBlock> blocks;
  for (const MassProperties& body : system.bodies()) {
    blocks.push_back({body.inverseMass(), body.inverseInertia()});
  }
  return blocks;
}

Eigen::VectorXd momenta(const std::vector<BodyState>& states) {
  Eigen::VectorXd p(6 * states.size());
  for (std::size_t i = 0; i < states.size(); ++i)
    p.segment<6>(6 * i) << states[i].gamma, states[i].Pi;
  return p;
}

void addMomenta(std::vector<BodyState>& states, const Eigen::VectorXd& impulse) {
  for (std::size_t i = 0; i < states.size(); ++i) {
    states[i].gamma += impulse.segment<3>(6 * i);
    states[i].Pi += impulse.segment<3>(6 * i + 3);
  }
}

// (2): every body's free step (5.9) from the impelled momenta p̃_k of (1).
struct FreeSteps {
  std::vector<BodyState> states;
  std::vector<Mat3> F;  // each body's relative rotation R_kᵀR_{k+1}
  SolveStatus status = SolveStatus::kConverged;
};

FreeSteps freeSteps(const JointedSystem& system, std::vector<BodyState> impelled, double h,
                    const std::vector<ExternalLoad>& loads, const NewtonSettings& settings) {
  FreeSteps steps{std::move(impelled), {}, SolveStatus::kConverged};
  for (std::size_t i = 0; i < steps.states.size(); ++i) {
    const FlowResult step = flow(system.bodies()[i], steps.states[i], h, loads[i], settings);
    if (!step.ok()) return {{}, {}, step.rotation.status};
    steps.states[i] = step.state;
    steps.F.push_back(step.rotation.F);
  }
  return steps;
}

// ∂(x_{k+1}, ξ_{k+1})/∂p̃_k = h diag(I/m_i, W_i): (5.9a) and the linearised (5.9c) with g = hΠ̃
// (rotationSensitivity).
std::vector<BodyBlock> stepSensitivity(const JointedSystem& system, const std::vector<Mat3>& F,
                                       double h) {
  std::vector<BodyBlock> blocks;
  for (std::size_t i = 0; i < F.size(); ++i) {
    const MassProperties& body = system.bodies()[i];
    blocks.push_back({h * body.inverseMass(), h * rotationSensitivity(body, F[i])});
  }
  return blocks;
}

// (4)–(5): N solves G M⁻¹Gᵀ N = −G M⁻¹p̂, and p = p̂ + GᵀN (solveRedundant). False where that
// is not finite.
bool project(const JointedSystem& system, const Eigen::MatrixXd& G, std::vector<BodyState>& states,
             Eigen::VectorXd& impulse) {
  if (G.rows() == 0) return true;
  const std::vector<BodyBlock> mobility = inverseMass(system);
  Eigen::MatrixXd velocity = momenta(states);  // M⁻¹p
  applyBlocks(mobility, velocity);
  const Eigen::VectorXd solved =
      solveRedundant(weightedProduct(G, mobility, G), -(G * velocity).col(0));
  if (!solved.allFinite()) return false;
  impulse = solved;
  addMomenta(states, G.transpose() * impulse);
  return true;
}

// (1)–(3): Newton's method on g(q_{k+1}(Λ)) = 0 from Λ = 0, each iterate's q_{k+1}(Λ) the free
// steps (2) from the impelled momenta (1).
struct StartSolve {
  FreeSteps steps;              // at the last iterate
  Eigen::MatrixXd endGradient;  // G(q_{k+1}) there
  Eigen::VectorXd impulse;      // Λ
  int iterations = 0;           // Newton updates of Λ
  double residual = 0.0;        // ‖g(q_{k+1})‖∞
  SolveStatus status = SolveStatus::kIterationLimit;
};

StartSolve solveStartImpulse(const JointedSystem& system, const std::vector<BodyState>& states,
                             double h, const std::vector<ExternalLoad>& loads,
                             const JointSettings& settings) {
  double extent = 1.0;  // m: max(1, max_i |x_i|), the scale of g's round-off
  for (const BodyState& state : states) {
    extent = std::max(extent, state.x.norm());
  }
  const Eigen::MatrixXd startGradient = evaluateConstraints(system, states).gradient;  // G(q_k)
  StartSolve solve{{}, {}, Eigen::VectorXd::Zero(system.rowCount())};
  for (;; ++solve.iterations) {
    std::vector<BodyState> impelled = states;
    addMomenta(impelled, startGradient.transpose() * solve.impulse);                    // (1)
    solve.steps = freeSteps(system, std::move(impelled), h, loads, settings.rotation);  // (2)
    if (solve.steps.status != SolveStatus::kConverged) {
      solve.status = solve.steps.status;
      return solve;
    }
    const ConstraintEvaluation end = evaluateConstraints(system, solve.steps.states);  // (3)
    solve.endGradient = end.gradient;
    solve.residual = end.value.lpNorm<Eigen::Infinity>();
    if (solve.residual <= settings.tolerance * extent) {
      solve.status = SolveStatus::kConverged;
      return solve;
    }
    if (solve.iterations == settings.maxIterations) return solve;  // kIterationLimit
    // ∂g(q_{k+1})/∂Λ = G(q_{k+1}) h diag(I/m_i, W_i) G(q_k)ᵀ (stepSensitivity).
    const Eigen::VectorXd step = solveRedundant(
        weightedProduct(end.gradient, stepSensitivity(system, solve.steps.F, h), startGradient),
        end.value);
    if (!step.allFinite()) {
      solve.status = SolveStatus::kSingular;
      return solve;
    }
    solve.impulse -= step;
  }
}

void validateInputs(const JointedSystem& system, const std::vector<BodyState>& states,
                    const std::string& where) {
  if (static_cast<int>(states.size()) != system.bodyCount()) {
    throw Error(where + ": " + std::to_string(states.size()) + " states for " +
                std::to_string(system.bodyCount()) + " bodies");
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    validateState(states[i], where + ": body " + std::to_string(i) + " state");
  }
}

}  // namespace

JointedFlowResult flow(const JointedSystem& system, const std::vector<BodyState>& states, double h,
                       const std::vector<ExternalLoad>& loads, const JointSettings& settings) {
  validateInputs(system, states, "joints::flow");
  if (loads.size() != states.size()) {
    throw Error("joints::flow: " + std::to_string(loads.size()) + " loads for " +
                std::to_string(states.size()) + " bodies");
  }
  if (!std::isfinite(h)) throw Error("joints::flow: step length h is not finite");
  if (!(settings.tolerance > 0.0) || !std::isfinite(settings.tolerance)) {
    throw Error("JointSettings.tolerance must be finite and positive");
  }
  if (settings.maxIterations < 1) throw Error("JointSettings.maxIterations must be at least 1");

  const Eigen::Index rows = system.rowCount();
  JointedFlowResult result{states, Eigen::VectorXd::Zero(rows), Eigen::VectorXd::Zero(rows)};
  // A step of no length moves nothing and takes no impulse: no motion could bring a start off the
  // constraints (a jointed push leaves one off by 1e-9 m) onto them in no time.
  if (h == 0) {
    result.residual = evaluateConstraints(system, states).value.lpNorm<Eigen::Infinity>();
    return result;
  }
  StartSolve solve = solveStartImpulse(system, states, h, loads, settings);  // (1)–(3)
  result.iterations = solve.iterations;
  result.residual = solve.residual;
  result.status = solve.status;
  if (!result.ok()) return result;
  if (!project(system, solve.endGradient, solve.steps.states, result.endImpulse)) {  // (4)–(5)
    result.status = SolveStatus::kSingular;
    return result;
  }
  result.states = std::move(solve.steps.states);
  result.startImpulse = solve.impulse;
  return result;
}

JointedFlowResult projectMomenta(const JointedSystem& system,
                                 const std::vector<BodyState>& states) {
  validateInputs(system, states, "joints::projectMomenta");
  JointedFlowResult result{states, {}, Eigen::VectorXd::Zero(system.rowCount())};
  std::vector<BodyState> projected = states;
  if (!project(system, evaluateConstraints(system, states).gradient, projected,
               result.endImpulse)) {
    result.status = SolveStatus::kSingular;
    return result;
  }
  result.states = std::move(projected);
  return result;
}

}  // namespace carom::core::joints
