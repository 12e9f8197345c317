#include "simultaneous_impact.h"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "carom/core/routh/restitution.h"
#include "carom/core/routh/sim.h"
#include "carom/error.h"
#include "disjoint_sets.h"

namespace carom::detail {
namespace {

// Two unit tangents completing the unit normal n to a right-handed frame.
std::pair<core::Vec3, core::Vec3> tangentsOf(const core::Vec3& n) {
  const core::Vec3 helper = std::abs(n.x()) < 0.9 ? core::Vec3::UnitX() : core::Vec3::UnitY();
  const core::Vec3 t1 = n.cross(helper).normalized();
  return {t1, n.cross(t1)};
}

// The rows of one block of joints: bodies no row of another block moves (a ragdoll of a pile).
struct JointBlock {
  std::vector<int> bodies;        // the impact's bodies the block's rows move
  std::vector<std::size_t> rows;  // the rows, as the impact's joints number them
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> factor;  // of the block's Gᵀ
};

// The velocities equality joint rows allow (simultaneous_impact.h): `basis` N, orthonormal
// columns spanning the rows' null space (empty without rows). The rows' matrix G is block
// diagonal over the blocks of bodies they join, and so is N: each block's null space is found
// from the QR factorization of its own Gᵀ (which also solves Gᵀ λ = f for its rows' impulses in
// least squares), a body no row moves keeps its six freedoms. Per block, the factorizations cost
// a few blocks' sizes cubed, not the whole impact's (a pile of ragdolls struck at once).
struct HeldVelocities {
  Eigen::MatrixXd basis;
  std::vector<JointBlock> blocks;
  // M N, of the bodies' block-diagonal M (6 × 6 per body) and N: a body's six rows of N times its
  // block, not the whole of M, which is zero elsewhere.
  Eigen::MatrixXd massTimesBasis(const Eigen::MatrixXd& M) const {
    Eigen::MatrixXd MN(basis.rows(), basis.cols());
    for (Eigen::Index at = 0; at < basis.rows(); at += 6)
      MN.middleRows<6>(at) = M.block<6, 6>(at, at) * basis.middleRows<6>(at);
    return MN;
  }
  // The rows' impulses λ (one per joint row) that hold Gᵀ λ = f, block by block.
  Eigen::VectorXd impulses(const Eigen::VectorXd& f, std::size_t rowCount) const {
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rowCount));
    for (const JointBlock& block : blocks) {
      Eigen::VectorXd part(6 * static_cast<Eigen::Index>(block.bodies.size()));
      for (std::size_t k = 0; k < block.bodies.size(); ++k)
        part.segment<6>(6 * static_cast<Eigen::Index>(k)) = f.segment<6>(6 * block.bodies[k]);
      const Eigen::VectorXd solved = block.factor.solve(part);
      for (std::size_t r = 0; r < block.rows.size(); ++r)
        lambda(static_cast<Eigen::Index>(block.rows[r])) = solved(static_cast<Eigen::Index>(r));
    }
    return lambda;
  }
};

HeldVelocities heldVelocities(const std::vector<core::impact::ContactBody>& bodies,
                              const std::vector<core::contact::JointRow>& joints,
                              const core::Vec3& frame, const Eigen::MatrixXd& M) {
  HeldVelocities held;
  if (joints.empty()) return held;
  if (!jointsHoldInFrame(joints, frame))
    throw Error("a joint to the world needs the impact solved in the world's frame");
  const int count = static_cast<int>(bodies.size());
  DisjointSets joined(bodies.size());
  for (const core::contact::JointRow& row : joints) {
    if (!row.isEquality()) throw Error("a simultaneous impact holds equality joint rows only");
    if (row.bodyA != kImmovable && row.bodyB != kImmovable) joined.join(row.bodyA, row.bodyB);
  }
  // The blocks in the order of their first body (by its set's root); each body's place in its
  // block.
  std::vector<int> blockOfRoot(bodies.size(), -1), place(bodies.size(), -1);
  std::vector<bool> moved(bodies.size(), false);
  for (const core::contact::JointRow& row : joints) {
    for (const int index : {row.bodyA, row.bodyB})
      if (index != kImmovable) moved[static_cast<std::size_t>(index)] = true;
  }
  for (int body = 0; body < count; ++body) {
    if (!moved[static_cast<std::size_t>(body)]) continue;
    int& block = blockOfRoot[static_cast<std::size_t>(joined.root(body))];
    if (block < 0) {
      block = static_cast<int>(held.blocks.size());
      held.blocks.emplace_back();
    }
    place[static_cast<std::size_t>(body)] =
        static_cast<int>(held.blocks[static_cast<std::size_t>(block)].bodies.size());
    held.blocks[static_cast<std::size_t>(block)].bodies.push_back(body);
  }
  for (std::size_t r = 0; r < joints.size(); ++r) {
    const core::contact::JointRow& row = joints[r];
    const int body = row.bodyA != kImmovable ? row.bodyA : row.bodyB;
    const int block = blockOfRoot[static_cast<std::size_t>(joined.root(body))];
    held.blocks[static_cast<std::size_t>(block)].rows.push_back(r);
  }
  // N's columns: each block's null space, then each free body's six unit columns.
  std::vector<Eigen::MatrixXd> nullSpaces;
  Eigen::Index columns = 0;
  for (JointBlock& block : held.blocks) {
    const Eigen::Index width = 6 * static_cast<Eigen::Index>(block.bodies.size());
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(block.rows.size()), width);
    for (std::size_t i = 0; i < block.rows.size(); ++i) {
      const core::contact::JointRow& row = joints[block.rows[i]];
      for (const auto& [index, linear, angular] : {std::tuple{row.bodyA, row.linearA, row.angularA},
                                                   {row.bodyB, row.linearB, row.angularB}}) {
        if (index == kImmovable) continue;
        const Eigen::Index at = 6 * place[static_cast<std::size_t>(index)];
        G.block<1, 3>(static_cast<Eigen::Index>(i), at) = linear.transpose();
        // A body whose rotation is locked keeps its spin (resolveSimultaneously).
        if (!rotationLocked(bodies[static_cast<std::size_t>(index)]))
          G.block<1, 3>(static_cast<Eigen::Index>(i), at + 3) = angular.transpose();
      }
    }
    block.factor.setThreshold(core::contact::JointSystem::kRedundantPivot);
    block.factor.compute(G.transpose());
    const Eigen::MatrixXd Q = block.factor.householderQ();
    nullSpaces.push_back(Q.rightCols(width - block.factor.rank()));
    columns += nullSpaces.back().cols();
  }
  for (int body = 0; body < count; ++body)
    if (!moved[static_cast<std::size_t>(body)]) columns += 6;
  held.basis = Eigen::MatrixXd::Zero(M.rows(), columns);
  Eigen::Index column = 0;
  for (std::size_t b = 0; b < held.blocks.size(); ++b) {
    const JointBlock& block = held.blocks[b];
    for (std::size_t k = 0; k < block.bodies.size(); ++k) {
      held.basis.block(6 * block.bodies[k], column, 6, nullSpaces[b].cols()) =
          nullSpaces[b].middleRows(6 * static_cast<Eigen::Index>(k), 6);
    }
    column += nullSpaces[b].cols();
  }
  for (int body = 0; body < count; ++body) {
    if (moved[static_cast<std::size_t>(body)]) continue;
    held.basis.block<6, 6>(6 * body, column).setIdentity();
    column += 6;
  }
  return held;
}

}  // namespace

bool rotationLocked(const core::impact::ContactBody& body) {
  return body.inverseInertiaWorld.isZero(0);
}

core::impact::Contact contactOf(const std::vector<core::impact::ContactBody>& bodies,
                                const SimultaneousContact& contact) {
  const auto side = [&](int index) {
    return index == kImmovable ? core::impact::ContactBody{}
                               : bodies[static_cast<std::size_t>(index)];
  };
  return {side(contact.bodyA), side(contact.bodyB), contact.point, contact.normal};
}

bool jointsHoldInFrame(const std::vector<core::contact::JointRow>& joints,
                       const core::Vec3& frame) {
  return frame.isZero(0) || std::none_of(joints.begin(), joints.end(), [](const auto& row) {
           return row.bodyA == kImmovable || row.bodyB == kImmovable;
         });
}

SimultaneousPath simultaneousPath(const SolverSettings& solver, std::size_t contacts,
                                  bool jointed) {
  const bool sweepable = !jointed && solver.simultaneous != SimultaneousModel::sequential;
  const std::size_t lcpContacts =
      sweepable ? static_cast<std::size_t>(solver.simultaneousContacts) : kMaxSimultaneousContacts;
  if (contacts <= lcpContacts) return SimultaneousPath::kLcps;
  return sweepable ? SimultaneousPath::kSweeps : SimultaneousPath::kInTurn;
}

std::string inTurnLaw(const std::string& law, std::size_t contacts) {
  return law + " (in turn: " + std::to_string(contacts) + " contacts struck at once, over " +
         std::to_string(kMaxSimultaneousContacts) + ")";
}

core::routh::ImpactPolicy oneOutcomePolicy(std::uint64_t seed) {
  core::routh::ImpactPolicy policy;
  policy.seed = seed;
  policy.sim.step.randomCovering = false;
  return policy;
}

std::string bySweepsLaw(SimultaneousModel model, std::size_t contacts) {
  return std::string(toString(model)) +
         " (one Anitescu–Potra impact by sweeps: " + std::to_string(contacts) +
         " contacts struck at once)";
}

SimultaneousOutcome resolveSimultaneously(std::vector<core::impact::ContactBody>& bodies,
                                          const std::vector<SimultaneousContact>& contacts,
                                          const core::Vec3& frame,
                                          const ImpactPolicyChooser& choosePolicy,
                                          const std::vector<core::contact::JointRow>& joints) {
  // Generalized velocities v = [v_0 − frame; ω_0; v_1 − frame; ω_1; …], M = blockdiag(m I,
  // J_world), and per contact the rows u = d·(v_B + ω_B × r_B − v_A − ω_A × r_A) for d = n, t1,
  // t2 (Halm & Posa digest §1, rigid bodies in 3D). Relative velocities are the same in the frame.
  const Eigen::Index n = 6 * static_cast<Eigen::Index>(bodies.size());
  const Eigen::Index m = static_cast<Eigen::Index>(contacts.size());
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd vMinus(n), toWorld = Eigen::VectorXd::Zero(n);
  for (Eigen::Index s = 0; s < static_cast<Eigen::Index>(bodies.size()); ++s) {
    const core::impact::ContactBody& body = bodies[static_cast<std::size_t>(s)];
    M.block<3, 3>(6 * s, 6 * s) = core::Mat3::Identity() / body.inverseMass;
    // A body whose rotation is locked keeps its spin: no contact row reaches it (below), and any
    // positive block leaves it as it is.
    if (rotationLocked(body)) {
      M.block<3, 3>(6 * s + 3, 6 * s + 3) = core::Mat3::Identity();
    } else {
      const Eigen::FullPivLU<core::Mat3> inverseInertia(body.inverseInertiaWorld);
      if (!inverseInertia.isInvertible())
        throw Error("a simultaneous impact needs bodies with an invertible inertia");
      M.block<3, 3>(6 * s + 3, 6 * s + 3) = inverseInertia.inverse();
    }
    vMinus.segment<3>(6 * s) = body.linearVelocity - frame;
    vMinus.segment<3>(6 * s + 3) = body.angularVelocity;
    toWorld.segment<3>(6 * s) = frame;
  }
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(m, n), Jt = Eigen::MatrixXd::Zero(2 * m, n);
  Eigen::VectorXd mu(m), restitution(m), effectiveMass(m);
  std::vector<std::pair<core::Vec3, core::Vec3>> tangents;
  tangents.reserve(contacts.size());
  for (Eigen::Index i = 0; i < m; ++i) {
    const SimultaneousContact& contact = contacts[static_cast<std::size_t>(i)];
    tangents.push_back(tangentsOf(contact.normal));
    const core::Vec3 directions[3] = {contact.normal, tangents.back().first,
                                      tangents.back().second};
    for (const auto& [index, sign] : {std::pair{contact.bodyA, -1.0}, {contact.bodyB, 1.0}}) {
      if (index == kImmovable) continue;
      const core::impact::ContactBody& body = bodies[static_cast<std::size_t>(index)];
      const core::Vec3 r = contact.point - body.centerOfMass;
      for (int d = 0; d < 3; ++d) {
        Eigen::MatrixXd& J = d == 0 ? Jn : Jt;
        const Eigen::Index row = d == 0 ? i : 2 * i + d - 1;
        J.block<1, 3>(row, 6 * index) += sign * directions[d].transpose();
        if (!rotationLocked(body))
          J.block<1, 3>(row, 6 * index + 3) += sign * r.cross(directions[d]).transpose();
      }
    }
    mu(i) = core::impact::frictionAtImpact(contact.material);
    restitution(i) = contact.material.restitution;
    const core::impact::Contact pair = contactOf(bodies, contact);
    effectiveMass(i) =
        1 / contact.normal.dot(core::impact::inverseMassMatrix(pair) * contact.normal);
  }
  SimultaneousOutcome outcome;
  const Eigen::VectorXd before = Jn * vMinus;
  const HeldVelocities held = heldVelocities(bodies, joints, frame, M);
  const bool free = joints.empty();
  // Without joints the problem is the bodies'; with them, on the coordinates q of v = N q, its
  // mass matrix NᵀM N, and the start the M-orthogonal projection N q of v⁻ onto the allowed
  // velocities: NᵀM N q = NᵀM v⁻.
  const Eigen::MatrixXd MN = free ? Eigen::MatrixXd() : held.massTimesBasis(M);
  const Eigen::MatrixXd heldMass = free ? Eigen::MatrixXd() : held.basis.transpose() * MN;
  const core::routh::ImpactProblem problem =
      free ? core::routh::ImpactProblem::spatial(M, Jn, Jt, mu)
           : core::routh::ImpactProblem::spatial(heldMass, Jn * held.basis, Jt * held.basis, mu);
  const Eigen::VectorXd start =
      free ? vMinus : Eigen::VectorXd(heldMass.ldlt().solve(MN.transpose() * vMinus));
  const Eigen::VectorXd approach = free ? before : Eigen::VectorXd(Jn * held.basis * start);
  core::routh::ImpactPolicy policy = choosePolicy(-approach, effectiveMass);
  // The joints' projection alone may stop every contact (a link falling as fast as the link it is
  // jointed to rises): a policy sized by the fastest approach then has no step, and the model that
  // needs none takes none (Algorithm 1 ends before its first LCP: v⁺ = v⁻, no impulse).
  if (!core::routh::approaching(problem, start, policy.sim.terminationTolerance))
    policy.kind = core::routh::PolicyKind::kSimultaneous;
  const core::routh::RestitutionResult result =
      core::routh::resolveImpactWithRestitution(problem, start, policy, restitution);
  const Eigen::VectorXd vPlus = free ? result.v : held.basis * result.v;
  for (std::size_t s = 0; s < bodies.size(); ++s) {
    const Eigen::Index at = 6 * static_cast<Eigen::Index>(s);
    bodies[s].linearVelocity = vPlus.segment<3>(at) + frame;
    bodies[s].angularVelocity = vPlus.segment<3>(at + 3);
  }
  const Eigen::VectorXd after = Jn * vPlus;
  const core::routh::ImpactOutcome& compression = result.compression.outcome;
  const Eigen::Index k = problem.directions();
  const Eigen::MatrixXd& D = problem.directionMatrix();
  outcome.impulse.reserve(contacts.size());
  outcome.normalVelocityBefore.reserve(contacts.size());
  outcome.normalVelocityAfter.reserve(contacts.size());
  for (Eigen::Index i = 0; i < m; ++i) {
    // Λ_i, its friction along the problem's k directions, then the restitution phase's copy.
    core::Vec3 impulse = compression.impulseN(i) * contacts[static_cast<std::size_t>(i)].normal;
    const auto& [t1, t2] = tangents[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < k; ++j)
      impulse += compression.impulseD(i * k + j) * (D(0, j) * t1 + D(1, j) * t2);
    outcome.impulse.push_back((1 + result.scale * restitution(i)) * impulse);
    outcome.normalVelocityBefore.push_back(before(i));
    outcome.normalVelocityAfter.push_back(after(i));
  }
  if (free) {
    outcome.energyChange =
        problem.kineticEnergy(result.v + toWorld) - problem.kineticEnergy(vMinus + toWorld);
  } else {
    const auto energy = [&](const Eigen::VectorXd& v) { return 0.5 * v.dot(M * v); };
    outcome.energyChange = energy(vPlus + toWorld) - energy(vMinus + toWorld);
    // The rows' impulses: what M Δv holds beyond the contacts' impulses, Gᵀ λ = M Δv − Σ Jᵀ P.
    Eigen::VectorXd contactImpulse = Eigen::VectorXd::Zero(n);
    for (Eigen::Index i = 0; i < m; ++i) {
      const core::Vec3& p = outcome.impulse[static_cast<std::size_t>(i)];
      const auto& [t1, t2] = tangents[static_cast<std::size_t>(i)];
      contactImpulse +=
          Jn.row(i).transpose() * p.dot(contacts[static_cast<std::size_t>(i)].normal) +
          Jt.row(2 * i).transpose() * p.dot(t1) + Jt.row(2 * i + 1).transpose() * p.dot(t2);
    }
    outcome.jointImpulses =
        held.impulses(Eigen::VectorXd(M * (vPlus - vMinus) - contactImpulse), joints.size());
  }
  outcome.message = result.compression.message;
  return outcome;
}

}  // namespace carom::detail
