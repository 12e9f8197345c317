#include "carom/core/contact/persistent_contact.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "carom/error.h"

namespace carom::core::contact {
namespace {

using impact::Contact;
using impact::ContactBody;

const ContactBody kImmovable{};  // the world: zero inverse mass and inertia

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
  const int count = static_cast<int>(bodies.size());
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
    if (!std::isfinite(c.approach) || c.approach < 0.0) {
      throw Error(name() + ": the allowed approach speed must be finite and non-negative");
    }
    if (!c.impulse.allFinite()) throw Error(name() + ": warm-start impulse is not finite");
    try {
      impact::validateContact(pairOf(bodies, c));
    } catch (const Error& e) {
      throw Error(name() + ": " + e.what());
    }
  }
}

// One contact's problem with the others' impulses frozen: relative velocity u(P) = u0 + K(P − P0)
// for the impulse P on B. Normal first, then friction (the staggered projected Gauss–Seidel of
// rigid-body engines), each a descent step on the kinetic energy:
//   P_n ← max(0, P_n − (u_n + c) / K_nn), the exact minimiser along n;
//   P_t ← the exact sticking impulse K_tt⁻¹ if it lies in the disk ‖P_t‖ ≤ μP_n, otherwise
//         proj_disk(P_t − u_t / k), k the largest eigenvalue of K_tt: a projected gradient step
//         whose fixed points on the rim have u_t ∥ −P_t, i.e. Coulomb's maximal dissipation
//         (a K_tt⁻¹-scaled step would make u_t ∥ −K_tt P_t instead).
// Everything is in the contact frame (n, t₁, t₂) and what does not change during the solve (the
// bodies do not move) is computed once: a sweep then costs a few 3-vector products per contact.
struct SweepContact {
  SweepContact(const PersistentContact& c, const Contact& pair)
      : a(c.bodyA), b(c.bodyB), inverseMassA(pair.a.inverseMass), inverseMassB(pair.b.inverseMass) {
    frame.col(0) = c.normal;
    frame.col(1) = c.normal.unitOrthogonal();
    frame.col(2) = c.normal.cross(frame.col(1));
    for (int k = 0; k < 3; ++k) {
      armA.col(k) = (c.point - pair.a.centerOfMass).cross(frame.col(k));
      armB.col(k) = (c.point - pair.b.centerOfMass).cross(frame.col(k));
    }
    turnA = pair.a.inverseInertiaWorld * armA;
    turnB = pair.b.inverseInertiaWorld * armB;
    K = frame.transpose() * impact::inverseMassMatrix(pair) * frame;
    const Eigen::Matrix2d ktt = K.bottomRightCorner<2, 2>();
    stick = ktt.inverse();  // K_tt is positive definite: a contact has a body with mass
    const double half = 0.5 * (ktt(0, 0) + ktt(1, 1));
    largestTangential = half + std::hypot(0.5 * (ktt(0, 0) - ktt(1, 1)), ktt(0, 1));
  }
  int a, b;
  double inverseMassA, inverseMassB;
  Mat3 frame;                // columns n, t₁, t₂ (world)
  Mat3 armA, armB;           // columns r × d_k, r = p − x: u along d_k gains ω·(r × d_k)
  Mat3 turnA, turnB;         // columns J⁻¹(r × d_k): the turn per unit impulse along d_k
  Mat3 K;                    // the Delassus matrix in the contact frame
  Eigen::Matrix2d stick;     // K_tt⁻¹, K_tt the tangential block
  double largestTangential;  // K_tt's largest eigenvalue
};

// The contact-frame impulse after the local solve, from λ0 with relative velocity u0 (contact
// frame).
Vec3 solveLocal(const SweepContact& s, const Vec3& u0, const Vec3& lambda0, double mu,
                double approach) {
  const double pn = std::max(0.0, lambda0(0) - (u0(0) + approach) / s.K(0, 0));
  const Vec3 u = u0 + s.K.col(0) * (pn - lambda0(0));  // the normal update, tangents unchanged
  const Eigen::Vector2d pt = lambda0.tail<2>(), ut = u.tail<2>();
  const double radius = mu * pn;
  Eigen::Vector2d next = pt - s.stick * ut;
  if (next.norm() > radius) {
    next = pt - ut / s.largestTangential;
    if (next.norm() > radius) next *= radius / next.norm();
  }
  return {pn, next(0), next(1)};
}

// The nearest impulse to λ (contact frame) with λ_n ≥ 0 and ‖λ_t‖ ≤ μ λ_n, the tangent scaled
// onto the disk.
Vec3 onFrictionCone(const Vec3& lambda, double mu) {
  const double pn = std::max(0.0, lambda(0));
  Eigen::Vector2d pt = lambda.tail<2>();
  const double radius = mu * pn;
  if (pt.norm() > radius) pt *= radius / pt.norm();
  return {pn, pt(0), pt(1)};
}

// The contact-frame relative velocity u = v_B + ω_B × r_B − (v_A + ω_A × r_A) of velocities
// v, ω indexed like the bodies (the world's are zero).
Vec3 relativeVelocityOf(const std::vector<Vec3>& v, const std::vector<Vec3>& w,
                        const SweepContact& c) {
  Vec3 u = Vec3::Zero();
  if (c.b != kWorld) u += c.frame.transpose() * v[c.b] + c.armB.transpose() * w[c.b];
  if (c.a != kWorld) u -= c.frame.transpose() * v[c.a] + c.armA.transpose() * w[c.a];
  return u;
}

}  // namespace

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
  validate(bodies, contacts, settings);
  const auto totalEnergy = [&] {  // each body paired with the world, which adds nothing
    double energy = 0.0;
    for (const ContactBody& body : bodies)
      energy += impact::kineticEnergy({body, kImmovable});
    return energy;
  };
  const double energyBefore = totalEnergy();
  std::vector<Vec3> v, w;  // the bodies' velocities during the solve
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
  std::vector<double> reach(bodies.size(), 0.0), moved(bodies.size(), 0.0);
  for (const PersistentContact& c : contacts) {
    for (const int index : {c.bodyA, c.bodyB}) {
      if (index != kWorld) {
        reach[index] = std::max(reach[index], (c.point - bodies[index].centerOfMass).norm());
      }
    }
  }
  const auto movedOf = [&](int index) { return index == kWorld ? 0.0 : moved[index]; };
  // The contact-frame impulse λ on B and −λ on A: Δv = P/m, Δω = J⁻¹ (r × P). Returns the bound
  // |Δv| + |Δω| reach summed over its bodies, each body's part added to its `moved`.
  const auto applyImpulse = [&](const SweepContact& c, const Vec3& lambda) {
    const auto kick = [&](int index, double inverseMass, const Vec3& dv, const Vec3& dw) {
      v[index] += dv;
      w[index] += dw;
      const double bound = inverseMass * lambda.norm() + dw.norm() * reach[index];
      moved[index] += bound;
      return bound;
    };
    double bound = 0.0;
    if (c.b != kWorld) {
      bound += kick(c.b, c.inverseMassB, c.inverseMassB * (c.frame * lambda), c.turnB * lambda);
    }
    if (c.a != kWorld) {
      bound += kick(c.a, c.inverseMassA, -c.inverseMassA * (c.frame * lambda), -(c.turnA * lambda));
    }
    return bound;
  };
  std::vector<SweepContact> sweep;
  std::vector<Vec3> lambda;  // the impulses in their contact frames
  sweep.reserve(contacts.size());
  for (const PersistentContact& c : contacts) {  // the warm start first
    sweep.emplace_back(c, pairOf(bodies, c));
    lambda.push_back(sweep.back().frame.transpose() * c.impulse);
    applyImpulse(sweep.back(), lambda.back());
  }
  // Movement is counted from the warm start on: the sums stay small, their differences exact.
  std::fill(moved.begin(), moved.end(), 0.0);
  // Per contact: whether its last solve left it as it was, and its bodies' `moved` then.
  std::vector<bool> fresh(contacts.size(), false), changed(contacts.size(), false);
  std::vector<double> seenA(contacts.size()), seenB(contacts.size());

  PersistentContactReport report;
  report.status = PersistentContactStatus::kIterationLimit;
  std::vector<Vec3> vStart, wStart;
  std::vector<double> movedStart;
  // The largest change per sweep when it last fell by 1 %, and that sweep (settings.stallSweeps).
  double progressTo = std::numeric_limits<double>::infinity();
  int progressAt = 0;
  // Nonsmooth nonlinear conjugate gradient (NNCG; Silcowitz, Niebe & Erleben 2010): after a sweep
  // the impulses move on along the conjugate direction p, p ← Δλ + βp with β = ‖Δλ‖² / ‖Δλ_prev‖²
  // (Fletcher–Reeves) of the sweeps' changes Δλ, restarted (p = 0) when a sweep changed more than
  // the one before. Where loads must travel down a stack, Gauss–Seidel moves them a layer per sweep
  // and its change per sweep stagnates: a cold ten-level pyramid of boxes took 50 724 sweeps in its
  // first 12 steps, 13 of its solves stalled; with the momentum its first 60 steps take 7 651, none
  // stalled (measured, variational mode). The move is projected onto the friction cones, and
  // undone (and p restarted) where it would raise the kinetic energy. The convergence test measures
  // the sweep alone, after the move: its fixed points are the LCP's solutions.
  std::vector<Vec3> step(contacts.size(), Vec3::Zero());       // Δλ of the sweep
  std::vector<Vec3> direction(contacts.size(), Vec3::Zero());  // p
  std::vector<std::size_t> stepped, directed;  // the contacts with Δλ ≠ 0, with p ≠ 0
  std::vector<bool> isDirected(contacts.size(), false);
  double lastStepNorm = 0.0;
  const auto moveOn = [&] {
    double stepNorm = 0.0;
    for (const std::size_t i : stepped)
      stepNorm += step[i].squaredNorm();
    const double beta = lastStepNorm > 0.0 ? stepNorm / lastStepNorm : 0.0;
    lastStepNorm = stepNorm;
    bool restart = !(beta <= 1.0);
    if (!restart && beta > 0.0) {
      std::vector<Vec3> moves, uBefore;
      for (const std::size_t i : directed) {
        moves.push_back(onFrictionCone(lambda[i] + beta * direction[i], contacts[i].friction) -
                        lambda[i]);
        uBefore.push_back(relativeVelocityOf(v, w, sweep[i]));
      }
      for (std::size_t k = 0; k < directed.size(); ++k)
        applyImpulse(sweep[directed[k]], moves[k]);
      double energyChange = 0.0;  // Σ Δλ·ū, ū the mean of the relative velocities before and after
      for (std::size_t k = 0; k < directed.size(); ++k) {
        const Vec3 mean = 0.5 * (uBefore[k] + relativeVelocityOf(v, w, sweep[directed[k]]));
        energyChange += moves[k].dot(mean);
      }
      restart = energyChange > 0.0;
      for (std::size_t k = 0; k < directed.size(); ++k) {
        const std::size_t i = directed[k];
        if (restart) {
          applyImpulse(sweep[i], -moves[k]);
        } else if (moves[k] != Vec3::Zero()) {
          lambda[i] += moves[k];
          changed[i] = true;
          fresh[i] = false;
        }
      }
    }
    for (const std::size_t i : directed) {
      direction[i] = restart ? Vec3::Zero() : (beta * direction[i]).eval();
      isDirected[i] = false;
    }
    if (restart) directed.clear();
    for (const std::size_t i : stepped) {
      if (!restart) {
        direction[i] += step[i];
        if (!isDirected[i]) directed.push_back(i);
      }
      step[i] = Vec3::Zero();
    }
    stepped.clear();
    directed.erase(std::remove_if(directed.begin(), directed.end(),
                                  [&](std::size_t i) { return direction[i] == Vec3::Zero(); }),
                   directed.end());
    for (const std::size_t i : directed)
      isDirected[i] = true;
  };
  for (int iteration = 1; iteration <= settings.maxIterations; ++iteration) {
    report.iterations = iteration;
    // Tested after the first sweep (a warm start from the solution stops there) and every fourth:
    // the test costs a third of a sweep, and a few sweeps more than needed change nothing.
    const bool test = iteration == 1 || iteration % 4 == 0 || iteration == settings.maxIterations;
    if (test) {
      vStart = v;
      wStart = w;
      movedStart = moved;
    }
    bool solved = false;
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      const SweepContact& s = sweep[i];
      if (fresh[i] && movedOf(s.a) - seenA[i] + (movedOf(s.b) - seenB[i]) <= settings.tolerance)
        continue;
      solved = true;
      const Vec3 next = solveLocal(s, relativeVelocityOf(v, w, s), lambda[i], contacts[i].friction,
                                   contacts[i].approach);
      const Vec3 change = next - lambda[i];
      changed[i] = changed[i] || change != Vec3::Zero();
      lambda[i] = next;
      if (settings.momentum && change != Vec3::Zero()) {
        step[i] = change;
        stepped.push_back(i);
      }
      // The local solve is one staggered step (normal, then friction), not the solution of the
      // contact's own problem: it is fresh only once a solve no longer moves it.
      fresh[i] = applyImpulse(s, change) <= settings.tolerance;
      seenA[i] = movedOf(s.a);
      seenB[i] = movedOf(s.b);
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
    for (std::size_t i = 0; i < v.size(); ++i) {
      vStart[i] = v[i] - vStart[i];
      wStart[i] = w[i] - wStart[i];
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
    }
    if (largestChange <= settings.tolerance) {
      report.status = PersistentContactStatus::kConverged;
      break;
    }
    if (largestChange <= 0.99 * progressTo) {
      progressTo = largestChange;
      progressAt = iteration;
    } else if (iteration - progressAt >= settings.stallSweeps) {
      report.status = PersistentContactStatus::kStalled;
      std::ostringstream message;
      message << "persistent contacts: stalled after " << iteration
              << " sweeps (the velocity change per sweep, " << std::setprecision(3) << largestChange
              << " m/s, has not fallen by 1 % in " << settings.stallSweeps << ")";
      report.message = message.str();
      break;
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
