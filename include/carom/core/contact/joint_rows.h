// Joints at velocity level: the rows of bilateral (and limit, and motor) constraints between rigid
// bodies, solved in one problem with the persistent contacts (persistent_contact.h).
//
// A row is one scalar constraint on the bodies' velocities, in the form a btTypedConstraint's
// getInfo2 writes it (the adapter copies Bullet's own rows; nothing here knows a joint's geometry):
//   J·u = linearA·v_A + angularA·ω_A + linearB·v_B + angularB·ω_B,
// held at `target` by an impulse λ on the row, lower ≤ λ ≤ upper, which gives body A the linear
// impulse λ·linearA and the angular impulse λ·angularA, and B likewise:
//   lower < λ < upper ⇒ J·u = target,  λ = lower ⇒ J·u ≥ target,  λ = upper ⇒ J·u ≤ target.
// A row with lower = −∞ and upper = +∞ is an equality (a joint's bilateral row); a limit row has
// one bound 0 and the other infinite; a motor row two finite bounds (its largest impulse).
//
// The equality rows are solved exactly (JointSystem: a factorization of their Delassus matrix
// A = J M⁻¹ Jᵀ), not by sweeps: a pendulum's three point-to-point rows on an anisotropic body
// converge by Gauss–Seidel at a rate near 1 (the body's radial and tangential responses differ by
// m L²/I), and a chain's rows by a layer per sweep. Limit and motor rows are swept by projected
// Gauss–Seidel through the equality rows held (each update moves the bodies as the jointed system
// moves, so a stop on a hinged rod is met in one update), and the contacts by the contact solver,
// in turn with the exact equality block: a block Gauss–Seidel on the problem's dual, each block a
// descent step on the kinetic energy, so the velocities never gain energy from the solve (for
// targets 0).
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "carom/core/contact/persistent_contact.h"
#include "carom/core/impact/law.h"

namespace carom::core::contact {

struct JointRow {
  int bodyA = kWorld;  ///< index into the body list, or kWorld
  int bodyB = kWorld;
  Vec3 linearA = Vec3::Zero();   ///< the row's Jacobian (dimensionless for a linear row, m for an
  Vec3 angularA = Vec3::Zero();  ///< angular part of a linear one; an angular row has 0 and a unit
  Vec3 linearB = Vec3::Zero();   ///< axis), Bullet's m_J1linearAxis, m_J1angularAxis, m_J2…
  Vec3 angularB = Vec3::Zero();
  double target = 0.0;  ///< the row velocity held (m/s or rad/s)
  double lower = -std::numeric_limits<double>::infinity();  ///< impulse bounds (N s or N m s)
  double upper = std::numeric_limits<double>::infinity();
  double impulse = 0.0;  ///< the solution on output (the solve starts from 0)

  bool isEquality() const;  ///< lower = −∞ and upper = +∞
};

/// J M⁻¹ Jᵀ of one row (1/kg, or 1/(kg m²) for an angular row): the change of its velocity per unit
/// impulse along it. Zero where no body's motion changes the row.
double inverseMassOf(const std::vector<impact::ContactBody>& bodies, const JointRow& row);

/// Throws carom::Error naming the row for a body index out of range, a row between a body and
/// itself, a non-finite Jacobian or target, a NaN bound, lower > upper, lower > 0 or upper < 0
/// (a row that must push however it moves), or a row that no body's motion can change.
void validateRows(const std::vector<impact::ContactBody>& bodies,
                  const std::vector<JointRow>& rows);

/// The exact solve of a set of equality rows on fixed bodies (their masses and inertias; the
/// velocities are passed to each call). The factorization is of A = J M⁻¹ Jᵀ, with pivots below
/// kRedundantPivot of the largest treated as zero: redundant rows (a closed loop, two joints that
/// fix the same freedom) then share their impulse instead of making the solve singular.
class JointSystem {
 public:
  /// Relative pivot below which a row is redundant (dimensionless): 1e-12, far above round-off of
  /// A's entries (1e-16 relative) and far below any row a joint of sane masses gives.
  static constexpr double kRedundantPivot = 1e-12;

  /// The rows must be equalities (JointRow::isEquality); `rows` is validated as validateRows does.
  JointSystem(const std::vector<impact::ContactBody>& bodies, std::vector<JointRow> rows);

  bool empty() const { return rows_.empty(); }
  const std::vector<JointRow>& rows() const { return rows_; }

  /// Changes the velocities (indexed like the bodies) by the row impulses λ that bring every row's
  /// velocity to `targets` (one per row) and returns λ. A redundant row's target is met as far as
  /// the others allow.
  Eigen::VectorXd hold(std::vector<Vec3>& linear, std::vector<Vec3>& angular,
                       const Eigen::VectorXd& targets) const;
  /// The same with every row held at its own `target`.
  Eigen::VectorXd hold(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const;

  /// The rows' velocities J·u.
  Eigen::VectorXd velocities(const std::vector<Vec3>& linear,
                             const std::vector<Vec3>& angular) const;

  /// Applies the impulse λ_i along each row i to the velocities (Δv = M⁻¹Jᵀλ).
  void apply(const Eigen::VectorXd& lambda, std::vector<Vec3>& linear,
             std::vector<Vec3>& angular) const;

 private:
  std::vector<impact::ContactBody> bodies_;  ///< masses and inertias only are read
  std::vector<JointRow> rows_;
  /// Rows that share no movable body do not couple: A is block diagonal, and each block (the rows
  /// of one jointed system: a ragdoll of a pile) is factorized and solved on its own, at the cost
  /// of its own size rather than of the island's.
  struct Block {
    std::vector<Eigen::Index> rows;  ///< indices into rows_, in order
    Eigen::LDLT<Eigen::MatrixXd> delassus;
  };
  std::vector<Block> blocks_;
  double pivotFloor_ = 0.0;  ///< kRedundantPivot × the largest pivot of any block
};

/// The inverse mass matrix K (1/kg) at a contact between bodies a and b (indices or kWorld) at
/// `point` when the bodies are held by `joints`: the change of the relative velocity of B's
/// material point minus A's per unit impulse on B (and its opposite on A), with the joint rows'
/// velocities kept as they were. Symmetric positive semi-definite; for bodies without joints it
/// is impact::inverseMassMatrix.
Mat3 heldInverseMassMatrix(const std::vector<impact::ContactBody>& bodies,
                           const JointSystem& joints, int a, int b, const Vec3& point);

/// Applies the impulse on B at `point` (−impulse on A) to the bodies' velocities with the joint
/// rows' velocities kept as they were: the jointed system's response to a contact impulse.
/// Returns the joint rows' impulses that kept them (N s or N m s, one per row).
Eigen::VectorXd applyHeldImpulse(std::vector<impact::ContactBody>& bodies,
                                 const JointSystem& joints, int a, int b, const Vec3& point,
                                 const Vec3& impulse);

/// One contact's impact `law` on bodies held by `joints`: the law applied on the contact's inverse
/// mass matrix with the joints held (heldInverseMassMatrix; contactWithResponse), its impulse
/// applied through the joints (applyHeldImpulse), which moves every body they join. `a` and `b`
/// index `bodies` (an immovable side is a body of zero inverse mass). A K singular along some
/// direction (a door on its hinge struck square has rank 1), its smallest eigenvalue below 1e-9
/// of its size, is regularised by 1e-9 of its size along every direction, so that a law asking
/// for the impulse that stops the slip along it finds one: a relative error of 1e-9 in the
/// impulse and its energy. nullopt, the bodies unchanged, where the joints hold both points still
/// (K below 1e-12 of the free bodies'): nothing to strike. The outcome's impulse (on B) and
/// energyChange are the law's; its velocities are those of the law's one-body contact, not the
/// bodies'. The joint rows' impulses of the strike go to `jointImpulses` where given (left as it
/// was on nullopt).
std::optional<impact::ImpactOutcome> applyHeldLaw(std::vector<impact::ContactBody>& bodies,
                                                  const JointSystem& joints, int a, int b,
                                                  const Vec3& point, const Vec3& normal,
                                                  const impact::ImpactLaw& law,
                                                  Eigen::VectorXd* jointImpulses = nullptr);

struct JointSolveSettings {
  /// Cap on the rounds of the block Gauss–Seidel (contacts by the contact solver, equality rows
  /// exactly, limit and motor rows by one projected sweep); reaching it is reported as
  /// kIterationLimit, the velocities then the last round's, with the equality rows held exactly.
  /// Default 10, Bullet's solver iterations.
  int maxRounds = 10;
  /// Converged when no body's velocity changed by more than this over a round, |Δv| + |Δω|
  /// (m/s + rad/s: the bodies' sizes are of order a metre or less, where a turn's speed at the
  /// surface is at most |Δω|). Default 1e-10.
  double tolerance = 1e-10;
  /// The contact solver's settings for each round (its sweeps per round).
  PersistentContactSettings contacts;
};

struct JointSolveReport {
  PersistentContactStatus status = PersistentContactStatus::kConverged;
  int rounds = 0;
  double energyChange = 0.0;  ///< kinetic energy after minus before (J)
  /// Max over contacts of −(u_n + c) (m/s) after the solve, as PersistentContactReport gives it.
  double penetrationRate = 0;
  /// The contact of penetrationRate where it is above 0, else −1.
  int penetratingContact = -1;
  std::string message;  ///< why status is not kConverged; empty when it is
  bool ok() const { return status == PersistentContactStatus::kConverged; }
};

/// Solves the joint rows (the equalities of `joints`, held at `equalityTargets`, one per row, and
/// the bounded rows `bounded`, whose impulses are written) and the contacts together, and updates
/// the bodies' velocities, the equality rows' impulses (`equalityImpulses`) and the contacts'
/// impulses (warm-started as in solvePersistentContacts). Throws carom::Error for invalid rows or
/// contacts, changing nothing.
JointSolveReport solveJointsAndContacts(std::vector<impact::ContactBody>& bodies,
                                        const JointSystem& joints,
                                        const Eigen::VectorXd& equalityTargets,
                                        Eigen::VectorXd& equalityImpulses,
                                        std::vector<JointRow>& bounded,
                                        std::vector<PersistentContact>& contacts,
                                        const JointSolveSettings& settings = {});

}  // namespace carom::core::contact
