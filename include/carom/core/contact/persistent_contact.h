// Persistent contacts (resting, sliding, stacking): one velocity-level problem per island with
// Coulomb friction (ARCHITECTURE.md "One step", item 5). The impacts are resolved before, by the
// impact laws; what reaches this solver approaches at most at the resting threshold, and it only
// has to keep the contacts closed without gaining energy.
//
// For every contact i with relative velocity u_i = v_B − v_A at its point (normal n_i from A into
// B) and allowed approach speed c_i it finds an impulse P_i on B (−P_i on A) such that,
// after all impulses,
//   u_n + c ≥ 0, P_n ≥ 0, (u_n + c) P_n = 0            (non-penetration at velocity level)
//   ‖P_t‖ ≤ μ P_n, and P_t = −μ P_n û_t when u_t ≠ 0   (Coulomb's law, maximal dissipation)
// by projected Gauss–Seidel over the contacts (normal, then friction; see the source), optionally
// accelerated by exact solves of the active rows (subspace minimisation). Where every c ≥ 0 a
// solution cannot gain energy: with u⁺ = u⁻ + AP (A the Delassus matrix), ΔT = P·u⁻ + ½PᵀAP =
// Σ P_i·u_i⁺ − ½PᵀAP, and both terms are ≤ 0 (P_i·u_i⁺ = −c P_n − μP_n‖u_t⁺‖ by the conditions
// above); a negative c gains at most Σ|c_i| P_n,i. The report gives ΔT, measured. The allowance
// c ≥ 0 is a speculative contact's: a point a gap g short of touching, held over a time τ, may
// still close at g/τ, and is pushed only to stop it going further (held as if touching, it would
// be propped up in the air). A negative c is a separation the contact must reach: a hold over τ
// of a pair whose gap closes at second order by κ (a normal turning with a spinning body), which
// c = −τκ keeps closed over the span (the variational step's turningClosure).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "carom/core/impact/contact.h"

namespace carom::core::contact {

/// Index of "the world": an immovable body that need not be listed.
inline constexpr int kWorld = -1;

struct PersistentContact {
  int bodyA = kWorld;  ///< index into the body list, or kWorld
  int bodyB = kWorld;
  Vec3 point = Vec3::Zero();    ///< world frame (m)
  Vec3 normal = Vec3::UnitZ();  ///< unit, from A into B
  double friction = 0.0;        ///< μ ≥ 0
  /// c: the normal speed at which it may still close (m/s); negative, the speed at which it must
  /// separate (a hold against a normal that turns into the contact at second order).
  double approach = 0.0;
  Vec3 impulse = Vec3::Zero();  ///< warm start on input (N s, on B); the solution on output
};

/// How a subspace minimisation (PersistentContactSettings::subspaceSolves) solves the rows the
/// sweeps have made active.
enum class SubspaceMethod {
  /// Matrix-free conjugate gradients, up to one product per sweep so far: a partial, smooth step.
  kConjugateGradients,
  /// Exactly, by one sparse factorisation over the bodies (six unknowns per body, however many
  /// contacts press on it); after one of its steps is undone, conjugate gradients for the rest of
  /// the solve. Where a light body is pressed by a heavy one, Gauss–Seidel converges at about
  /// 1 − m/M per sweep and conjugate gradients barely faster; the exact step holds the pair up to
  /// M/m of about 1e11. Among equal masses it carries loads down a stack in one try, but on a wall
  /// of bricks its exact steps on a friction active set still changing leave the sweeps stalling
  /// (docs/measurements.md).
  kDirect,
};

struct PersistentContactSettings {
  /// Sweep cap; reaching it is reported as kIterationLimit (the velocities are still the sweep's,
  /// which never gain energy). Default 200.
  int maxIterations = 200;
  /// Converged when no contact's relative velocity changed by more than this over a sweep (m/s).
  /// Velocities, not impulses: where contacts are redundant (a box on four corners) the impulses
  /// have a null space that Gauss–Seidel drifts along slowly while the motion has converged.
  /// A sweep skips a contact whose last solve left it as it was while its relative velocity has
  /// since changed by at most this: a warm start that is the solution away from a disturbance costs
  /// sweeps only near it. Default 1e-12 m/s.
  double tolerance = 1e-12;
  /// Stall window: the solve stops, reported as kStalled, when the largest change of a contact's
  /// relative velocity over a sweep has not fallen by 1 % in this many sweeps. Gauss–Seidel
  /// converges linearly; at that pace (a rate above 0.99998 per sweep for 512) it needs more than
  /// 50 000 sweeps per factor e still to go, far beyond any useful cap, and where contacts are
  /// nearly redundant (a body on the ground and on a thin plate lying there) it does not move at
  /// all. The velocities are then the sweep's, as at the cap. Default 512.
  int stallSweeps = 512;
  /// Conjugate-gradient momentum after each sweep (NNCG, see the source): loads reach the bottom of
  /// a stack in a third of the sweeps or fewer. Its bookkeeping is work over every contact that
  /// changed in the last sweeps, which costs more than it saves where a disturbance spreads a
  /// little over a large warm-started island. Default on.
  bool momentum = true;
  /// Subspace minimisations a solve may try (PGS-SM, see the source): after 8, 16, 32, … sweeps,
  /// while unconverged, the rows the sweeps have made active (pressed contacts, sticking or
  /// sliding) are solved at once (subspaceMethod), and the sweeps go on from there; kept where it
  /// lowers the kinetic energy, else undone and, once conjugate gradients' step is undone, not
  /// tried again in the solve. Where loads travel down a pile Gauss–Seidel needs thousands of
  /// sweeps and this a few solves. Default 0: plain Gauss–Seidel.
  int subspaceSolves = 0;
  /// Crawl stop: while the largest change of a contact's relative velocity over a sweep is above
  /// this (m/s), the solve also stops, reported as kStalled, where the rate at which that change
  /// fell over the second half of its sweeps would not bring it to `tolerance` within
  /// maxIterations (judged every 32 sweeps from the 256th). In a pile of round bodies with friction
  /// the change falls to about 1e-5 m/s within a few hundred sweeps and then crawls for thousands
  /// (no solver tried converges much faster there: docs/measurements.md); below this level, where
  /// a wall of bricks converges through changes that rise and fall, only the stall window stops
  /// it. Default +∞: never.
  double crawlAbove = std::numeric_limits<double>::infinity();
  /// How the subspace minimisations solve. Default kConjugateGradients.
  SubspaceMethod subspaceMethod = SubspaceMethod::kConjugateGradients;
  /// Sticking blocks: each local solve first solves its contact's whole 3×3 problem, and keeps
  /// that impulse where it presses and lies in the friction cone (the contact sticks); otherwise,
  /// and always when off, the staggered step (normal, then friction). The staggered step leaves a
  /// sticking contact's normal velocity off by its friction update, and among redundant corners
  /// (bricks in a wall) the sweeps can settle into a cycle that shifts impulses between them with
  /// every sweep's velocity change below the tolerance and the bodies not at rest. Not for masses
  /// 1e12 apart: there the blocks leave the light body's contacts closing at metres per second
  /// with the sweeps converged (docs/measurements.md). Default off.
  bool stickingBlocks = false;
  /// Resting start: where every warm-start impulse is zero (a pile met for the first time), the
  /// contacts that may not close (c ≤ 0) are first held pressed and sticking all at once, by one
  /// direct subspace step from zero impulses (the least-norm impulses that stop them), contacts
  /// left pulling let go over a few passes, and the result kept where it lowers the merit; the
  /// sweeps go on from there. Gauss–Seidel carries a cold wall's loads down a layer per sweep (a
  /// 200-brick wall took over 2,000 sweeps); from the resting start it converges in a few.
  /// Default off.
  bool restingStart = false;
  /// Settled stall: once the largest change of a contact's relative velocity over a sweep has come
  /// below this (m/s), the stall window is settledStallSweeps instead of stallSweeps. A pile held
  /// to within round-off of rest reaches about 1e-10 m/s in a few sweeps; where its contacts are
  /// redundant the sweeps then shift impulses among them with changes that rise and fall about
  /// that level, each new least a hundredth below the last only now and then, and the long window
  /// held a landed pyramid of 55 boxes there for 500 to 1,250 sweeps every step
  /// (docs/measurements.md). Default 0: never.
  double settledBelow = 0.0;
  /// The stall window below settledBelow (sweeps, at least 1). Default 16.
  int settledStallSweeps = 16;
};

enum class PersistentContactStatus { kConverged, kIterationLimit, kStalled };
const char* toString(PersistentContactStatus status);

struct PersistentContactReport {
  PersistentContactStatus status = PersistentContactStatus::kConverged;
  int iterations = 0;         ///< sweeps taken
  int subspaceSolves = 0;     ///< subspace minimisations kept (settings.subspaceSolves)
  bool restingStart = false;  ///< a resting start was kept (settings.restingStart)
  double energyChange = 0.0;  ///< kinetic energy after minus before (J), ≤ 0
  ///< Max over contacts of −(u_n⁺ + c) (m/s) after the solve, ≤ 0 ideally.
  double penetrationRate = 0;
  /// The contact of penetrationRate where it is above 0, else −1.
  int penetratingContact = -1;
  std::string message;
  bool ok() const { return status == PersistentContactStatus::kConverged; }
};

/// The memory a solve works in: its contacts in their frames, the bodies' velocities during the
/// sweeps and the sweeps' bookkeeping. A caller that solves every step, or several times a step,
/// keeps one and passes it to each solve, which then allocates nothing once the workspace has grown
/// to the island (a workspace made afresh for each solve cost the 55-box pyramid's lcp step about
/// 130 page faults). One solve at a time may use a workspace; it carries nothing from one solve
/// into the next that a result depends on (only the sweep order of contacts met again), so a copy
/// is a new, empty workspace.
class PersistentContactWorkspace {
 public:
  PersistentContactWorkspace();
  ~PersistentContactWorkspace();
  PersistentContactWorkspace(const PersistentContactWorkspace&);
  PersistentContactWorkspace& operator=(const PersistentContactWorkspace&);

  /// The memory itself; defined and used by the solver only (persistent_contact.cpp).
  struct Buffers;
  Buffers& buffers() { return *buffers_; }

 private:
  std::unique_ptr<Buffers> buffers_;
};

/// Solves the contacts and updates the bodies' velocities and the contacts' impulses in place.
/// Throws carom::Error naming the contact for an index out of range, a contact between the world
/// and itself or a body and itself, a non-unit normal, a negative or non-finite μ or c, or an
/// invalid body (impact::validateContact); nothing is changed then.
PersistentContactReport solvePersistentContacts(std::vector<impact::ContactBody>& bodies,
                                                std::vector<PersistentContact>& contacts,
                                                const PersistentContactSettings& settings = {});

/// The same, working in `workspace`'s memory.
PersistentContactReport solvePersistentContacts(std::vector<impact::ContactBody>& bodies,
                                                std::vector<PersistentContact>& contacts,
                                                const PersistentContactSettings& settings,
                                                PersistentContactWorkspace& workspace);

}  // namespace carom::core::contact
