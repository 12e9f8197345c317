// A simultaneous impact of several contacts, as both modes resolve it: Halm–Posa's model with
// per-contact energetic restitution (core::routh::resolveImpactWithRestitution) on the generalized
// velocities of the dynamic bodies the contacts touch. lcp mode (ImpactSolver, stage 3) and
// variational mode (the impact loop's resolution) each gather their contacts and choose their
// policy; the problem, its solution and the impulses it gives are built here once.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "carom/core/contact/joint_rows.h"
#include "carom/core/impact/contact.h"
#include "carom/core/impact/material.h"
#include "carom/core/routh/policy.h"

namespace carom::detail {

// A contact side that is no dynamic body of the impact: static, kinematic or sleeping, which the
// impact cannot move.
inline constexpr int kImmovable = -1;

// The most contacts one simultaneous impact resolves at once. Halm–Posa's step LCPs are dense in
// the contacts and their bodies, and Lemke's pivots grow with their cube: a pyramid of boxes
// landing at once (a few hundred contacts) would not finish its step. A larger group is resolved
// one contact at a time by its pair's law, in turn, each while it still approaches (the sequential
// resolution), what still approaches afterwards struck again in the next round; both modes say so
// in the event's law.
inline constexpr std::size_t kMaxSimultaneousContacts = 32;
// The law text of a contact resolved in turn in such a group of `contacts`.
std::string inTurnLaw(const std::string& law, std::size_t contacts);

struct SimultaneousContact {
  int bodyA = kImmovable;  // index into the impact's bodies, or kImmovable
  int bodyB = kImmovable;
  core::Vec3 point = core::Vec3::Zero();    // world (m)
  core::Vec3 normal = core::Vec3::UnitZ();  // unit, from A into B
  core::impact::Material material;          // its friction and restitution
};

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
// Whether `joints` can be held in an impact solved in `frame`: a row with an immovable side (the
// world) needs the world's own frame, `frame` zero. Where not, the callers strike in turn.
bool jointsHoldInFrame(const std::vector<core::contact::JointRow>& joints, const core::Vec3& frame);

SimultaneousOutcome resolveSimultaneously(std::vector<core::impact::ContactBody>& bodies,
                                          const std::vector<SimultaneousContact>& contacts,
                                          const core::Vec3& frame,
                                          const ImpactPolicyChooser& choosePolicy,
                                          const std::vector<core::contact::JointRow>& joints = {});

}  // namespace carom::detail
