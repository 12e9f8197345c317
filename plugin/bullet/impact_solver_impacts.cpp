// Stage 3 of ImpactSolver: impacts at velocity level. Contacts that approach fast enough are
// grouped by the dynamic bodies they share; a group of one contact is the material pair's law, a
// larger group the simultaneous model (core::routh) with each contact's restitution.
#include <algorithm>
#include <exception>
#include <iterator>
#include <numeric>
#include <optional>

#include "carom/core/impact/law.h"
#include "disjoint_sets.h"
#include "impact_solver_island.h"
#include "partner_frame.h"
#include "simultaneous_impact.h"
#include "worker_pool.h"

namespace carom::detail {
namespace {

// A contact that closes within the step and approaches faster than the resting threshold, the
// forces' half kick left out (it presses resting contacts together by g h/2, above the threshold):
// the normal velocity at the step's start plus what the earlier rounds' impacts changed
// (`afterKick`: the normal velocity once the kick was applied, before any impact; `un`: now).
bool isImpact(const Island& island, const IslandContact& contact,
              const ImpactSolverSettings& settings, double afterKick, double un) {
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

bool jointed(const Island& island, int body) {
  return island.held && island.jointed[static_cast<std::size_t>(body)];
}

// One contact on a jointed body: its law on the contact's inverse mass matrix with the joints'
// equality rows held, whose impulse moves every body they join (core::contact::applyHeldLaw).
std::vector<ImpactEvent> resolveHeld(Island& island, const IslandContact& contact) {
  std::vector<core::impact::ContactBody> states = statesOf(island);
  btVector3 t1, t2;
  btPlaneSpace1(toBt(contact.normal), t1, t2);
  const double before = normalVelocity(island, contact);
  const std::optional<core::impact::ImpactOutcome> outcome = core::contact::applyHeldLaw(
      states, *island.held, contact.bodyA, contact.bodyB, contact.point, contact.normal,
      core::impact::impactLaw(contact.material, toEigen(t1)));
  if (!outcome) return {};  // the joints hold both bodies' points still: nothing to strike
  for (std::size_t i = 0; i < states.size(); ++i)
    island.bodies[i].state = states[i];
  ImpactEvent event = eventFor(island, contact, before, outcome->impulse);
  event.energyChange = outcome->energyChange;
  event.law = std::string(core::impact::toString(contact.material.impact)) + " (jointed)";
  if (!outcome->resolved) event.law += " (unresolved: " + outcome->trace + ")";
  return {event};
}

std::vector<ImpactEvent> resolveSingle(Island& island, const IslandContact& contact) {
  if (jointed(island, contact.bodyA) || jointed(island, contact.bodyB))
    return resolveHeld(island, contact);
  IslandBody& a = island.bodies[contact.bodyA];
  IslandBody& b = island.bodies[contact.bodyB];
  btVector3 t1, t2;
  btPlaneSpace1(toBt(contact.normal), t1, t2);
  const core::impact::ImpactOutcome outcome = core::impact::applyLaw(
      {a.state, b.state, contact.point, contact.normal},
      core::impact::impactLaw(contact.material, toEigen(t1)), core::impact::TraceWhen::kOnFailure);
  const double before = normalVelocity(island, contact);
  // Only a dynamic body moves (the law leaves an immovable one as it was), and only the group's
  // own bodies are written: groups may be resolved on several threads (resolveGroups).
  if (a.dynamic) {
    a.state.linearVelocity = outcome.linearVelocityA;
    a.state.angularVelocity = outcome.angularVelocityA;
  }
  if (b.dynamic) {
    b.state.linearVelocity = outcome.linearVelocityB;
    b.state.angularVelocity = outcome.angularVelocityB;
  }
  ImpactEvent event = eventFor(island, contact, before, outcome.impulse);
  event.energyChange = outcome.energyChange;
  event.law = core::impact::toString(contact.material.impact);
  if (!outcome.resolved) event.law += " (unresolved: " + outcome.trace + ")";
  return {event};
}

// The plain covering vector's entry where a step LCP's w_q ≥ 0 (core/routh/step.h): the bin's step
// LCPs take a fifth fewer pivots than with d = 1. The variational mode keeps d = 1: after the
// other solutions this one picks, its landings' holds take longer (docs/measurements.md).
constexpr double kPlainCoveringAboveZero = 1e-3;

core::routh::ImpactPolicy policyFor(const Config& config, const Eigen::VectorXd& approach,
                                    const Eigen::VectorXd& effectiveMass) {
  core::routh::ImpactPolicy policy = oneOutcomePolicy(config.solver.seed);
  policy.sim.step.plainCoveringAboveZero = kPlainCoveringAboveZero;
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

// Each contact of `group` by its law, in turn, while it still approaches.
std::vector<ImpactEvent> resolveInTurn(Island& island, const std::vector<IslandContact*>& group) {
  std::vector<ImpactEvent> events;
  for (const IslandContact* contact : group) {
    if (normalVelocity(island, *contact) >= 0) continue;  // separated by those before it
    const std::vector<ImpactEvent> one = resolveSingle(island, *contact);
    events.insert(events.end(), one.begin(), one.end());
  }
  return events;
}

// The simultaneous model on the group's dynamic bodies, by its LCPs, by sweeps or in turn
// (simultaneousPath).
std::vector<ImpactEvent> resolveSimultaneous(Island& island,
                                             const std::vector<IslandContact*>& group,
                                             const Config& config) {
  // Solved in the frame of the kinematic partners (partner_frame.h); contact by contact where
  // they have none.
  std::vector<const core::impact::ContactBody*> sides;
  sides.reserve(2 * group.size());
  for (const IslandContact* contact : group) {
    sides.push_back(&island.bodies[contact->bodyA].state);
    sides.push_back(&island.bodies[contact->bodyB].state);
  }
  const std::optional<core::Vec3> frame = partnersRestFrame(sides);
  if (!frame) return resolveInTurn(island, group);
  std::vector<int> slot(island.bodies.size(), kImmovable);  // in the impact's bodies
  std::vector<int> involved;
  std::vector<core::impact::ContactBody> bodies;
  involved.reserve(2 * group.size());
  bodies.reserve(2 * group.size());
  const auto slotOf = [&](int body) {
    if (island.bodies[body].dynamic == nullptr) return kImmovable;
    if (slot[body] == kImmovable) {
      slot[body] = static_cast<int>(involved.size());
      involved.push_back(body);
      bodies.push_back(island.bodies[body].state);
    }
    return slot[body];
  };
  std::vector<SimultaneousContact> rows;
  rows.reserve(group.size());
  for (const IslandContact* contact : group) {
    rows.push_back({slotOf(contact->bodyA), slotOf(contact->bodyB), contact->point, contact->normal,
                    contact->material});
  }
  // The bodies jointed to the struck ones, and the joints' equality rows between them: an impact
  // on one link moves the whole chain.
  std::vector<core::contact::JointRow> joints;
  if (island.held) {
    const auto reached = [&](int body) {
      return body != core::contact::kWorld && slot[body] != kImmovable;
    };
    std::vector<bool> taken(island.heldRows.size(), false);
    for (bool added = true; added;) {
      added = false;
      for (std::size_t r = 0; r < island.heldRows.size(); ++r) {
        const core::contact::JointRow& row = island.jointRows[island.heldRows[r]].row;
        if (taken[r] || !(reached(row.bodyA) || reached(row.bodyB))) continue;
        taken[r] = added = true;
        core::contact::JointRow joint = row;
        for (int* side : {&joint.bodyA, &joint.bodyB})
          *side = *side == core::contact::kWorld ? kImmovable : slotOf(*side);
        joints.push_back(joint);
      }
    }
    if (!jointsHoldInFrame(joints, *frame)) return resolveInTurn(island, group);
  }
  const SimultaneousPath path = simultaneousPath(config.solver, group.size(), !joints.empty());
  if (path == SimultaneousPath::kInTurn) {
    std::vector<ImpactEvent> events = resolveInTurn(island, group);
    for (ImpactEvent& event : events)
      event.law = inTurnLaw(event.law, group.size());
    return events;
  }
  const bool sweeps = path == SimultaneousPath::kSweeps;
  const SimultaneousOutcome outcome =
      sweeps ? resolveBySweeps(bodies, rows, *frame)
             : resolveSimultaneously(
                   bodies, rows, *frame,
                   [&](const Eigen::VectorXd& approach, const Eigen::VectorXd& mass) {
                     return policyFor(config, approach, mass);
                   },
                   joints);
  for (std::size_t s = 0; s < involved.size(); ++s)
    island.bodies[involved[s]].state = bodies[s];
  std::string law = sweeps ? bySweepsLaw(config.solver.simultaneous, group.size())
                           : toString(config.solver.simultaneous);
  if (!outcome.message.empty()) law += " (" + outcome.message + ")";
  std::vector<ImpactEvent> events;
  events.reserve(group.size());
  for (std::size_t c = 0; c < group.size(); ++c) {
    ImpactEvent event =
        eventFor(island, *group[c], outcome.normalVelocityBefore[c], outcome.impulse[c]);
    event.energyChange = outcome.energyChange;
    event.law = law;
    event.contacts = static_cast<int>(group.size());
    events.push_back(std::move(event));
  }
  return events;
}

// One impact group: its pair's law for one contact, the simultaneous model for several.
std::vector<ImpactEvent> resolveGroup(Island& island, const std::vector<IslandContact*>& group,
                                      const Config& config) {
  return group.size() == 1 ? resolveSingle(island, *group[0])
                           : resolveSimultaneous(island, group, config);
}

// A round's groups, each resolved on its own: they share no dynamic body (only immovable partners,
// which are read), so each writes its own bodies' velocities and its own slot of events, and the
// result is the same on any number of threads. The workers take part only where two groups or
// more are simultaneous impacts (a Halm–Posa solve costs tens of microseconds and more, handing
// work to a thread several) and no joint is held (a jointed contact's law reads every body's
// state). An exception is rethrown from the first group, in order, that threw.
std::vector<std::vector<ImpactEvent>> resolveGroups(
    Island& island, const std::vector<std::vector<IslandContact*>>& groups, const Config& config,
    std::unique_ptr<WorkerPool>& workers) {
  std::vector<std::vector<ImpactEvent>> events(groups.size());
  const auto simultaneous = std::count_if(groups.begin(), groups.end(),
                                          [](const auto& group) { return group.size() > 1; });
  const int threads = simultaneous < 2 || island.held ? 1 : threadCount(config.solver.threads);
  if (threads < 2) {
    for (std::size_t g = 0; g < groups.size(); ++g)
      events[g] = resolveGroup(island, groups[g], config);
    return events;
  }
  // Largest first, so that no thread is left with a large group once the others are done.
  std::vector<std::size_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return groups[i].size() > groups[j].size();
  });
  std::vector<std::exception_ptr> failures(groups.size());
  poolFor(workers, threads)->run(order.size(), [&](std::size_t k) {
    const std::size_t g = order[k];
    try {
      events[g] = resolveGroup(island, groups[g], config);
    } catch (...) {
      failures[g] = std::current_exception();
    }
  });
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
  return events;
}

// The dynamic body a group is known by: every contact has one (resolveImpacts).
int dynamicBodyOf(const Island& island, const IslandContact& contact) {
  return island.bodies[contact.bodyA].dynamic ? contact.bodyA : contact.bodyB;
}

// Whether the contact touches, or closes within the step at its normal velocity now.
bool closesWithinStep(const Island& island, const IslandContact& contact) {
  const double un = normalVelocity(island, contact);
  return contact.distance + std::min(un, 0.0) * island.timeStep <= 0;
}

// A contact struck plastically (restitution 0) earlier in the step is struck again with a new
// impact on its bodies while it touches or closes within the step: a plastic impact stops its
// contacts together, and a later round that strikes one of its bodies from elsewhere pushes that
// body back into the partner it was stopped against. Struck alone, by turns, the two pass their
// momentum back and forth, less each round, for dozens of rounds (a pyramid of boxes landing level
// on level). Joins `kept` into `joined` and appends to `impacts` those a new impact reaches.
void keepPlasticContacts(Island& island, const std::vector<char>& struckPlastically,
                         DisjointSets& joined, std::vector<IslandContact*>& impacts) {
  std::vector<char> isNew(island.contacts.size(), 0);
  std::vector<bool> reached(island.bodies.size(), false);  // per root: a new impact's group
  for (const IslandContact* contact : impacts)
    isNew[static_cast<std::size_t>(contact - island.contacts.data())] = 1;
  std::vector<IslandContact*> kept;
  for (std::size_t c = 0; c < island.contacts.size(); ++c) {
    IslandContact& contact = island.contacts[c];
    if (!struckPlastically[c] || isNew[c]) continue;
    if (!closesWithinStep(island, contact)) continue;
    kept.push_back(&contact);
    if (island.bodies[contact.bodyA].dynamic && island.bodies[contact.bodyB].dynamic)
      joined.join(contact.bodyA, contact.bodyB);
  }
  for (const IslandContact* contact : impacts)
    reached[static_cast<std::size_t>(joined.root(dynamicBodyOf(island, *contact)))] = true;
  for (IslandContact* contact : kept) {
    if (reached[static_cast<std::size_t>(joined.root(dynamicBodyOf(island, *contact)))])
      impacts.push_back(contact);
  }
}

// An impact fast enough to push its bodies' plastic neighbours past the resting threshold (an
// approach over twice it: a plastic impact shares its speed between equal masses) strikes the pile
// they rest in at once: every plastic contact of bodies no joint holds that touches or closes
// within the step, reached from its bodies through such contacts. Struck only once they approach,
// the impact would go down the pile one level per round, each round an impact of the whole pile
// above (a pyramid of boxes landing level on level). A slower impact (a wall settling) leaves its
// neighbours to the contact LCP; a jointed body's resting contacts wait until they approach, as a
// walker's trailing foot, touching at heel strike, must. Joins what it appends to `impacts` into
// `joined`.
void strikePlasticPiles(Island& island, const ImpactSolverSettings& settings, DisjointSets& joined,
                        std::vector<IslandContact*>& impacts) {
  std::vector<int> frontier;  // dynamic bodies whose plastic contacts are still to be followed
  for (const IslandContact* contact : impacts) {
    if (normalVelocity(island, *contact) >= -2 * settings.restingThreshold) continue;
    for (const int body : {contact->bodyA, contact->bodyB}) {
      if (island.bodies[body].dynamic) frontier.push_back(body);
    }
  }
  if (frontier.empty()) return;
  std::vector<bool> inImpact(island.contacts.size(), false);
  for (const IslandContact* contact : impacts)
    inImpact[static_cast<std::size_t>(contact - island.contacts.data())] = true;
  std::vector<std::vector<std::size_t>> contactsOf(island.bodies.size());  // plastic ones
  for (std::size_t c = 0; c < island.contacts.size(); ++c) {
    const IslandContact& contact = island.contacts[c];
    if (contact.material.restitution != 0) continue;
    for (const int body : {contact.bodyA, contact.bodyB})
      contactsOf[static_cast<std::size_t>(body)].push_back(c);
  }
  std::vector<bool> followed(island.bodies.size(), false);
  while (!frontier.empty()) {
    const int body = frontier.back();
    frontier.pop_back();
    if (followed[static_cast<std::size_t>(body)] || jointed(island, body)) continue;
    followed[static_cast<std::size_t>(body)] = true;
    for (const std::size_t c : contactsOf[static_cast<std::size_t>(body)]) {
      IslandContact& contact = island.contacts[c];
      const int other = contact.bodyA == body ? contact.bodyB : contact.bodyA;
      if (inImpact[c] || jointed(island, other) || !closesWithinStep(island, contact)) continue;
      inImpact[c] = true;
      impacts.push_back(&contact);
      if (!island.bodies[other].dynamic) continue;
      joined.join(body, other);
      frontier.push_back(other);
    }
  }
}

}  // namespace

void resolveImpacts(Island& island, const Config& config, const ImpactSolverSettings& settings,
                    std::unique_ptr<WorkerPool>& workers, std::vector<ImpactEvent>& events) {
  // Rounds of impacts: a struck ball of a touching Newton's cradle strikes the next within the
  // same step, which the contact LCP after this stage would otherwise stop plastically. Bounded by
  // solver.maxEventsPerStep rounds; what still approaches then is left to the contact LCP.
  std::vector<double> afterKick;
  afterKick.reserve(island.contacts.size());
  for (const IslandContact& contact : island.contacts)
    afterKick.push_back(normalVelocity(island, contact));
  // Flags as bytes, not std::vector<bool>: each round reads them for every contact of the island.
  std::vector<char> struckPlastically(island.contacts.size(), 0);  // keepPlasticContacts
  // The bodies the last round struck: a contact between two others approaches as it did when that
  // round found it no impact, and is not read again. Where joints are held, an impact on one link
  // moves every body they join, and every contact is read each round.
  std::vector<char> struck(island.bodies.size(), 1);
  for (int round = 0; round < config.solver.maxEventsPerStep; ++round) {
    // Contacts sharing a dynamic body, or on bodies a joint joins (an impact on one link moves
    // them all): one impact.
    DisjointSets joined(island.bodies.size());
    for (const std::size_t index : island.heldRows) {
      const core::contact::JointRow& row = island.jointRows[index].row;
      if (island.bodies[row.bodyA].dynamic && island.bodies[row.bodyB].dynamic)
        joined.join(row.bodyA, row.bodyB);
    }
    std::vector<IslandContact*> impacts;
    for (std::size_t c = 0; c < island.contacts.size(); ++c) {
      IslandContact& contact = island.contacts[c];
      if (!struck[contact.bodyA] && !struck[contact.bodyB]) continue;
      // The first round sees the velocities afterKick was taken from.
      const double un = round == 0 ? afterKick[c] : normalVelocity(island, contact);
      if (!isImpact(island, contact, settings, afterKick[c], un)) continue;
      impacts.push_back(&contact);
      if (island.bodies[contact.bodyA].dynamic && island.bodies[contact.bodyB].dynamic)
        joined.join(contact.bodyA, contact.bodyB);
    }
    if (impacts.empty()) break;
    keepPlasticContacts(island, struckPlastically, joined, impacts);
    strikePlasticPiles(island, settings, joined, impacts);
    if (!island.held) {
      std::fill(struck.begin(), struck.end(), 0);
      for (const IslandContact* contact : impacts) {
        for (const int body : {contact->bodyA, contact->bodyB})
          struck[body] = island.bodies[body].dynamic != nullptr ? 1 : 0;
      }
    }
    std::vector<std::vector<IslandContact*>> groups(island.bodies.size());
    for (IslandContact* contact : impacts) {
      groups[joined.root(dynamicBodyOf(island, *contact))].push_back(contact);
      if (contact->material.restitution == 0)
        struckPlastically[static_cast<std::size_t>(contact - island.contacts.data())] = 1;
    }
    groups.erase(
        std::remove_if(groups.begin(), groups.end(),
                       [](const std::vector<IslandContact*>& group) { return group.empty(); }),
        groups.end());
    for (std::vector<ImpactEvent>& resolved : resolveGroups(island, groups, config, workers)) {
      events.insert(events.end(), std::make_move_iterator(resolved.begin()),
                    std::make_move_iterator(resolved.end()));
    }
  }
}

}  // namespace carom::detail
