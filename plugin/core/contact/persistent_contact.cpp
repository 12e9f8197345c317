#include "carom/core/contact/persistent_contact.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include "carom/error.h"
#include "reserve_growing.h"
#include "subspace_step.h"
#include "sweep_contact.h"
#include "sweep_order.h"

namespace carom::core::contact {
namespace {

using impact::Contact;
using impact::ContactBody;

const ContactBody kImmovable{};  // the world: zero inverse mass and inertia

// The first sweep at which the crawl stop judges a solve (settings.crawlAbove): its rate is taken
// over the second half of the sweeps, and the conjugate momentum's restarts make the change per
// sweep rise and fall over tens of sweeps (a cylinder rolling over a heightfield, judged from the
// 64th sweep on, lost 0.2 % of its energy).
constexpr int kFirstCrawlJudgement = 256;

// The shortest fraction of a subspace solve's change tried before it is given up.
constexpr double kShortestSubspaceStep = 1.0 / 8;
// The resting start's pivoting passes (settings.restingStart): each lets go the contacts its solve
// leaves pulling and holds by their normal alone those it leaves outside their cones, which only
// shrinks the held rows. A 200-brick wall settles in five; past the last, the cones' projection
// takes what is left and the merit test judges the start.
constexpr int kRestingStartPasses = 8;
// A subspace solve's conjugate-gradient products per sweep taken so far (each costs about a
// sweep): a try costs the sweeps before it, and the later tries, after hundreds of sweeps, take
// the hundreds of products that carry loads to the bottom of a pile. In a landing pile of boxes
// most tries are undone (the active rows' near-null directions, projected onto the cones), and
// longer ones cost more (docs/measurements.md).
constexpr int kSubspaceProductsPerSweep = 1;

const ContactBody& bodyAt(const std::vector<ContactBody>& bodies, int index) {
  return index == kWorld ? kImmovable : bodies[static_cast<std::size_t>(index)];
}

Contact pairOf(const std::vector<ContactBody>& bodies, const PersistentContact& c) {
  return {bodyAt(bodies, c.bodyA), bodyAt(bodies, c.bodyB), c.point, c.normal};
}

void validate(const std::vector<ContactBody>& bodies,
              const std::vector<PersistentContact>& contacts,
              const PersistentContactSettings& settings) {
  if (settings.maxIterations < 1) {
    throw Error("PersistentContactSettings.maxIterations must be at least 1");
  }
  if (!(settings.tolerance > 0.0) || !std::isfinite(settings.tolerance)) {
    throw Error("PersistentContactSettings.tolerance must be finite and positive");
  }
  if (settings.stallSweeps < 1) {
    throw Error("PersistentContactSettings.stallSweeps must be at least 1");
  }
  if (!(settings.settledBelow >= 0.0) || !std::isfinite(settings.settledBelow)) {
    throw Error("PersistentContactSettings.settledBelow must be finite and not negative");
  }
  if (settings.settledStallSweeps < 1) {
    throw Error("PersistentContactSettings.settledStallSweeps must be at least 1");
  }
  if (!(settings.crawlAbove > 0.0)) {
    throw Error("PersistentContactSettings.crawlAbove must be positive (+infinity: never)");
  }
  if (settings.subspaceSolves < 0) {
    throw Error("PersistentContactSettings.subspaceSolves must not be negative");
  }
  const int count = static_cast<int>(bodies.size());
  // Each body checked once, at its first contact: a pile's bodies have ten contacts each.
  std::vector<bool> checked(bodies.size(), false);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const PersistentContact& c = contacts[i];
    // Built only to throw: a landing's hold validates a few hundred contacts.
    const auto name = [i] { return "persistent contact " + std::to_string(i); };
    for (int index : {c.bodyA, c.bodyB}) {
      if (index != kWorld && (index < 0 || index >= count)) {
        throw Error(name() + ": body index " + std::to_string(index) + " is out of range");
      }
    }
    if (c.bodyA == c.bodyB) throw Error(name() + ": a body cannot touch itself");
    if (!std::isfinite(c.friction) || c.friction < 0.0) {
      throw Error(name() + ": friction must be finite and non-negative");
    }
    if (!std::isfinite(c.approach)) {
      throw Error(name() + ": the allowed approach speed must be finite");
    }
    if (!c.impulse.allFinite()) throw Error(name() + ": warm-start impulse is not finite");
    try {
      for (const auto& [index, role] : {std::pair{c.bodyA, "A"}, std::pair{c.bodyB, "B"}}) {
        if (index == kWorld || checked[index]) continue;
        impact::validateContactBody(bodies[index], role);
        checked[index] = true;
      }
      impact::validateContactGeometry(pairOf(bodies, c));
    } catch (const Error& e) {
      throw Error(name() + ": " + e.what());
    }
  }
}

}  // namespace

struct PersistentContactWorkspace::Buffers {
  std::vector<Vec3> v, w;  // the bodies' velocities during the solve
  std::vector<double> reach, moved;
  std::vector<SweepContact> sweep;
  std::vector<Vec3> lambda;
  std::vector<char> fresh, changed;  // flags, not std::vector<bool>: read and set every sweep
  // Per contact, what a sweep reads to decide a skip, kept apart from its SweepContact (about 800
  // bytes): a sweep of a large island that skips most contacts reads these alone.
  struct Seen {
    int a, b;               // its bodies
    double movedA, movedB;  // their `moved` when its last solve left it as it was
  };
  std::vector<Seen> seen;
  std::vector<Vec3> vStart, wStart;
  std::vector<double> movedStart, lowestAtTest;
  std::vector<int> involved;  // the bodies the contacts join, each once
  std::vector<char> joined;   // per body: whether it is in `involved`
  std::vector<Vec3> step, direction;
  std::vector<std::size_t> stepped, directed;
  std::vector<int> weight;  // per contact, the momentum's multiple of its move
  std::vector<Vec3> moves;  // a momentum move's or a subspace step's
  std::vector<Vec3> linearImpulse, angularImpulse;  // per body, in a move's try
  std::vector<double> movedInTry;
  std::vector<Vec3> u;
  std::vector<std::size_t> changing;
  std::vector<std::size_t> order;  // of the contacts in a sweep (sweepOrder)
  // Per place in `order`: whether its contact and the next are solved side by side (apart).
  std::vector<char> pairedWithNext;
  SweepOrderScratch orderScratch;

  // Room in the buffers refilled per body and per contact at each solve (reserveGrowing).
  void reserveFor(std::size_t bodies, std::size_t contacts) {
    reserveGrowingAll(bodies, reach, moved, movedStart, movedInTry, vStart, wStart, linearImpulse,
                      angularImpulse, joined);
    reserveGrowingAll(contacts, sweep, fresh, changed, seen, step, direction, weight,
                      pairedWithNext);
  }
};

PersistentContactWorkspace::PersistentContactWorkspace() : buffers_(std::make_unique<Buffers>()) {}
PersistentContactWorkspace::~PersistentContactWorkspace() = default;
PersistentContactWorkspace::PersistentContactWorkspace(const PersistentContactWorkspace&)
    : PersistentContactWorkspace() {}
PersistentContactWorkspace& PersistentContactWorkspace::operator=(
    const PersistentContactWorkspace&) {
  return *this;
}

const char* toString(PersistentContactStatus status) {
  switch (status) {
    case PersistentContactStatus::kConverged:
      return "converged";
    case PersistentContactStatus::kIterationLimit:
      return "iteration limit reached";
    case PersistentContactStatus::kStalled:
      return "stalled";
  }
  return "unknown";
}

PersistentContactReport solvePersistentContacts(std::vector<ContactBody>& bodies,
                                                std::vector<PersistentContact>& contacts,
                                                const PersistentContactSettings& settings) {
  PersistentContactWorkspace workspace;
  return solvePersistentContacts(bodies, contacts, settings, workspace);
}

PersistentContactReport solvePersistentContacts(std::vector<ContactBody>& bodies,
                                                std::vector<PersistentContact>& contacts,
                                                const PersistentContactSettings& settings,
                                                PersistentContactWorkspace& workspace) {
  validate(bodies, contacts, settings);
  PersistentContactWorkspace::Buffers& buffers = workspace.buffers();
  buffers.reserveFor(bodies.size(), contacts.size());
  std::vector<Vec3>& v = buffers.v;  // the bodies' velocities during the solve
  std::vector<Vec3>& w = buffers.w;
  v.clear();
  w.clear();
  for (const ContactBody& body : bodies) {
    v.push_back(body.linearVelocity);
    w.push_back(body.angularVelocity);
  }
  // A contact is solved again only once its relative velocity may have changed by more than the
  // tolerance since its last solve left it as it was; until then a solve would change nothing.
  // A body's `moved` sums |Δv| + |Δω| reach over the impulses applied to it, a bound on how much
  // the relative velocity at any of its contacts has changed (|Δω × r| ≤ |Δω| |r|). After a
  // disturbance (a body landing on a pile, with a warm start exact elsewhere) the sweeps then work
  // where the motion changes, not over the whole island.
  std::vector<double>& reach = buffers.reach;
  std::vector<double>& moved = buffers.moved;
  reach.assign(bodies.size(), 0.0);
  moved.assign(bodies.size(), 0.0);
  // Only the bodies a contact joins change: the per-sweep work over bodies reads those alone (a
  // landing holds one contact group of an island, its bodies passed whole).
  std::vector<int>& involved = buffers.involved;
  std::vector<char>& joined = buffers.joined;
  involved.clear();
  joined.assign(bodies.size(), false);
  for (const PersistentContact& c : contacts) {
    for (const int index : {c.bodyA, c.bodyB}) {
      if (index == kWorld) continue;
      reach[index] = std::max(reach[index], (c.point - bodies[index].centerOfMass).norm());
      if (!joined[index]) {
        joined[index] = true;
        involved.push_back(index);
      }
    }
  }
  // In index order, so that sums over them add in the order of a sum over all bodies.
  std::sort(involved.begin(), involved.end());
  const auto totalEnergy = [&] {  // each body paired with the world, which adds nothing
    double energy = 0.0;
    for (const int index : involved)
      energy += impact::kineticEnergy({bodies[index], kImmovable});
    return energy;
  };
  const double energyBefore = totalEnergy();
  const auto movedOf = [&](int index) { return index == kWorld ? 0.0 : moved[index]; };
  // A contact-frame impulse of size |λ| on a body: its bound |Δv| + |Δω| reach, |Δω| bounded by
  // the turn's Frobenius norm times |λ|, which spares a square root per body.
  const auto moveBound = [&](int index, double inverseMass, double turnBound, double size) {
    return (inverseMass + turnBound * reach[index]) * size;
  };
  // The contact-frame impulse λ on B and −λ on A: Δv = P/m, Δω = J⁻¹ (r × P). Returns the bound
  // |Δv| + |Δω| reach summed over its bodies, each body's part added to its `moved`.
  const auto applyImpulse = [&](const SweepContact& c, const Vec3& lambda) {
    const double size = lambda.norm();
    const auto kick = [&](int index, double inverseMass, double turnBound, const Vec3& dv,
                          const Vec3& dw) {
      v[index] += dv;
      w[index] += dw;
      const double bound = moveBound(index, inverseMass, turnBound, size);
      moved[index] += bound;
      return bound;
    };
    const Vec3 impulse = c.frame * lambda;  // world frame
    double bound = 0.0;
    if (c.b != kWorld) {
      bound += kick(c.b, c.inverseMassB, c.turnBoundB, c.inverseMassB * impulse, c.turnB * lambda);
    }
    if (c.a != kWorld) {
      bound +=
          kick(c.a, c.inverseMassA, c.turnBoundA, -c.inverseMassA * impulse, -(c.turnA * lambda));
    }
    return bound;
  };
  std::vector<SweepContact>& sweep = buffers.sweep;
  std::vector<Vec3>& lambda = buffers.lambda;  // the impulses in their contact frames
  sweep.clear();
  lambda.clear();
  for (const PersistentContact& c : contacts) {  // the warm start first
    sweep.emplace_back(c, bodyAt(bodies, c.bodyA), bodyAt(bodies, c.bodyB));
    lambda.push_back(sweep.back().frame.transpose() * c.impulse);
    applyImpulse(sweep.back(), lambda.back());
  }
  std::vector<std::size_t>& order = buffers.order;
  sweepOrder(sweep, bodies.size(), buffers.orderScratch, order);
  // Neighbours in the order that share no body, paired from the front: a sweep solves each pair
  // side by side (below).
  std::vector<char>& pairedWithNext = buffers.pairedWithNext;
  pairedWithNext.assign(order.size(), 0);
  for (std::size_t p = 0; p + 1 < order.size(); ++p) {
    if (!apart(sweep[order[p]], sweep[order[p + 1]])) continue;
    pairedWithNext[p] = 1;
    ++p;
  }
  // Movement is counted from the warm start on: the sums stay small, their differences exact.
  std::fill(moved.begin(), moved.end(), 0.0);
  // Per contact: whether its last solve left it as it was, and its bodies' `moved` then.
  std::vector<char>& fresh = buffers.fresh;
  std::vector<char>& changed = buffers.changed;
  std::vector<PersistentContactWorkspace::Buffers::Seen>& seen = buffers.seen;
  fresh.assign(contacts.size(), false);
  changed.assign(contacts.size(), false);
  seen.clear();
  for (const SweepContact& s : sweep)
    seen.push_back({s.a, s.b, 0.0, 0.0});

  PersistentContactReport report;
  report.status = PersistentContactStatus::kIterationLimit;
  std::vector<Vec3>& vStart = buffers.vStart;
  std::vector<Vec3>& wStart = buffers.wStart;
  std::vector<double>& movedStart = buffers.movedStart;
  vStart.resize(bodies.size());  // set at each test sweep, for the involved bodies
  wStart.resize(bodies.size());
  movedStart.resize(bodies.size());
  // The largest change per sweep when it last fell by 1 %, and that sweep (settings.stallSweeps).
  double progressTo = std::numeric_limits<double>::infinity();
  int progressAt = 0;
  // The lowest largest change so far at each test, the k-th at sweep 4k (settings.crawlAbove).
  std::vector<double>& lowestAtTest = buffers.lowestAtTest;
  lowestAtTest.clear();
  // Nonsmooth nonlinear conjugate gradient (NNCG; Silcowitz, Niebe & Erleben 2010): after a sweep
  // the impulses move on along the conjugate direction p, p ← Δλ + βp with β = ‖Δλ‖² / ‖Δλ_prev‖²
  // (Fletcher–Reeves) of the sweeps' changes Δλ, restarted (p = 0) when a sweep changed more than
  // the one before. Where loads must travel down a stack, Gauss–Seidel moves them a layer per sweep
  // and its change per sweep stagnates; the momentum carries them further. The move is projected
  // onto the friction cones, and undone (and p restarted) where it would raise the kinetic energy.
  // The convergence test measures the sweep alone, after the move: its fixed points are the LCP's
  // solutions.
  // A contact's move is taken `weight` times, its weight the sweeps that have stepped it since it
  // joined p, and p decays by β^weight: an over-relaxation of the momentum that the piles rely on
  // (taken once per contact, stacks creep past the tests' bounds and a stall is reported sweeps
  // later: docs/measurements.md, "The lcp step's sweeps and memory").
  std::vector<Vec3>& step = buffers.step;                 // Δλ of the sweep
  std::vector<Vec3>& direction = buffers.direction;       // p
  std::vector<std::size_t>& stepped = buffers.stepped;    // the contacts with Δλ ≠ 0
  std::vector<std::size_t>& directed = buffers.directed;  // the contacts with p ≠ 0
  std::vector<int>& weight = buffers.weight;              // 0 for a contact not in `directed`
  step.assign(contacts.size(), Vec3::Zero());
  direction.assign(contacts.size(), Vec3::Zero());
  stepped.clear();
  directed.clear();
  weight.assign(contacts.size(), 0);
  // A momentum move's or a subspace step's impulse changes (contact frame).
  std::vector<Vec3>& trialMoves = buffers.moves;
  double lastStepNorm = 0.0;
  // Applies `moves` (contact-frame impulse changes) at contacts `indices` where they lower the
  // kinetic energy T (plus Σ c ΔP_n `withAllowance`), and returns whether they did. The moves'
  // linear and angular impulse on each body, Δp and ΔL, are summed first: T changes by
  // Σ_b Δp_b·(v_b + Δv_b/2) + ΔL_b·(ω_b + Δω_b/2), Δv = Δp/m and Δω = J⁻¹ΔL, exactly (T is
  // quadratic), so a move that fails the test costs no velocity update and nothing to undo.
  std::vector<Vec3>& linearImpulse = buffers.linearImpulse;
  std::vector<Vec3>& angularImpulse = buffers.angularImpulse;
  // Each body's part of the moves' bounds (moveBound), added to `moved` where they are kept.
  std::vector<double>& movedInTry = buffers.movedInTry;
  linearImpulse.resize(bodies.size());  // set for the involved bodies at each try
  angularImpulse.resize(bodies.size());
  movedInTry.resize(bodies.size());
  const auto tryMoves = [&](const std::vector<std::size_t>& indices, const std::vector<Vec3>& moves,
                            bool withAllowance) {
    for (const int b : involved) {
      linearImpulse[b] = Vec3::Zero();
      angularImpulse[b] = Vec3::Zero();
      movedInTry[b] = 0.0;
    }
    double change = 0.0;
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const SweepContact& s = sweep[indices[k]];
      const Vec3 impulse = s.frame * moves[k];  // on B, and −impulse on A
      const double size = moves[k].norm();
      if (s.b != kWorld) {
        linearImpulse[s.b] += impulse;
        angularImpulse[s.b] += s.armB * moves[k];
        movedInTry[s.b] += moveBound(s.b, s.inverseMassB, s.turnBoundB, size);
      }
      if (s.a != kWorld) {
        linearImpulse[s.a] -= impulse;
        angularImpulse[s.a] -= s.armA * moves[k];
        movedInTry[s.a] += moveBound(s.a, s.inverseMassA, s.turnBoundA, size);
      }
      if (withAllowance) change += contacts[indices[k]].approach * moves[k](0);
    }
    const auto turnOf = [&](int b) -> Vec3 {
      return bodies[b].inverseInertiaWorld * angularImpulse[b];
    };
    for (const int b : involved) {
      change += linearImpulse[b].dot(v[b] + 0.5 * bodies[b].inverseMass * linearImpulse[b]) +
                angularImpulse[b].dot(w[b] + 0.5 * turnOf(b));
    }
    if (!(change <= 0.0)) return false;
    for (const int b : involved) {
      v[b] += bodies[b].inverseMass * linearImpulse[b];
      w[b] += turnOf(b);
      moved[b] += movedInTry[b];
    }
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const std::size_t i = indices[k];
      if (moves[k] != Vec3::Zero()) {
        lambda[i] += moves[k];
        changed[i] = true;
        fresh[i] = false;
      }
    }
    return true;
  };
  const auto restartMomentum = [&] {
    for (const std::size_t i : directed) {
      direction[i] = Vec3::Zero();
      weight[i] = 0;
    }
    directed.clear();
    for (const std::size_t i : stepped)
      step[i] = Vec3::Zero();
    stepped.clear();
  };
  const auto moveOn = [&] {
    double stepNorm = 0.0;
    for (const std::size_t i : stepped)
      stepNorm += step[i].squaredNorm();
    const double beta = lastStepNorm > 0.0 ? stepNorm / lastStepNorm : 0.0;
    lastStepNorm = stepNorm;
    bool restart = !(beta <= 1.0);
    if (!restart && beta > 0.0) {
      trialMoves.clear();
      for (const std::size_t i : directed) {
        trialMoves.push_back(
            weight[i] *
            (onFrictionCone(lambda[i] + beta * direction[i], contacts[i].friction) - lambda[i]));
      }
      restart = !tryMoves(directed, trialMoves, false);
    }
    if (restart) {
      restartMomentum();
      return;
    }
    for (const std::size_t i : directed) {
      double decay = beta;  // β^weight, weight a few sweeps at most
      for (int k = 1; k < weight[i]; ++k)
        decay *= beta;
      direction[i] *= decay;
    }
    for (const std::size_t i : stepped) {
      direction[i] += step[i];
      if (weight[i]++ == 0) directed.push_back(i);
      step[i] = Vec3::Zero();
    }
    stepped.clear();
    directed.erase(std::remove_if(directed.begin(), directed.end(),
                                  [&](std::size_t i) {
                                    if (direction[i] != Vec3::Zero()) return false;
                                    weight[i] = 0;
                                    return true;
                                  }),
                   directed.end());
  };
  // Every contact's relative velocity at the bodies' current velocities, in buffers.u.
  const auto relativeVelocities = [&]() -> const std::vector<Vec3>& {
    buffers.u.clear();
    for (const SweepContact& s : sweep)
      buffers.u.push_back(relativeVelocityOf(v, w, s));
    return buffers.u;
  };
  // Subspace minimisation (subspace_step.h): the active rows solved at once, the result projected
  // onto the friction cones; kept where it lowers T + Σ c P_n, which every local solve of a sweep
  // lowers too (T the bodies' kinetic energy, its change measured by tryMoves), else undone: where
  // the sweeps have not yet found the active set, the exact solve of a wrong one can throw impulses
  // along nearly redundant contacts. Returns whether it was kept.
  const auto solveSubspace = [&](SubspaceMethod method, int maxProducts) {
    const std::vector<Vec3>& u = relativeVelocities();
    const std::optional<std::vector<Vec3>> change =
        subspaceStep(sweep, contacts, lambda, u, bodies, method, maxProducts, settings.tolerance);
    if (!change) return false;
    std::vector<std::size_t>& changing = buffers.changing;  // the contacts the solve changes
    changing.clear();
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      if ((*change)[i] == Vec3::Zero()) continue;
      changing.push_back(i);
    }
    // Along the solve's change, halved until the merit falls: projected onto the cones, a step
    // through a wrong active set can raise it, a shorter one less so.
    for (double fraction = 1.0; fraction >= kShortestSubspaceStep; fraction *= 0.5) {
      trialMoves.clear();
      for (const std::size_t i : changing) {
        trialMoves.push_back(
            onFrictionCone(lambda[i] + fraction * (*change)[i], contacts[i].friction) - lambda[i]);
      }
      if (tryMoves(changing, trialMoves, true)) return true;
    }
    return false;
  };
  // A resting start (settings.restingStart), from a cold start only: every contact that may not
  // close (c ≤ 0) held pressed and sticking at once, by the direct subspace step from zero
  // impulses, the least-norm impulses that stop them all; a contact it leaves pulling is let go,
  // one whose friction it puts outside the cone is held by its normal alone, and the rest solved
  // again. Projected onto the cones and kept where it lowers the merit, as a subspace step.
  // Returns whether it was kept.
  const auto restingStart = [&] {
    std::vector<Vec3> pressed(contacts.size(), Vec3::Zero());  // active rows: (1, 0, 0) sticks
    for (std::size_t i = 0; i < contacts.size(); ++i)
      if (contacts[i].approach <= 0.0) pressed[i] = Vec3::UnitX();
    const std::vector<Vec3>& u = relativeVelocities();
    std::optional<std::vector<Vec3>> impulses;
    for (int pass = 0; pass < kRestingStartPasses; ++pass) {
      impulses = subspaceStep(sweep, contacts, pressed, u, bodies, SubspaceMethod::kDirect, 0,
                              settings.tolerance);
      if (!impulses) return false;
      bool leaving = false;  // a contact pulls, or its friction leaves its cone
      for (std::size_t i = 0; i < contacts.size(); ++i) {
        if (pressed[i](0) > 0.0 && (*impulses)[i](0) < 0.0) {
          pressed[i] = Vec3::Zero();
          leaving = true;
        } else if (pressed[i](1) == 0.0 &&
                   (*impulses)[i].tail<2>().norm() > contacts[i].friction * (*impulses)[i](0)) {
          // Beyond its cone: held by its normal row alone (an impulse outside the cone marks it
          // sliding, subspace_step.h), with no friction until the sweeps give it its own.
          pressed[i] = Vec3(1.0, 1.0 + 2.0 * contacts[i].friction, 0.0);
          leaving = true;
        }
      }
      if (!leaving) break;
    }
    std::vector<std::size_t>& changing = buffers.changing;
    changing.clear();
    trialMoves.clear();
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      if ((*impulses)[i] == Vec3::Zero()) continue;
      changing.push_back(i);
      trialMoves.push_back(onFrictionCone((*impulses)[i], contacts[i].friction));
    }
    return tryMoves(changing, trialMoves, true);
  };
  // Cold: no warm-start impulse at all. Asked only where the setting is on: every solve passes
  // here.
  const auto cold = [&] {
    return std::all_of(contacts.begin(), contacts.end(),
                       [](const PersistentContact& c) { return c.impulse == Vec3::Zero(); });
  };
  if (settings.restingStart && !contacts.empty() && cold()) report.restingStart = restingStart();
  // Whether a stall or a crawl can be judged before the cap: only they need the largest change of
  // a test sweep; otherwise the first contact that changed by more than the tolerance settles the
  // test (a solve of a few sweeps, as the lcp mode's per step, tests four times).
  const int shortestStall = settings.settledBelow > 0.0
                                ? std::min(settings.stallSweeps, settings.settledStallSweeps)
                                : settings.stallSweeps;
  const bool progressJudged =
      settings.maxIterations > shortestStall ||
      (settings.maxIterations >= kFirstCrawlJudgement && std::isfinite(settings.crawlAbove));
  int subspaceTriesLeft = settings.subspaceSolves, nextSubspaceTry = 8;
  // settings.subspaceMethod until one of its direct steps is undone, then conjugate gradients.
  SubspaceMethod subspaceMethod = settings.subspaceMethod;
  // A contact's solve in a sweep (below): whether it needs one, the local solve at its relative
  // velocity u, and taking the solve's impulse.
  const auto needsSolve = [&](std::size_t i) {
    const PersistentContactWorkspace::Buffers::Seen& last = seen[i];
    return !(fresh[i] &&
             movedOf(last.a) - last.movedA + (movedOf(last.b) - last.movedB) <= settings.tolerance);
  };
  const auto localSolve = [&](std::size_t i, const Vec3& u) {
    return solveLocal(sweep[i], u, lambda[i], contacts[i].friction, contacts[i].approach,
                      settings.stickingBlocks);
  };
  const auto takeSolve = [&](std::size_t i, const Vec3& next) {
    const SweepContact& s = sweep[i];
    const Vec3 change = next - lambda[i];
    // Compared entry by entry, cheaper here than Eigen's comparison of vectors.
    const bool moving = change.x() != 0.0 || change.y() != 0.0 || change.z() != 0.0;
    lambda[i] = next;
    if (moving) {
      changed[i] = true;
      if (settings.momentum) step[i] = change;
    }
    // The local solve is one staggered step (normal, then friction), not the solution of the
    // contact's own problem: it is fresh only once a solve no longer moves it.
    fresh[i] = !moving || applyImpulse(s, change) <= settings.tolerance;
    PersistentContactWorkspace::Buffers::Seen& last = seen[i];
    last.movedA = movedOf(s.a);
    last.movedB = movedOf(s.b);
  };
  for (int iteration = 1; iteration <= settings.maxIterations; ++iteration) {
    report.iterations = iteration;
    // Tested after the first sweep (a warm start from the solution stops there) and every fourth:
    // the test costs a third of a sweep, and a few sweeps more than needed change nothing.
    const bool test = iteration == 1 || iteration % 4 == 0 || iteration == settings.maxIterations;
    if (test) {
      for (const int index : involved) {
        vStart[index] = v[index];
        wStart[index] = w[index];
        movedStart[index] = moved[index];
      }
    }
    bool solved = false;
    // Two neighbours in the order that share no body are solved side by side, each step of the
    // one beside the same step of the other: a local solve is a chain of dependent operations
    // (its bodies' velocities, the solve, the impulse back onto them), and two independent chains
    // next to each other overlap in the processor where one after the other they barely did.
    // Each contact's arithmetic and what it reads are those of the one-by-one sweep, so the sweep
    // is the same to the bit.
    for (std::size_t position = 0; position < order.size();) {
      const std::size_t i = order[position];
      const bool paired = pairedWithNext[position] != 0;
      const std::size_t j = paired ? order[position + 1] : i;
      position += paired ? 2 : 1;
      const bool solveI = needsSolve(i), solveJ = paired && needsSolve(j);
      if (solveI && solveJ) {
        const Vec3 uI = relativeVelocityOf(v, w, sweep[i]), uJ = relativeVelocityOf(v, w, sweep[j]);
        const Vec3 nextI = localSolve(i, uI), nextJ = localSolve(j, uJ);
        takeSolve(i, nextI);
        takeSolve(j, nextJ);
      } else if (solveI || solveJ) {
        const std::size_t one = solveI ? i : j;
        takeSolve(one, localSolve(one, relativeVelocityOf(v, w, sweep[one])));
      }
      solved = solved || solveI || solveJ;
    }
    // The momentum's contacts in index order, whatever the sweep's: its sums (β's norms) add in
    // that order.
    if (settings.momentum) {
      stepped.clear();
      for (std::size_t i = 0; i < contacts.size(); ++i)
        if (step[i] != Vec3::Zero()) stepped.push_back(i);
    }
    if (!solved) {  // every contact is as its solve would leave it
      report.status = PersistentContactStatus::kConverged;
      break;
    }
    if (!test) {
      if (settings.momentum) moveOn();
      continue;
    }
    // Also converged when no contact's relative velocity changed by more than the tolerance over
    // the whole sweep: where contacts are redundant the impulses shift among them, each shift
    // moving its own contact, long after the motion has settled.
    for (const int index : involved) {
      vStart[index] = v[index] - vStart[index];
      wStart[index] = w[index] - wStart[index];
    }
    // A contact neither of whose bodies took an impulse in the sweep (their `moved` unchanged)
    // kept its relative velocity exactly.
    const auto movedInSweep = [&](int index) {
      return index != kWorld && moved[index] != movedStart[index];
    };
    double largestChange = 0.0;  // of a contact's relative velocity (m/s)
    for (const SweepContact& s : sweep) {
      if (movedInSweep(s.a) || movedInSweep(s.b))
        largestChange = std::max(largestChange, relativeVelocityOf(vStart, wStart, s).norm());
      if (!progressJudged && largestChange > settings.tolerance) break;
    }
    if (largestChange <= settings.tolerance) {
      report.status = PersistentContactStatus::kConverged;
      break;
    }
    lowestAtTest.push_back(lowestAtTest.empty() ? largestChange
                                                : std::min(largestChange, lowestAtTest.back()));
    const int stallWindow =
        progressTo < settings.settledBelow ? settings.settledStallSweeps : settings.stallSweeps;
    if (largestChange <= 0.99 * progressTo) {
      progressTo = largestChange;
      progressAt = iteration;
    } else if (iteration - progressAt >= stallWindow) {
      report.status = PersistentContactStatus::kStalled;
      std::ostringstream message;
      message << "persistent contacts: stalled after " << iteration
              << " sweeps (the velocity change per sweep, " << std::setprecision(3) << largestChange
              << " m/s, has not fallen by 1 % in " << stallWindow << ")";
      report.message = message.str();
      break;
    }
    const double lowest = lowestAtTest.back();
    if (iteration >= kFirstCrawlJudgement && iteration % 32 == 0 && lowest > settings.crawlAbove) {
      // The rate per sweep over the second half, and the sweeps it would take to the tolerance.
      const double halfway = lowestAtTest[static_cast<std::size_t>(iteration / 8)];
      const double rate = std::log(lowest / halfway) / (iteration / 2);
      const double needed = std::log(settings.tolerance / lowest) / rate;
      if (!(rate < 0.0) || iteration + needed > settings.maxIterations) {
        report.status = PersistentContactStatus::kStalled;
        std::ostringstream message;
        message << "persistent contacts: crawling after " << iteration
                << " sweeps (the velocity change per sweep fell from " << std::setprecision(3)
                << halfway << " to " << lowest << " m/s over the last " << iteration / 2
                << "; the tolerance is beyond the cap of " << settings.maxIterations << ")";
        report.message = message.str();
        break;
      }
    }
    // Tried after 8, 16, 32, … sweeps, until one is undone: a warm start that converges within a
    // few sweeps needs none, and where the sweeps have not found the active set by then (contacts
    // sliding and sticking by turns in a pile of mixed shapes) the tries cost and did not help.
    // Where a direct step is undone, the sweeps' active set is still wrong and the shorter,
    // smoother conjugate-gradient step is tried in its place.
    if (iteration == nextSubspaceTry && subspaceTriesLeft > 0) {
      --subspaceTriesLeft;
      nextSubspaceTry *= 2;
      const int products = kSubspaceProductsPerSweep * iteration;
      bool kept = solveSubspace(subspaceMethod, products);
      if (!kept && subspaceMethod == SubspaceMethod::kDirect) {
        subspaceMethod = SubspaceMethod::kConjugateGradients;
        kept = solveSubspace(subspaceMethod, products);
      }
      if (kept) {
        ++report.subspaceSolves;
        restartMomentum();
        lastStepNorm = 0.0;
        continue;
      }
      subspaceTriesLeft = 0;
    }
    if (settings.momentum) moveOn();
  }
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (changed[i]) contacts[i].impulse = sweep[i].frame * lambda[i];  // else exactly the start
    const double rate = -(relativeVelocityOf(v, w, sweep[i])(0) + contacts[i].approach);
    if (rate > report.penetrationRate) {
      report.penetrationRate = rate;
      report.penetratingContact = static_cast<int>(i);
    }
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].linearVelocity = v[i];
    bodies[i].angularVelocity = w[i];
  }
  report.energyChange = totalEnergy() - energyBefore;
  if (report.status == PersistentContactStatus::kIterationLimit) {
    report.message = "persistent contacts: no convergence in " +
                     std::to_string(settings.maxIterations) + " sweeps";
  }
  return report;
}

}  // namespace carom::core::contact
