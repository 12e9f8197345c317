// The variational step of carom::DynamicsWorld (ARCHITECTURE.md "One step", stages 1–6), as named
// stages over the step's bodies and candidate pairs. Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <string>
#include <vector>

#include "carom/bullet/dynamics_world.h"
#include "carom/bullet/gap.h"
#include "carom/core/body.h"
#include "carom/core/contact/persistent_contact.h"
#include "carom/core/impact/contact.h"
#include "carom/core/impact/material.h"
#include "carom/core/lgvi.h"

namespace carom {

// Two shapes closer than this count as touching: their contacts are collected into one impact, or
// held as persistent contacts (m). Far above GJK's ~1e-9 m noise, far below any visible gap.
inline constexpr double kContactTolerance = 1e-6;
// A touching contact whose normal speed is at most this is resting, held by the persistent-contact
// LCP instead of an impact law (m/s): about what gravity adds in three steps at 60 Hz (0.16 m/s
// per step would be one), so a bouncing body comes to rest once its bounces fit inside a step.
inline constexpr double kRestingSpeed = 0.05;

// An active dynamic body of the step: Bullet's body and its double-precision state.
struct StepBody {
  btRigidBody* rigidBody;
  core::MassProperties mass;
  core::BodyState state;    // at the current instant of the step
  core::ExternalLoad load;  // gravity (per body) and the user's force and torque, held constant
};

// Index of a pair member that is not a step body (static, kinematic or sleeping): immovable.
inline constexpr int kFixed = -1;

struct CandidatePair {
  const btCollisionObject* a;
  const btCollisionObject* b;
  int bodyA;  // index into the step bodies, or kFixed
  int bodyB;
  // Added to the gap for impact detection (m): pairs touching or overlapping at the start of the
  // step may close by up to kContactTolerance more before that counts as an impact, so resting
  // contacts and round-off never trigger one (they are persistent contacts).
  double slack = 0;
};

// One contact point of a pair, in the core's convention (normal from A into B).
struct PairContact {
  CandidatePair pair;
  core::Vec3 point;
  core::Vec3 normal;
  int feature;  // vertex index for polyhedral contacts, −1 for the gap's witness point
};

class VariationalStep {
 public:
  VariationalStep(DynamicsWorld& world, double timeStep);
  // Runs stages 1–6 and writes the bodies back. Throws carom::Error before changing any body for
  // a body without finite inertia; when a rotation solve or an impact-time search fails it throws
  // before the write-back (the bodies keep their poses; damping has been applied).
  StepDiagnostics run();

 private:
  // Stage 1: the active dynamic bodies as core states.
  void readBodies();
  // Stage 2: every body flowed over `fraction` of the step from its current state.
  std::vector<core::BodyState> flowAll(double fraction) const;
  core::BodyState flowBody(int index, const core::BodyState& from, double fraction) const;
  // Stage 3: pairs whose AABBs, swept from the start of the step to `trial`, overlap.
  void findCandidatePairs(const std::vector<core::BodyState>& trial);
  Gap gapOf(const CandidatePair& pair, const std::vector<core::BodyState>& states) const;
  std::vector<PairContact> contactsOf(const CandidatePair& pair,
                                      const std::vector<core::BodyState>& states) const;
  // Stage 4: the fraction of the step from now to the earliest impact within `remaining` (the
  // fraction left), or +∞ when the trial poses `trial` penetrate nowhere.
  double earliestImpact(const std::vector<core::BodyState>& trial, double remaining) const;
  // Resolves the impact at the current instant and records its events. Returns true, changing
  // nothing, for a landing: every contact approaches at most at kRestingSpeed.
  bool resolveImpact(double elapsed);
  // Stage 5: the contacts touching now with a normal speed of at most kRestingSpeed become
  // persistent for the rest of the step (`remaining`, a fraction of it): a plastic LCP stops what
  // approaches, then the LCP against the loads gives an impulse applied half now (applyHalf) and
  // half at the end of the step (applyPersistentEnd).
  void holdRestingContacts(double remaining);
  void applyPersistentEnd();
  // Stage 6.
  void writeBodies();

  core::impact::ContactBody contactBodyOf(int index, const btCollisionObject* object) const;
  core::impact::Material materialOf(const btCollisionObject* a, const btCollisionObject* b) const;
  void applyVelocities(int index, const core::Vec3& v, const core::Vec3& omega);

  DynamicsWorld& m_world;
  double m_timeStep;
  std::vector<StepBody> m_bodies;
  std::vector<CandidatePair> m_pairs;
  struct HeldContact {
    core::contact::PersistentContact contact;
    // Lever arms p − x (m) as worldLever() reads them: body-frame R_0ᵀ(p − x_0) for a vertex,
    // world-frame p − x_0 for a witness point.
    core::Vec3 leverA, leverB;
    CandidatePair pair;
    int feature;
  };
  std::vector<HeldContact> m_held;
  StepDiagnostics m_diagnostics;

  void applyHalf(const HeldContact& held);
  // A held contact's lever arm on body `index` in the world frame now. A polyhedron's vertex
  // (feature ≥ 0) is a material point and turns with the body; the witness point of a smooth
  // shape (feature −1) is not: a rolling ball's contact stays under its centre, and a lever
  // turned with the ball would put the normal impulse ahead of it and spin it up.
  core::Vec3 worldLever(const HeldContact& held, int index, const core::Vec3& lever) const;
};

}  // namespace carom
