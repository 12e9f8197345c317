// The joints of ImpactSolver (impact_solver.h): Bullet's own rows, gathered through getInfo1 and
// getInfo2 as btSequentialImpulseConstraintSolver::convertJoint gathers them, solved with the
// contacts (stage 4), their position errors removed on positions only (stage 5), and what they
// took written back as Bullet's writeBackJoints writes it (stage 6).
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <BulletDynamics/ConstraintSolver/btSolverConstraint.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>

#include "carom/error.h"
#include "impact_solver_island.h"
#include "joint_feedback.h"
#include "joint_names.h"

namespace carom {

std::string detail::jointTypeName(const btTypedConstraint& joint) {
  switch (joint.getConstraintType()) {
    case POINT2POINT_CONSTRAINT_TYPE:
      return "btPoint2PointConstraint";
    case HINGE_CONSTRAINT_TYPE:
      return "btHingeConstraint";
    case CONETWIST_CONSTRAINT_TYPE:
      return "btConeTwistConstraint";
    case D6_CONSTRAINT_TYPE:
      return "btGeneric6DofConstraint";
    case SLIDER_CONSTRAINT_TYPE:
      return "btSliderConstraint";
    case CONTACT_CONSTRAINT_TYPE:
      return "btContactConstraint";
    case D6_SPRING_CONSTRAINT_TYPE:
      return "btGeneric6DofSpringConstraint";
    case GEAR_CONSTRAINT_TYPE:
      return "btGearConstraint";
    case FIXED_CONSTRAINT_TYPE:
      return "btFixedConstraint";
    case D6_SPRING_2_CONSTRAINT_TYPE:  // btFixedConstraint and btHinge2Constraint are ones too
      return "btGeneric6DofSpring2Constraint";
    default:
      return "btTypedConstraint of type " + std::to_string(joint.getConstraintType());
  }
}

void requireSupportedJoint(const btTypedConstraint& joint, const std::string& where) {
  switch (joint.getConstraintType()) {
    case POINT2POINT_CONSTRAINT_TYPE:
    case HINGE_CONSTRAINT_TYPE:
    case CONETWIST_CONSTRAINT_TYPE:
    case SLIDER_CONSTRAINT_TYPE:
    case FIXED_CONSTRAINT_TYPE:
      return;
    case D6_SPRING_2_CONSTRAINT_TYPE: {
      // A spring is a force of the joint's stretch that Bullet writes as a motor row whose speed
      // and largest impulse come from the stretch at the step's start: an explicit force, which a
      // stiff spring turns into energy gained every step. carom applies no force it cannot keep
      // energy-safe, so springs are refused rather than integrated that way.
      auto& d6 = const_cast<btGeneric6DofSpring2Constraint&>(
          static_cast<const btGeneric6DofSpring2Constraint&>(joint));
      for (int axis = 0; axis < 6; ++axis) {
        const bool spring = axis < 3 ? d6.getTranslationalLimitMotor()->m_enableSpring[axis]
                                     : d6.getRotationalLimitMotor(axis - 3)->m_enableSpring;
        if (spring) {
          throw Error(where + ": btGeneric6DofSpring2Constraint with a spring on axis " +
                      std::to_string(axis) +
                      " is not supported in lcp mode: Bullet applies a spring as an explicit "
                      "force of its stretch at the step's start, which gains energy; use limits "
                      "or a motor");
        }
      }
      return;
    }
    default:
      throw Error(where + ": " + detail::jointTypeName(joint) +
                  " is not supported in lcp mode (supported: btPoint2PointConstraint, "
                  "btHingeConstraint, btSliderConstraint, btFixedConstraint, "
                  "btConeTwistConstraint, btGeneric6DofSpring2Constraint without springs)");
  }
}

namespace detail {
namespace {

using core::contact::JointRow;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A row's kind: an equality, a stop (it only pushes, one way) or a motor (two finite bounds).
enum class RowKind { kEquality, kLimit, kBounded };
RowKind kindOf(const JointRow& row) {
  if (row.isEquality()) return RowKind::kEquality;
  const bool limit =
      (row.lower == 0 && row.upper == kInfinity) || (row.lower == -kInfinity && row.upper == 0);
  return limit ? RowKind::kLimit : RowKind::kBounded;
}

// Bullet's row between island bodies a and b as a core row, its target and impulse left 0.
JointRow rowOf(const btSolverConstraint& row, int a = core::contact::kWorld,
               int b = core::contact::kWorld) {
  JointRow converted;
  converted.bodyA = a;
  converted.bodyB = b;
  converted.linearA = toEigen(row.m_contactNormal1);
  converted.angularA = toEigen(row.m_relpos1CrossNormal);
  converted.linearB = toEigen(row.m_contactNormal2);
  converted.angularB = toEigen(row.m_relpos2CrossNormal);
  converted.lower = row.m_lowerLimit <= -SIMD_INFINITY ? -kInfinity : row.m_lowerLimit;
  converted.upper = row.m_upperLimit >= SIMD_INFINITY ? kInfinity : row.m_upperLimit;
  return converted;
}

// Bullet's rows of one joint at the rate `fps` (1/s), with erp = 1: every bias Bullet writes as
// fps · erp · error then removes the whole error over 1/fps, where the joint does not set its own.
btAlignedObjectArray<btSolverConstraint> rowsAt(btTypedConstraint& joint, int count, double fps,
                                                const btContactSolverInfo& info) {
  btAlignedObjectArray<btSolverConstraint> rows;
  rows.resize(count);
  for (int j = 0; j < count; ++j) {
    std::memset(static_cast<void*>(&rows[j]), 0, sizeof(btSolverConstraint));  // as Bullet does
    rows[j].m_lowerLimit = -SIMD_INFINITY;
    rows[j].m_upperLimit = SIMD_INFINITY;
    rows[j].m_cfm = info.m_globalCfm;
  }
  btTypedConstraint::btConstraintInfo2 info2;
  info2.fps = fps;
  info2.erp = 1;
  info2.m_J1linearAxis = rows[0].m_contactNormal1;
  info2.m_J1angularAxis = rows[0].m_relpos1CrossNormal;
  info2.m_J2linearAxis = rows[0].m_contactNormal2;
  info2.m_J2angularAxis = rows[0].m_relpos2CrossNormal;
  info2.rowskip = sizeof(btSolverConstraint) / sizeof(btScalar);
  info2.m_constraintError = &rows[0].m_rhs;
  info2.cfm = &rows[0].m_cfm;
  info2.m_lowerLimit = &rows[0].m_lowerLimit;
  info2.m_upperLimit = &rows[0].m_upperLimit;
  info2.m_damping = info.m_damping;
  info2.m_numIterations = info.m_numIterations;
  // A hinge's frame-offset rows (Bullet's default) on a static body drop the body's turn from a
  // pivot row while its stop is engaged, "to make the constraint more rigid" for Bullet's
  // Gauss–Seidel; held exactly, that row holds the body's centre instead of its pivot, and a rod on
  // its elastic stop would spin about its centre and not come back up to where it started. The
  // hinge's classic rows are its own Jacobian. (A slider's classic rows are wrong for a body off
  // its axis, Bullet says; its offset rows drop the same term only while a stop on its turn is
  // engaged, harmless where the turn is locked, its default.)
  if (joint.getConstraintType() == HINGE_CONSTRAINT_TYPE) {
    auto& hinge = static_cast<btHingeConstraint&>(joint);
    const bool offset = hinge.getUseFrameOffset();
    hinge.setUseFrameOffset(false);
    joint.getInfo2(&info2);
    hinge.setUseFrameOffset(offset);
  } else {
    joint.getInfo2(&info2);
  }
  if (info2.m_damping != 1) {
    throw Error("ImpactSolver: a " + jointTypeName(joint) + " with damping " +
                std::to_string(info2.m_damping) +
                " (a soft row) is not supported in lcp mode; its damping must be 1");
  }
  for (int j = 0; j < count; ++j) {
    if (rows[j].m_cfm != 0) {
      throw Error("ImpactSolver: a " + jointTypeName(joint) + " row with constraint force mixing " +
                  std::to_string(rows[j].m_cfm) +
                  " (a soft row) is not supported in lcp mode; its cfm must be 0");
    }
  }
  return rows;
}

// island.held from the equality rows of the joints not broken.
void buildHeld(Island& island) {
  std::vector<JointRow> rows;
  island.heldRows.clear();
  island.jointed.assign(island.bodies.size(), false);
  for (std::size_t i = 0; i < island.jointRows.size(); ++i) {
    const IslandJointRow& row = island.jointRows[i];
    if (island.broken.count(row.joint) != 0 || !row.row.isEquality()) continue;
    rows.push_back(row.row);
    island.heldRows.push_back(i);
    for (const int body : {row.row.bodyA, row.row.bodyB}) {
      if (island.bodies[body].dynamic) island.jointed[body] = true;
    }
  }
  island.held = std::make_unique<core::contact::JointSystem>(statesOf(island), std::move(rows));
}

// The bounded rows (limits and motors) of the joints not broken; `positions` keeps the limits only,
// held at their drift.
std::vector<JointRow> boundedRows(const Island& island, std::vector<std::size_t>& indices,
                                  bool positions) {
  std::vector<JointRow> rows;
  for (std::size_t i = 0; i < island.jointRows.size(); ++i) {
    const IslandJointRow& row = island.jointRows[i];
    if (island.broken.count(row.joint) != 0 || row.row.isEquality()) continue;
    if (positions && kindOf(row.row) != RowKind::kLimit) continue;
    rows.push_back(row.row);
    if (positions) rows.back().target = row.drift;
    indices.push_back(i);
  }
  return rows;
}

}  // namespace

void gatherJoints(Island& island, btTypedConstraint** constraints, int numConstraints,
                  const btContactSolverInfo& info) {
  const double h = info.m_timeStep;
  for (int c = 0; c < numConstraints; ++c) {
    btTypedConstraint& joint = *constraints[c];
    island.joints.push_back(&joint);
    if (!joint.isEnabled()) continue;
    joint.buildJacobian();
    btTypedConstraint::btConstraintInfo1 info1;
    joint.getInfo1(&info1);
    if (info1.m_numConstraintRows == 0) continue;
    // Bullet's bias is fps · erp · error: asked at 1/h and 2/h, the difference is the bias at 1/h
    // (the drift), and twice the first minus the second an equality row's target without it. A
    // limit row's target is the larger of the bias and the stop's bounce speed, so it is asked
    // with the bias all but gone (at 1e-6/h): the bounce (erp = 1 everywhere keeps the joints'
    // tests of an incoming speed as they are). A motor's row is Bullet's at 1/h.
    const auto once = rowsAt(joint, info1.m_numConstraintRows, 1 / h, info);
    const auto twice = rowsAt(joint, info1.m_numConstraintRows, 2 / h, info);
    const auto still = rowsAt(joint, info1.m_numConstraintRows, 1e-6 / h, info);
    const int a = bodyIndex(island, &joint.getRigidBodyA());
    const int b = bodyIndex(island, &joint.getRigidBodyB());
    if (!island.bodies[a].dynamic && !island.bodies[b].dynamic) continue;
    const std::vector<core::impact::ContactBody> states = statesOf(island);
    for (int j = 0; j < info1.m_numConstraintRows; ++j) {
      const btSolverConstraint& row = once[j];
      IslandJointRow gathered;
      gathered.joint = &joint;
      gathered.row = rowOf(row, a, b);
      const RowKind kind = kindOf(gathered.row);
      gathered.row.target = kind == RowKind::kEquality ? 2 * row.m_rhs - twice[j].m_rhs
                            : kind == RowKind::kLimit  ? still[j].m_rhs
                                                       : row.m_rhs;
      gathered.drift = twice[j].m_rhs - row.m_rhs;
      gathered.rowInJoint = j;
      // A row no body's motion changes (a locked axis of a body whose rotation is locked) holds
      // nothing.
      if (!(core::contact::inverseMassOf(states, gathered.row) > 0)) continue;
      island.jointRows.push_back(gathered);
    }
  }
  if (!island.jointRows.empty()) buildHeld(island);
}

namespace {

// The drift (IslandJointRow::drift) of every row of island.held at the poses Bullet integrates from
// the velocities `states` over the step. A row whose joint's rows there differ from the step's
// before it (a stop that engages in the middle of a 6-dof joint's rows) keeps the drift it had at
// the step's start: for that step it is held at velocity level only, its error removed on
// positions in the next.
Eigen::VectorXd predictedDrift(Island& island, const std::vector<core::impact::ContactBody>& states,
                               const btContactSolverInfo& info) {
  const double h = island.timeStep;
  std::vector<btTransform> saved(island.bodies.size());
  for (std::size_t i = 0; i < island.bodies.size(); ++i) {
    btRigidBody* body = island.bodies[i].dynamic;
    if (body == nullptr) continue;
    saved[i] = body->getWorldTransform();
    btTransform predicted;
    btTransformUtil::integrateTransform(saved[i], toBt(states[i].linearVelocity),
                                        toBt(states[i].angularVelocity), h, predicted);
    body->setWorldTransform(predicted);
  }
  Eigen::VectorXd drift = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(island.heldRows.size()));
  const btTypedConstraint* asked = nullptr;
  btAlignedObjectArray<btSolverConstraint> once, twice;
  int matched = 0;  // rows of the asked joint whose kinds match the step's
  for (std::size_t i = 0; i < island.heldRows.size(); ++i) {
    const IslandJointRow& row = island.jointRows[island.heldRows[i]];
    if (row.joint != asked) {
      asked = row.joint;
      btTypedConstraint::btConstraintInfo1 info1;
      row.joint->getInfo1(&info1);
      once = rowsAt(*row.joint, info1.m_numConstraintRows, 1 / h, info);
      twice = rowsAt(*row.joint, info1.m_numConstraintRows, 2 / h, info);
      // The rows there are the step's as far as their kinds agree (a stop that engages adds a
      // row, at the end of a hinge's, in the middle of a 6-dof joint's).
      matched = 0;
      for (const IslandJointRow& step : island.jointRows) {
        if (step.joint != row.joint) continue;
        if (step.rowInJoint >= once.size() ||
            kindOf(rowOf(once[step.rowInJoint])) != kindOf(step.row))
          break;
        matched = step.rowInJoint + 1;
      }
    }
    if (row.rowInJoint >= matched) {
      drift(static_cast<Eigen::Index>(i)) = row.drift;
      continue;
    }
    drift(static_cast<Eigen::Index>(i)) = twice[row.rowInJoint].m_rhs - once[row.rowInJoint].m_rhs;
  }
  for (std::size_t i = 0; i < island.bodies.size(); ++i) {
    if (island.bodies[i].dynamic) island.bodies[i].dynamic->setWorldTransform(saved[i]);
  }
  // getInfo1 again where the step's poses are, so that the joints' own state (a hinge's angle, a
  // limit's activity) is what Bullet's solver would leave.
  asked = nullptr;
  for (const std::size_t index : island.heldRows) {
    if (island.jointRows[index].joint == asked) continue;
    asked = island.jointRows[index].joint;
    btTypedConstraint::btConstraintInfo1 info1;
    island.jointRows[index].joint->getInfo1(&info1);
  }
  return drift;
}

// SHAKE on the equality rows (solveJoints): returns the corrections' impulses, one per row of
// island.held, and says in `message` when the cap was reached.
Eigen::VectorXd holdOnPositions(Island& island, std::vector<core::impact::ContactBody>& states,
                                const btContactSolverInfo& info, std::string& message) {
  const double h = island.timeStep;
  Eigen::VectorXd impulses =
      Eigen::VectorXd::Zero(static_cast<Eigen::Index>(island.heldRows.size()));
  std::vector<core::Vec3> v, w;
  for (const core::impact::ContactBody& state : states) {
    v.push_back(state.linearVelocity);
    w.push_back(state.angularVelocity);
  }
  // The corrections so far with the smallest error: where a correction makes the error larger
  // (a turn of a large fraction of a revolution in the step, where the rows' Jacobian at the start
  // no longer describes the motion and a correction can send a body round a whole turn), the step
  // keeps the best and says so, and the drift correction takes the rest.
  struct Best {
    double error;
    std::vector<core::Vec3> v, w;
    Eigen::VectorXd impulses;
  } best{std::numeric_limits<double>::infinity(), v, w, impulses};
  for (int correction = 0;; ++correction) {
    for (std::size_t i = 0; i < states.size(); ++i) {
      states[i].linearVelocity = v[i];
      states[i].angularVelocity = w[i];
    }
    // The step must not change the rows' position errors (the drift correction removes the
    // errors at its start on positions only): their change at the predicted poses.
    Eigen::VectorXd drift = predictedDrift(island, states, info);
    for (std::size_t i = 0; i < island.heldRows.size(); ++i)
      drift(static_cast<Eigen::Index>(i)) -= island.jointRows[island.heldRows[i]].drift;
    const double error = drift.size() == 0 ? 0.0 : drift.cwiseAbs().maxCoeff() * h;
    if (error <= kPositionTolerance) break;
    const bool growing = !(error < best.error);
    if (growing || correction == kMaxPositionCorrections) {
      message = "joints: position error " + std::to_string(std::min(error, best.error)) +
                " m (or rad) left " +
                (growing ? "where a correction made it grow"
                         : "after " + std::to_string(kMaxPositionCorrections) + " corrections");
      if (growing) {
        for (std::size_t i = 0; i < states.size(); ++i) {
          states[i].linearVelocity = best.v[i];
          states[i].angularVelocity = best.w[i];
        }
        impulses = best.impulses;
      }
      break;
    }
    best = {error, v, w, impulses};
    impulses += island.held->hold(v, w, island.held->velocities(v, w) + drift);
  }
  return impulses;
}

}  // namespace

core::contact::JointSolveReport solveJoints(Island& island, const btContactSolverInfo& info) {
  const std::vector<core::contact::PersistentContact> touching = solverContacts(island);
  core::contact::JointSolveSettings settings;
  settings.maxRounds = info.m_numIterations;
  settings.contacts.maxIterations = info.m_numIterations;
  // Each pass either ends or breaks a joint: at most one pass per joint more than the first.
  for (;;) {
    std::vector<core::impact::ContactBody> states = statesOf(island);
    Eigen::VectorXd targets(static_cast<Eigen::Index>(island.heldRows.size()));
    // The equality rows held at velocity level at first, then at the poses the step reaches
    // (holdOnPositions).
    for (std::size_t i = 0; i < island.heldRows.size(); ++i)
      targets(static_cast<Eigen::Index>(i)) = island.jointRows[island.heldRows[i]].row.target;
    Eigen::VectorXd held;
    std::vector<std::size_t> boundedIndices;
    std::vector<JointRow> bounded = boundedRows(island, boundedIndices, false);
    std::vector<core::contact::PersistentContact> contacts = touching;
    core::contact::JointSolveReport report = core::contact::solveJointsAndContacts(
        states, *island.held, targets, held, bounded, contacts, settings);
    std::string positions;
    held += holdOnPositions(island, states, info, positions);
    if (!positions.empty()) {
      report.message += (report.message.empty() ? "" : "; ") + positions;
      report.status = core::contact::PersistentContactStatus::kIterationLimit;
    }
    for (std::size_t i = 0; i < island.heldRows.size(); ++i)
      island.jointRows[island.heldRows[i]].row.impulse = held(static_cast<Eigen::Index>(i));
    for (std::size_t i = 0; i < bounded.size(); ++i)
      island.jointRows[boundedIndices[i]].row.impulse = bounded[i].impulse;
    bool broke = false;
    for (const IslandJointRow& row : island.jointRows) {
      if (island.broken.count(row.joint) == 0 &&
          std::abs(row.row.impulse) >= row.joint->getBreakingImpulseThreshold()) {
        island.broken.insert(row.joint);
        broke = true;
      }
    }
    if (broke) {
      for (IslandJointRow& row : island.jointRows) {
        if (island.broken.count(row.joint) != 0) row.row.impulse = 0;
      }
      buildHeld(island);
      continue;
    }
    for (std::size_t i = 0; i < island.bodies.size(); ++i)
      island.bodies[i].state = states[i];
    for (std::size_t i = 0; i < contacts.size(); ++i)
      island.contacts[i].impulse = contacts[i].impulse;
    return report;
  }
}

core::contact::JointSolveReport holdJointPositions(
    const Island& island, std::vector<core::contact::PseudoVelocity>& pseudo) {
  std::vector<core::impact::ContactBody> states = statesOf(island);
  for (std::size_t i = 0; i < states.size(); ++i) {
    states[i].linearVelocity = pseudo[i].linear;
    states[i].angularVelocity = pseudo[i].angular;
  }
  Eigen::VectorXd targets(static_cast<Eigen::Index>(island.heldRows.size()));
  for (std::size_t i = 0; i < island.heldRows.size(); ++i)
    targets(static_cast<Eigen::Index>(i)) = island.jointRows[island.heldRows[i]].drift;
  std::vector<std::size_t> indices;
  std::vector<JointRow> limits = boundedRows(island, indices, true);
  std::vector<core::contact::PersistentContact> none;
  Eigen::VectorXd impulses;
  const core::contact::JointSolveReport report =
      core::contact::solveJointsAndContacts(states, *island.held, targets, impulses, limits, none);
  for (std::size_t i = 0; i < states.size(); ++i)
    pseudo[i] = {states[i].linearVelocity, states[i].angularVelocity};
  return report;
}

void writeJoints(const Island& island, std::vector<JointWrite>& joints) {
  const double h = island.timeStep;
  std::map<const btTypedConstraint*, std::size_t> slot;
  for (btTypedConstraint* joint : island.joints) {
    slot[joint] = joints.size();
    JointWrite write;
    write.joint = joint;
    write.breaks = island.broken.count(joint) != 0;
    clearJointFeedback(write.feedback);
    joints.push_back(write);
  }
  for (const IslandJointRow& row : island.jointRows) {
    JointWrite& write = joints[slot.at(row.joint)];
    const double lambda = row.row.impulse;
    addJointFeedback(write.feedback, *row.joint, lambda * row.row.linearA,
                     lambda * row.row.angularA, lambda * row.row.linearB, lambda * row.row.angularB,
                     h);
    write.appliedImpulse = lambda;
  }
}

}  // namespace detail
}  // namespace carom
