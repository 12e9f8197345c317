#include "carom/core/contact/joint_rows.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "carom/error.h"
#include "disjoint_sets.h"

namespace carom::core::contact {
namespace {

using impact::ContactBody;

const ContactBody kImmovable{};

const ContactBody& bodyAt(const std::vector<ContactBody>& bodies, int index) {
  return index == kWorld ? kImmovable : bodies[static_cast<std::size_t>(index)];
}

double rowVelocity(const JointRow& row, const std::vector<Vec3>& v, const std::vector<Vec3>& w) {
  double u = 0.0;
  if (row.bodyA != kWorld) u += row.linearA.dot(v[row.bodyA]) + row.angularA.dot(w[row.bodyA]);
  if (row.bodyB != kWorld) u += row.linearB.dot(v[row.bodyB]) + row.angularB.dot(w[row.bodyB]);
  return u;
}

void applyRow(const std::vector<ContactBody>& bodies, const JointRow& row, double lambda,
              std::vector<Vec3>& v, std::vector<Vec3>& w) {
  if (row.bodyA != kWorld) {
    const ContactBody& a = bodies[row.bodyA];
    v[row.bodyA] += a.inverseMass * lambda * row.linearA;
    w[row.bodyA] += a.inverseInertiaWorld * (lambda * row.angularA);
  }
  if (row.bodyB != kWorld) {
    const ContactBody& b = bodies[row.bodyB];
    v[row.bodyB] += b.inverseMass * lambda * row.linearB;
    w[row.bodyB] += b.inverseInertiaWorld * (lambda * row.angularB);
  }
}

// J_i M⁻¹ J_jᵀ over the bodies the two rows share.
double coupling(const std::vector<ContactBody>& bodies, const JointRow& i, const JointRow& j) {
  double sum = 0.0;
  const auto part = [&](int body, const Vec3& li, const Vec3& ai, const Vec3& lj, const Vec3& aj) {
    const ContactBody& b = bodyAt(bodies, body);
    sum += b.inverseMass * li.dot(lj) + ai.dot(b.inverseInertiaWorld * aj);
  };
  if (i.bodyA != kWorld && i.bodyA == j.bodyA)
    part(i.bodyA, i.linearA, i.angularA, j.linearA, j.angularA);
  if (i.bodyA != kWorld && i.bodyA == j.bodyB)
    part(i.bodyA, i.linearA, i.angularA, j.linearB, j.angularB);
  if (i.bodyB != kWorld && i.bodyB == j.bodyA)
    part(i.bodyB, i.linearB, i.angularB, j.linearA, j.angularA);
  if (i.bodyB != kWorld && i.bodyB == j.bodyB)
    part(i.bodyB, i.linearB, i.angularB, j.linearB, j.angularB);
  return sum;
}

// Applies `impulse` on B at `point` and its opposite on A to the velocities.
void applyPointImpulse(const std::vector<ContactBody>& bodies, int a, int b, const Vec3& point,
                       const Vec3& impulse, std::vector<Vec3>& v, std::vector<Vec3>& w) {
  for (const auto& [index, sign] : {std::pair<int, double>{a, -1.0}, {b, 1.0}}) {
    if (index == kWorld) continue;
    const ContactBody& body = bodies[index];
    v[index] += sign * body.inverseMass * impulse;
    w[index] += sign * (body.inverseInertiaWorld * (point - body.centerOfMass).cross(impulse));
  }
}

Vec3 pointVelocity(const std::vector<ContactBody>& bodies, int index, const Vec3& point,
                   const std::vector<Vec3>& v, const std::vector<Vec3>& w) {
  if (index == kWorld) return Vec3::Zero();
  return v[index] + w[index].cross(point - bodies[index].centerOfMass);
}

}  // namespace

bool JointRow::isEquality() const {
  return lower == -std::numeric_limits<double>::infinity() &&
         upper == std::numeric_limits<double>::infinity();
}

double inverseMassOf(const std::vector<ContactBody>& bodies, const JointRow& row) {
  return coupling(bodies, row, row);
}

void validateRows(const std::vector<ContactBody>& bodies, const std::vector<JointRow>& rows) {
  const int count = static_cast<int>(bodies.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const JointRow& row = rows[i];
    const auto name = [i] { return "joint row " + std::to_string(i); };
    for (const int index : {row.bodyA, row.bodyB}) {
      if (index != kWorld && (index < 0 || index >= count))
        throw Error(name() + ": body index " + std::to_string(index) + " is out of range");
    }
    if (row.bodyA == row.bodyB) throw Error(name() + ": a row must join two different bodies");
    if (!row.linearA.allFinite() || !row.angularA.allFinite() || !row.linearB.allFinite() ||
        !row.angularB.allFinite())
      throw Error(name() + ": its Jacobian is not finite");
    if (!std::isfinite(row.target)) throw Error(name() + ": its target velocity is not finite");
    if (std::isnan(row.lower) || std::isnan(row.upper) || row.lower > 0 || row.upper < 0)
      throw Error(name() + ": its impulse bounds must satisfy lower <= 0 <= upper");
    if (!(coupling(bodies, row, row) > 0))
      throw Error(name() + ": no body's motion changes its velocity (J M^-1 J^T = 0)");
  }
}

JointSystem::JointSystem(const std::vector<ContactBody>& bodies, std::vector<JointRow> rows)
    : bodies_(bodies), rows_(std::move(rows)) {
  validateRows(bodies_, rows_);
  const Eigen::Index n = static_cast<Eigen::Index>(rows_.size());
  for (const JointRow& row : rows_) {
    if (!row.isEquality()) throw Error("JointSystem: every row must be an equality row");
  }
  if (n == 0) return;
  // The blocks: rows joined by the movable bodies they share (a fixed body couples nothing). Every
  // row moves a body (validateRows), so its block is that of its first movable side.
  const auto movable = [&](int body) {
    if (body == kWorld) return false;
    const ContactBody& b = bodies_[static_cast<std::size_t>(body)];
    return b.inverseMass > 0 || !b.inverseInertiaWorld.isZero(0);
  };
  DisjointSets joined(bodies_.size());
  for (const JointRow& row : rows_)
    if (movable(row.bodyA) && movable(row.bodyB)) joined.join(row.bodyA, row.bodyB);
  std::vector<int> blockOf(bodies_.size(), -1);
  for (Eigen::Index i = 0; i < n; ++i) {
    const JointRow& row = rows_[static_cast<std::size_t>(i)];
    int& block =
        blockOf[static_cast<std::size_t>(joined.root(movable(row.bodyA) ? row.bodyA : row.bodyB))];
    if (block < 0) {
      block = static_cast<int>(blocks_.size());
      blocks_.emplace_back();
    }
    blocks_[static_cast<std::size_t>(block)].rows.push_back(i);
  }
  double largest = 0.0;
  for (Block& block : blocks_) {
    const Eigen::Index size = static_cast<Eigen::Index>(block.rows.size());
    Eigen::MatrixXd delassus(size, size);
    for (Eigen::Index i = 0; i < size; ++i) {
      for (Eigen::Index j = 0; j <= i; ++j)
        delassus(i, j) = delassus(j, i) =
            coupling(bodies_, rows_[block.rows[i]], rows_[block.rows[j]]);
    }
    block.delassus.compute(delassus);
    largest = std::max(largest, block.delassus.vectorD().cwiseAbs().maxCoeff());
  }
  pivotFloor_ = kRedundantPivot * largest;
}

Eigen::VectorXd JointSystem::velocities(const std::vector<Vec3>& linear,
                                        const std::vector<Vec3>& angular) const {
  Eigen::VectorXd u(static_cast<Eigen::Index>(rows_.size()));
  for (std::size_t i = 0; i < rows_.size(); ++i)
    u(static_cast<Eigen::Index>(i)) = rowVelocity(rows_[i], linear, angular);
  return u;
}

void JointSystem::apply(const Eigen::VectorXd& lambda, std::vector<Vec3>& linear,
                        std::vector<Vec3>& angular) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    applyRow(bodies_, rows_[i], lambda(static_cast<Eigen::Index>(i)), linear, angular);
}

Eigen::VectorXd JointSystem::hold(std::vector<Vec3>& linear, std::vector<Vec3>& angular,
                                  const Eigen::VectorXd& targets) const {
  if (rows_.empty()) return Eigen::VectorXd();
  // λ = A⁺ (target − J u), A = P L D Lᵀ Pᵀ per block with the pivots of redundant rows taken as
  // zero (Eigen's own solve divides by any pivot above the smallest normal number).
  const Eigen::VectorXd residual = targets - velocities(linear, angular);
  Eigen::VectorXd lambda(residual.size());
  for (const Block& block : blocks_) {
    const Eigen::LDLT<Eigen::MatrixXd>& ldlt = block.delassus;
    Eigen::VectorXd y = ldlt.transpositionsP() * residual(block.rows);
    ldlt.matrixL().solveInPlace(y);
    const Eigen::VectorXd& pivots = ldlt.vectorD();
    for (Eigen::Index i = 0; i < y.size(); ++i)
      y(i) = std::abs(pivots(i)) > pivotFloor_ ? y(i) / pivots(i) : 0.0;
    ldlt.matrixU().solveInPlace(y);
    lambda(block.rows) = ldlt.transpositionsP().transpose() * y;
  }
  apply(lambda, linear, angular);
  return lambda;
}

Eigen::VectorXd JointSystem::hold(std::vector<Vec3>& linear, std::vector<Vec3>& angular) const {
  Eigen::VectorXd targets(static_cast<Eigen::Index>(rows_.size()));
  for (std::size_t i = 0; i < rows_.size(); ++i)
    targets(static_cast<Eigen::Index>(i)) = rows_[i].target;
  return hold(linear, angular, targets);
}

Mat3 heldInverseMassMatrix(const std::vector<ContactBody>& bodies, const JointSystem& joints, int a,
                           int b, const Vec3& point) {
  Mat3 k;
  for (int column = 0; column < 3; ++column) {
    std::vector<Vec3> dv(bodies.size(), Vec3::Zero()), dw(bodies.size(), Vec3::Zero());
    applyPointImpulse(bodies, a, b, point, Vec3::Unit(column), dv, dw);
    joints.hold(dv, dw, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(joints.rows().size())));
    k.col(column) =
        pointVelocity(bodies, b, point, dv, dw) - pointVelocity(bodies, a, point, dv, dw);
  }
  return 0.5 * (k + k.transpose());  // symmetric but for round-off
}

Eigen::VectorXd applyHeldImpulse(std::vector<ContactBody>& bodies, const JointSystem& joints, int a,
                                 int b, const Vec3& point, const Vec3& impulse) {
  std::vector<Vec3> dv(bodies.size(), Vec3::Zero()), dw(bodies.size(), Vec3::Zero());
  applyPointImpulse(bodies, a, b, point, impulse, dv, dw);
  const Eigen::VectorXd held =
      joints.hold(dv, dw, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(joints.rows().size())));
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].linearVelocity += dv[i];
    bodies[i].angularVelocity += dw[i];
  }
  return held;
}

std::optional<impact::ImpactOutcome> applyHeldLaw(std::vector<ContactBody>& bodies,
                                                  const JointSystem& joints, int a, int b,
                                                  const Vec3& point, const Vec3& normal,
                                                  const impact::ImpactLaw& law,
                                                  Eigen::VectorXd* jointImpulses) {
  const Mat3 k = heldInverseMassMatrix(bodies, joints, a, b, point);
  const impact::Contact free{bodies[a], bodies[b], point, normal};
  if (!(k.norm() > 1e-12 * impact::inverseMassMatrix(free).norm())) return std::nullopt;
  // Regularised only where K is singular to 1e-9 of its size: a K better conditioned than that
  // is solved as it is.
  const double floor = 1e-9 * k.norm();
  const bool singular = Eigen::SelfAdjointEigenSolver<Mat3>(k).eigenvalues().minCoeff() < floor;
  const Mat3 regular = singular ? Mat3(k + floor * Mat3::Identity()) : k;
  const impact::ImpactOutcome outcome = impact::applyLaw(
      impact::contactWithResponse(regular, impact::relativeVelocity(free), normal), law);
  const Eigen::VectorXd held = applyHeldImpulse(bodies, joints, a, b, point, outcome.impulse);
  if (jointImpulses != nullptr) *jointImpulses = held;
  return outcome;
}

JointSolveReport solveJointsAndContacts(std::vector<ContactBody>& bodies, const JointSystem& joints,
                                        const Eigen::VectorXd& equalityTargets,
                                        Eigen::VectorXd& equalityImpulses,
                                        std::vector<JointRow>& bounded,
                                        std::vector<PersistentContact>& contacts,
                                        const JointSolveSettings& settings) {
  if (settings.maxRounds < 1) throw Error("JointSolveSettings.maxRounds must be at least 1");
  if (!(settings.tolerance > 0) || !std::isfinite(settings.tolerance))
    throw Error("JointSolveSettings.tolerance must be finite and positive");
  if (equalityTargets.size() != static_cast<Eigen::Index>(joints.rows().size()) ||
      !equalityTargets.allFinite())
    throw Error("solveJointsAndContacts: one finite target per equality row is needed");
  validateRows(bodies, bounded);
  const auto energyOf = [](const std::vector<ContactBody>& list) {
    double energy = 0.0;
    for (const ContactBody& body : list)
      energy += impact::kineticEnergy({body, kImmovable});
    return energy;
  };
  const double energyBefore = energyOf(bodies);
  std::vector<ContactBody> work = bodies;
  std::vector<Vec3> v, w;
  for (const ContactBody& body : work) {
    v.push_back(body.linearVelocity);
    w.push_back(body.angularVelocity);
  }
  // Each bounded row moves the bodies through the equality rows held (its impulse along the row
  // and the equality impulses that keep their velocities): the velocity change and equality
  // impulses per unit impulse, and the row's own inverse mass so held (J W Jᵀ, W the held
  // mobility). A stop on a hinged rod then turns it about the hinge in one update; swept against
  // the free body's inverse mass it overshot fourfold and the rounds converged by a quarter each.
  struct Response {
    std::vector<Vec3> linear, angular;
    Eigen::VectorXd equality;
    double inverseMass;
  };
  std::vector<Response> responses;
  for (JointRow& row : bounded) {
    row.impulse = 0.0;
    Response response{std::vector<Vec3>(work.size(), Vec3::Zero()),
                      std::vector<Vec3>(work.size(), Vec3::Zero()), Eigen::VectorXd(), 0.0};
    applyRow(work, row, 1.0, response.linear, response.angular);
    response.equality = joints.hold(response.linear, response.angular,
                                    Eigen::VectorXd::Zero(equalityTargets.size()));
    response.inverseMass = rowVelocity(row, response.linear, response.angular);
    if (!(response.inverseMass > 0)) {
      throw Error(
          "solveJointsAndContacts: a bounded row cannot move with the equality rows held "
          "(it repeats them)");
    }
    responses.push_back(std::move(response));
  }
  equalityImpulses = Eigen::VectorXd::Zero(equalityTargets.size());
  JointSolveReport report;
  report.status = PersistentContactStatus::kIterationLimit;
  bool contactsApplied = false;                 // whether v, w hold the contacts' impulses
  PersistentContactWorkspace contactWorkspace;  // every round's contact solve's
  for (int round = 1; round <= settings.maxRounds; ++round) {
    report.rounds = round;
    const std::vector<Vec3> vStart = v, wStart = w;
    if (!contacts.empty()) {  // the contacts' problem with the rows' impulses frozen
      if (contactsApplied) {
        for (const PersistentContact& c : contacts)
          applyPointImpulse(work, c.bodyA, c.bodyB, c.point, -c.impulse, v, w);
      }
      for (std::size_t i = 0; i < work.size(); ++i) {
        work[i].linearVelocity = v[i];
        work[i].angularVelocity = w[i];
      }
      // Reapplies the impulses.
      solvePersistentContacts(work, contacts, settings.contacts, contactWorkspace);
      contactsApplied = true;
      for (std::size_t i = 0; i < work.size(); ++i) {
        v[i] = work[i].linearVelocity;
        w[i] = work[i].angularVelocity;
      }
    }
    equalityImpulses += joints.hold(v, w, equalityTargets);  // exactly
    for (std::size_t i = 0; i < bounded.size(); ++i) {       // one projected Gauss–Seidel sweep
      JointRow& row = bounded[i];
      const Response& response = responses[i];
      const double next =
          std::clamp(row.impulse + (row.target - rowVelocity(row, v, w)) / response.inverseMass,
                     row.lower, row.upper);
      const double change = next - row.impulse;
      for (std::size_t b = 0; b < v.size(); ++b) {
        v[b] += change * response.linear[b];
        w[b] += change * response.angular[b];
      }
      if (response.equality.size() > 0) equalityImpulses += change * response.equality;
      row.impulse = next;
    }
    if (contacts.empty() && bounded.size() <= 1) {  // exact after one update of each
      report.status = PersistentContactStatus::kConverged;
      break;
    }
    double change = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i)
      change = std::max(change, (v[i] - vStart[i]).norm() + (w[i] - wStart[i]).norm());
    if (round > 1 && change <= settings.tolerance) {
      report.status = PersistentContactStatus::kConverged;
      break;
    }
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].linearVelocity = v[i];
    bodies[i].angularVelocity = w[i];
  }
  report.energyChange = energyOf(bodies) - energyBefore;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const PersistentContact& c = contacts[i];
    const impact::Contact pair{bodyAt(bodies, c.bodyA), bodyAt(bodies, c.bodyB), c.point, c.normal};
    const double rate = -(c.normal.dot(impact::relativeVelocity(pair)) + c.approach);
    if (rate > report.penetrationRate) {
      report.penetrationRate = rate;
      report.penetratingContact = static_cast<int>(i);
    }
  }
  if (report.status == PersistentContactStatus::kIterationLimit) {
    report.message =
        "joints and contacts: no convergence in " + std::to_string(settings.maxRounds) + " rounds";
  }
  return report;
}

}  // namespace carom::core::contact
