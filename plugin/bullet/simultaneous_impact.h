// A simultaneous impact of several contacts, as both modes resolve it: Halm–Posa's model with
// per-contact energetic restitution (core::routh::resolveImpactWithRestitution) on the generalized
// velocities of the dynamic bodies the contacts touch. lcp mode (ImpactSolver, stage 3) and
// variational mode (the impact loop's resolution) each gather their contacts and choose their
// policy; the problem, its solution and the impulses it gives are built here once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "carom/bullet/config.h"
#include "carom/core/contact/joint_rows.h"
#include "carom/core/impact/contact.h"
#include "carom/core/impact/material.h"
#include "carom/core/routh/policy.h"

namespace carom::detail {

// A contact side that is no dynamic body of the impact: static, kinematic or sleeping, which the
// impact cannot move.
inline constexpr int kImmovable = -1;

// The most contacts one impact's LCPs take (SolverSettings::simultaneousContacts at most). Halm–
// Posa's step LCPs are dense in the contacts and their bodies, and Lemke's pivots grow with their
// cube: a pyramid of boxes landing at once (a few hundred contacts) would not finish its step.
inline constexpr std::size_t kMaxSimultaneousContacts = 32;

// How both modes resolve an impact of several contacts at once (SolverSettings::
// simultaneousContacts): by the model's LCPs (resolveSimultaneously), as one Anitescu–Potra impact
// by sweeps (resolveBySweeps), or one contact at a time by its pair's law, in turn, each while it
// still approaches, what still approaches afterwards struck again in the next round (the sequential
// resolution). The events' law says which.
enum class SimultaneousPath { kLcps, kSweeps, kInTurn };
SimultaneousPath simultaneousPath(const SolverSettings& solver, std::size_t contacts, bool jointed);

// The law text of a contact resolved in turn in an impact of `contacts`.
std::string inTurnLaw(const std::string& law, std::size_t contacts);
// The law text of the contacts of an impact of `contacts` resolved by sweeps under `model`.
std::string bySweepsLaw(SimultaneousModel model, std::size_t contacts);

struct SimultaneousContact {
  int bodyA = kImmovable;  // index into the impact's bodies, or kImmovable
  int bodyB = kImmovable;
  core::Vec3 point = core::Vec3::Zero();    // world (m)
  core::Vec3 normal = core::Vec3::UnitZ();  // unit, from A into B
  core::impact::Material material;          // its friction and restitution
};

// Whether `body`'s rotation is locked (a zero inverse inertia, motion_factors.h): it keeps its
// spin through an impact.
bool rotationLocked(const core::impact::ContactBody& body);

// `contact` between `bodies` (kImmovable: a side that does not move, zero inverse mass and
// inertia).
core::impact::Contact contactOf(const std::vector<core::impact::ContactBody>& bodies,
                                const SimultaneousContact& contact);

struct SimultaneousOutcome {
  // Per contact: the total impulse on B (N s), the compression phase's Λ_i and the restitution
  // phase's scaled copy s e_i Λ_i (restitution.h), and the normal velocity of B relative to A
  // before and after (m/s).
  std::vector<core::Vec3> impulse;
  std::vector<double> normalVelocityBefore, normalVelocityAfter;
  double energyChange = 0.0;      // kinetic energy after minus before, of the whole impact (J)
  std::string message;            // why the compression phase did not terminate; empty when it did
  Eigen::VectorXd jointImpulses;  // per joint row: the impulse that held it (N s or N m s)
};

// The policy for an impact whose contacts approach at `approach` (m/s, > 0 approaching) with
// effective masses `effectiveMass` along their normals (kg): a contact's product is the impulse
// that stops it alone.
using ImpactPolicyChooser = std::function<core::routh::ImpactPolicy(
    const Eigen::VectorXd& approach, const Eigen::VectorXd& effectiveMass)>;

// The policy both modes start from for `seed`'s one outcome: each step LCP plain Lemke first,
// seeded only on a retry. Random covering vectors spread a sampled impact set (core/routh/step.h);
// for one outcome they cost a fifth more pivots (docs/measurements.md).
core::routh::ImpactPolicy oneOutcomePolicy(std::uint64_t seed);

// Whether `joints` can be held in an impact solved in `frame`: a row with an immovable side (the
// world) needs the world's own frame, `frame` zero. Where not, the callers strike in turn.
bool jointsHoldInFrame(const std::vector<core::contact::JointRow>& joints, const core::Vec3& frame);

// Resolves `contacts` at once and sets the bodies' velocities to what follows. `frame` is the
// velocity of the frame in which every immovable partner is at rest (partnersRestFrame): the
// contact rows see the dynamic bodies only. A body with a zero inverse inertia keeps its spin (its
// rotation is locked, motion_factors.h). Throws carom::Error for a body whose inverse inertia is
// neither zero nor invertible.
//
// `joints`: equality rows (JointRow::isEquality) between the impact's bodies (kImmovable: the
// world), held through the impact as the bilateral, plastic constraints they are: the velocities
// are first brought onto the rows (their M-orthogonal projection, which takes what a half kick or
// drift left on them), then Halm–Posa's model runs on the velocities the rows allow, v = N q with
// N an orthonormal basis of the rows' null space, its mass matrix NᵀMN and contact rows J N: one
// link struck moves the chain, several contacts on jointed bodies are one impact. Rows with an
// immovable side need `frame` zero (the world is their partner; jointsHoldInFrame). The joint
// impulses go to jointImpulses.
SimultaneousOutcome resolveSimultaneously(std::vector<core::impact::ContactBody>& bodies,
                                          const std::vector<SimultaneousContact>& contacts,
                                          const core::Vec3& frame,
                                          const ImpactPolicyChooser& choosePolicy,
                                          const std::vector<core::contact::JointRow>& joints = {});

// Resolves `contacts` (no joints) as one impact in `frame` (as resolveSimultaneously): the
// compression phase is Anitescu–Potra's inelastic impact (Halm–Posa digest §1.4, eq. (31): every
// contact at once, Coulomb's round cone at the velocity after), which lies in Halm–Posa's set of
// outcomes, solved by the persistent contacts' sweeps (core::contact::solvePersistentContacts,
// each local solve lowering the kinetic energy) in memory and time linear in the contacts; the
// restitution phase is restitution.h's, each contact's compression impulse again times its e,
// scaled down where it would add energy. A sweep cap reached leaves contacts still closing for the
// caller's next round; the outcome's message says so.
SimultaneousOutcome resolveBySweeps(std::vector<core::impact::ContactBody>& bodies,
                                    const std::vector<SimultaneousContact>& contacts,
                                    const core::Vec3& frame);

}  // namespace carom::detail
