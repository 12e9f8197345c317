// Stage 3 of ImpactSolver: impacts at velocity level. Contacts that approach fast enough are
// grouped by the dynamic bodies they share; a group of one contact is the material pair's law, a
// larger group the simultaneous model (core::routh) with each contact's restitution.
#include <cmath>
#include <numeric>
#include <optional>

#include "carom/core/impact/law.h"
#include "carom/core/routh/restitution.h"
#include "carom/error.h"
#include "disjoint_sets.h"
#include "impact_solver_island.h"
#include "partner_frame.h"

namespace carom::detail {
namespace {

// A contact that closes within the step and approaches faster than the resting threshold, the
// forces' half kick left out (it presses resting contacts together by g h/2, above the threshold):
// the normal velocity at the step's start plus what the earlier rounds' impacts changed
// (`afterKick`: the normal velocity once the kick was applied, before any impact).
bool isImpact(const Island& island, const IslandContact& contact,
              const ImpactSolverSettings& settings, double afterKick) {
  const double un = normalVelocity(island, contact);
  const double approach = contact.normalVelocityBeforeForces + (un - afterKick);
  return approach < -settings.restingThreshold && un < 0 &&
         contact.distance + un * island.timeStep <= 0;
}

ImpactEvent eventFor(const Island& island, const IslandContact& contact, double before,
                     const core::Vec3& impulse) {
  ImpactEvent event;
  event.bodyA = island.bodies[contact.bodyA].object;
  event.bodyB = island.bodies[contact.bodyB].object;
  event.point = toBt(contact.point);
  event.normal = toBt(contact.normal);
  event.impulse = toBt(impulse);
  event.normalVelocityBefore = before;
  event.normalVelocityAfter = normalVelocity(island, contact);
  return event;
}

std::vector<ImpactEvent> resolveSingle(Island& island, const IslandContact& contact) {
  IslandBody& a = island.bodies[contact.bodyA];
  IslandBody& b = island.bodies[contact.bodyB];
  btVector3 t1, t2;
  btPlaneSpace1(toBt(contact.normal), t1, t2);
  const core::impact::ImpactOutcome outcome =
      core::impact::applyLaw({a.state, b.state, contact.point, contact.normal},
                             core::impact::impactLaw(contact.material, toEigen(t1)));
  const double before = normalVelocity(island, contact);
  a.state.linearVelocity = outcome.linearVelocityA;
  a.state.angularVelocity = outcome.angularVelocityA;
  b.state.linearVelocity = outcome.linearVelocityB;
  b.state.angularVelocity = outcome.angularVelocityB;
  ImpactEvent event = eventFor(island, contact, before, outcome.impulse);
  event.energyChange = outcome.energyChange;
  event.law = core::impact::toString(contact.material.impact);
  if (!outcome.resolved) event.law += " (unresolved: " + outcome.trace + ")";
  return {event};
}

core::routh::ImpactPolicy policyFor(const Config& config, const Eigen::VectorXd& approach,
                                    const Eigen::VectorXd& effectiveMass) {
  core::routh::ImpactPolicy policy;
  policy.seed = config.solver.seed;
  switch (config.solver.simultaneous) {
    case SimultaneousModel::simultaneous:
      policy.kind = core::routh::PolicyKind::kSimultaneous;
      break;
    case SimultaneousModel::routh: {
      // Equal impulse caps per step (Halm–Posa policy B), a quarter of the largest impulse that
      // stops one contact alone: a few steps resolve the impact, stage (2) of the policy finishes
      // what the step cap leaves.
      policy.kind = core::routh::PolicyKind::kEqualRate;
      policy.stepSize = (approach.cwiseProduct(effectiveMass)).maxCoeff() / 4;
      break;
    }
    case SimultaneousModel::sequential: {
      // The fastest-approaching contact first.
      policy.kind = core::routh::PolicyKind::kSequential;
      policy.order.resize(approach.size());
      std::iota(policy.order.begin(), policy.order.end(), 0);
      std::stable_sort(policy.order.begin(), policy.order.end(),
                       [&](Eigen::Index i, Eigen::Index j) { return approach[i] > approach[j]; });
      break;
    }
  }
  return policy;
}

// Its rotation is locked: gatherIsland gave it a zero inverse inertia (motion_factors.h).
bool rotationLocked(const core::impact::ContactBody& body) {
  return body.inverseInertiaWorld.isZero(0);
}

// Halm–Posa on the group's dynamic bodies: v = [v_0; ω_0; v_1; ω_1; …], each contact's rows
// [nᵀ, (r_B × n)ᵀ] on B and the negative on A (J_n v = relative normal velocity, B minus A).
std::vector<ImpactEvent> resolveSimultaneous(Island& island,
                                             const std::vector<IslandContact*>& group,
                                             const Config& config) {
  std::vector<int> dof(island.bodies.size(), -1);
  int n = 0;
  for (const IslandContact* contact : group)
    for (int body : {contact->bodyA, contact->bodyB})
      if (island.bodies[body].dynamic && dof[body] < 0) dof[body] = 6 * n++;
  const Eigen::Index m = static_cast<Eigen::Index>(group.size());
  // Solved in the frame of the kinematic partners (partner_frame.h); contact by contact where
  // they have none.
  std::vector<core::impact::Contact> pairs;
  for (const IslandContact* contact : group) {
    pairs.push_back({island.bodies[contact->bodyA].state, island.bodies[contact->bodyB].state,
                     contact->point, contact->normal});
  }
  const std::optional<core::Vec3> frame = partnersRestFrame(pairs);
  if (!frame) {
    std::vector<ImpactEvent> events;
    for (const IslandContact* contact : group) {
      if (normalVelocity(island, *contact) >= 0) continue;  // separated by those before it
      const std::vector<ImpactEvent> one = resolveSingle(island, *contact);
      events.insert(events.end(), one.begin(), one.end());
    }
    return events;
  }
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6 * n, 6 * n);
  Eigen::VectorXd v(6 * n);
  for (std::size_t i = 0; i < island.bodies.size(); ++i) {
    if (dof[i] < 0) continue;
    const core::impact::ContactBody& state = island.bodies[i].state;
    M.block<3, 3>(dof[i], dof[i]) = core::Mat3::Identity() / state.inverseMass;
    // A body whose rotation is locked (zero inverse inertia, motion_factors.h) keeps its spin: no
    // contact row reaches it (below), and any positive block leaves it as it is.
    if (rotationLocked(state)) {
      M.block<3, 3>(dof[i] + 3, dof[i] + 3) = core::Mat3::Identity();
    } else {
      const Eigen::FullPivLU<core::Mat3> inertia(state.inverseInertiaWorld);
      if (!inertia.isInvertible())
        throw Error("ImpactSolver: a simultaneous impact needs a body with an invertible inertia");
      M.block<3, 3>(dof[i] + 3, dof[i] + 3) = inertia.inverse();
    }
    v.segment<3>(dof[i]) = state.linearVelocity - *frame;
    v.segment<3>(dof[i] + 3) = state.angularVelocity;
  }
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(m, 6 * n), Jt = Eigen::MatrixXd::Zero(2 * m, 6 * n);
  Eigen::VectorXd mu(m), restitution(m), approach(m), effectiveMass(m), before(m);
  std::vector<btVector3> tangents(2 * m);
  for (Eigen::Index c = 0; c < m; ++c) {
    const IslandContact& contact = *group[c];
    btPlaneSpace1(toBt(contact.normal), tangents[2 * c], tangents[2 * c + 1]);
    const core::Vec3 directions[3] = {contact.normal, toEigen(tangents[2 * c]),
                                      toEigen(tangents[2 * c + 1])};
    for (auto [body, sign] : {std::pair{contact.bodyB, 1.0}, std::pair{contact.bodyA, -1.0}}) {
      if (dof[body] < 0) continue;
      const core::Vec3 r = contact.point - island.bodies[body].state.centerOfMass;
      for (int d = 0; d < 3; ++d) {
        Eigen::MatrixXd& J = d == 0 ? Jn : Jt;
        const Eigen::Index row = d == 0 ? c : 2 * c + d - 1;
        J.block<1, 3>(row, dof[body]) += sign * directions[d].transpose();
        if (!rotationLocked(island.bodies[body].state))
          J.block<1, 3>(row, dof[body] + 3) += sign * r.cross(directions[d]).transpose();
      }
    }
    mu[c] = contact.material.friction;
    restitution[c] = contact.material.restitution;
    before[c] = normalVelocity(island, contact);
    approach[c] = -before[c];
    const core::impact::Contact pair{island.bodies[contact.bodyA].state,
                                     island.bodies[contact.bodyB].state, contact.point,
                                     contact.normal};
    effectiveMass[c] =
        1 / contact.normal.dot(core::impact::inverseMassMatrix(pair) * contact.normal);
  }
  const core::routh::ImpactProblem problem = core::routh::ImpactProblem::spatial(M, Jn, Jt, mu);
  const core::routh::RestitutionResult result = core::routh::resolveImpactWithRestitution(
      problem, v, policyFor(config, approach, effectiveMass), restitution);
  Eigen::VectorXd toWorld = Eigen::VectorXd::Zero(6 * n);  // back from the partners' frame
  for (std::size_t i = 0; i < island.bodies.size(); ++i) {
    if (dof[i] < 0) continue;
    toWorld.segment<3>(dof[i]) = *frame;
    island.bodies[i].state.linearVelocity = result.v.segment<3>(dof[i]) + *frame;
    island.bodies[i].state.angularVelocity = result.v.segment<3>(dof[i] + 3);
  }
  const core::routh::ImpactOutcome& compression = result.compression.outcome;
  const Eigen::Index k = problem.directions();
  const double energyChange =
      problem.kineticEnergy(result.v + toWorld) - problem.kineticEnergy(v + toWorld);
  std::vector<ImpactEvent> events;
  for (Eigen::Index c = 0; c < m; ++c) {
    // Total impulse on B: compression plus the restitution phase's scaled copy (restitution.h).
    core::Vec3 impulse = compression.impulseN[c] * group[c]->normal;
    for (Eigen::Index j = 0; j < k; ++j) {
      const double angle = 2 * M_PI * static_cast<double>(j) / static_cast<double>(k);
      impulse += compression.impulseD[c * k + j] *
                 toEigen(std::cos(angle) * tangents[2 * c] + std::sin(angle) * tangents[2 * c + 1]);
    }
    impulse *= 1 + result.scale * restitution[c];
    ImpactEvent event = eventFor(island, *group[c], before[c], impulse);
    event.energyChange = energyChange;
    event.law = toString(config.solver.simultaneous);
    if (!result.compression.message.empty()) event.law += " (" + result.compression.message + ")";
    event.contacts = static_cast<int>(m);
    events.push_back(event);
  }
  return events;
}

}  // namespace

std::vector<ImpactEvent> resolveImpacts(Island& island, const Config& config,
                                        const ImpactSolverSettings& settings) {
  // Rounds of impacts: a struck ball of a touching Newton's cradle strikes the next within the
  // same step, which the contact LCP after this stage would otherwise stop plastically. Bounded by
  // solver.maxEventsPerStep rounds; what still approaches then is left to the contact LCP.
  std::vector<ImpactEvent> events;
  std::vector<double> afterKick;
  for (const IslandContact& contact : island.contacts)
    afterKick.push_back(normalVelocity(island, contact));
  for (int round = 0; round < config.solver.maxEventsPerStep; ++round) {
    DisjointSets joined(island.bodies.size());  // contacts sharing a dynamic body: one impact
    std::vector<IslandContact*> impacts;
    for (std::size_t c = 0; c < island.contacts.size(); ++c) {
      IslandContact& contact = island.contacts[c];
      if (!isImpact(island, contact, settings, afterKick[c])) continue;
      impacts.push_back(&contact);
      if (island.bodies[contact.bodyA].dynamic && island.bodies[contact.bodyB].dynamic)
        joined.join(contact.bodyA, contact.bodyB);
    }
    if (impacts.empty()) break;
    std::vector<std::vector<IslandContact*>> groups(island.bodies.size());
    for (IslandContact* contact : impacts) {
      const int body = island.bodies[contact->bodyA].dynamic ? contact->bodyA : contact->bodyB;
      groups[joined.root(body)].push_back(contact);
    }
    for (const std::vector<IslandContact*>& group : groups) {
      if (group.empty()) continue;
      std::vector<ImpactEvent> resolved = group.size() == 1
                                              ? resolveSingle(island, *group[0])
                                              : resolveSimultaneous(island, group, config);
      events.insert(events.end(), resolved.begin(), resolved.end());
    }
  }
  return events;
}

}  // namespace carom::detail
