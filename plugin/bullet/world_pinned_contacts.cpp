// Sticking contacts held at the position level (issue 29). The persistent contacts' kick–flow–kick
// (world_persistent.cpp) holds a contact at the velocity level: half its impulse before the flow,
// a plastic stop at the end. A body that turns about its held point (a walker's stance leg about
// its foot) follows the flow's arc, not the contact's: its point drifts off the contact by O(h²)
// a step, into the ground and along it, and the stop and the drift correction take that motion's
// energy, O(h) over a stance (2 % of a compass-gait walker's heel-strike energy at 240 Hz, measured
// as 0.111 J a stride at 240 Hz, 0.069 at 480, 0.034 at 960).
//
// Held instead as a holonomic constraint in the constrained LGVI that already flows the body's
// joint group (core::joints::flow, RATTLE), the contact does no work and the stance keeps its
// energy as the joints do. At a hold (the start of the step's, or a landing's inside it; not the
// Zeno guard's), the one resting contact of a group with a static object, its body's side a
// sphere of radius r, becomes two temporary joints to the world (core::joints::kSixDof rows,
// E = (t1, t2, n) the contact's tangents and normal away from the ground):
//   t_k·(x + R a − a_0) = 0, k = 1, 2     the sphere's material point a at the contact stays put
//                                          along the ground (sticking, no slip)
//   n·(x + R c − c_0) = 0                  the sphere's centre c stays r from the ground's tangent
//                                          plane (touching)
// with a_0 the contact point and c_0 the centre brought to touching (its gap then 0). Within the
// step the sphere turns by ωh about its centre, and its material point leaves the bottom by r ωh,
// which changes no row to first order; the next step pins the new bottom. A sphere of radius r
// rolls over the ground as the rows move it. The pin holds for the step when the pinned flow's
// impulse at the contact over the step pushes (its normal part > 0) and lies strictly inside the
// friction cone; otherwise the contact is held at the velocity level as before. Any event of the
// island inside the step (an impact, a landing, the Zeno guard) first takes every pin out at its
// instant: the impact laws and the holds after it see the contact as a contact, and a strike on
// the walker's swing foot lets the trailing foot leave the ground.
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cmath>

#include "bt_eigen.h"
#include "carom/core/joints/joint.h"
#include "carom/error.h"
#include "variational_step.h"

namespace carom {

using detail::toEigen;

bool VariationalStep::pinStickingContact(int p, const PairContact& contact, double remaining) {
  const CandidatePair& pair = m_pairs[p];
  // One side a static object (not kinematic, not a sleeping body), the other a jointed body.
  const int side = pair.bodyA == kFixed ? 1 : 0;  // the body's
  const int body = side == 1 ? pair.bodyB : pair.bodyA;
  const int fixed = side == 1 ? pair.bodyA : pair.bodyB;
  const btCollisionObject* ground = side == 1 ? pair.a : pair.b;
  if (fixed != kFixed || body == kFixed || !ground->isStaticObject() || !jointed(body))
    return false;
  const int g = m_joints.groupOf[body];
  detail::JointGroup& group = m_joints.groups[g];
  // A group with limits or motors, or already pinned, keeps the velocity-level hold.
  if (!group.drives.empty() || group.system.joints().size() != group.sources.size()) return false;
  const PairGeometry geometry =
      geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  const btCollisionShape* shape = geometry.shape[side];
  if (shape == nullptr || shape->getShapeType() != SPHERE_SHAPE_PROXYTYPE) return false;
  const double radius = static_cast<const btSphereShape*>(shape)->getRadius();  // m
  const core::Vec3 centre = toEigen(geometry.frame[side].getOrigin());
  // The core's normal runs from A into B: away from the ground where the body is B.
  const core::Vec3 n = side == 1 ? contact.normal : (-contact.normal).eval();
  const double gap = gapNow(p).distance;  // m
  core::Vec3 t1 = n.unitOrthogonal();
  const core::Vec3 t2 = n.cross(t1);
  t1 = t2.cross(n);
  core::Mat3 basis;  // right-handed: t1 × t2 = n
  basis.col(0) = t1;
  basis.col(1) = t2;
  basis.col(2) = n;
  const core::BodyState& state = m_bodies[body].state;
  const int i = static_cast<int>(std::find(group.bodies.begin(), group.bodies.end(), body) -
                                 group.bodies.begin());
  const core::Vec3 point = centre - radius * n;  // the sphere's bottom, on its surface
  using core::joints::JointFrame;
  const core::joints::Joint slip = core::joints::sixDofJoint(
      JointFrame{core::joints::kWorld, point, basis},
      JointFrame{i, state.R.transpose() * (point - state.x), core::Mat3::Identity()},
      {true, true, false, false, false, false});
  const core::joints::Joint touch = core::joints::sixDofJoint(
      JointFrame{core::joints::kWorld, centre - gap * n, basis},
      JointFrame{i, state.R.transpose() * (centre - state.x), core::Mat3::Identity()},
      {false, false, true, false, false, false});
  const core::joints::JointedSystem unpinned = group.system;
  std::vector<core::joints::Joint> joints = unpinned.joints();
  joints.push_back(slip);
  joints.push_back(touch);
  group.system = core::joints::JointedSystem(unpinned.bodies(), std::move(joints));
  m_groupProbes[g].clear();  // its probes flowed the group without the pin
  // The pinned flow over the rest of the step: the impulse the pin gives the body there.
  bool sticks = false;
  try {
    const detail::GroupStep step =
        flowGroup(g, remaining, [&](int b) -> const core::BodyState& { return m_bodies[b].state; });
    const std::size_t first = unpinned.joints().size();
    const core::Vec3 impulse = step.impulses[first].linearB + step.impulses[first + 1].linearB;
    const double normal = impulse.dot(n);
    const double friction = materialOf(pair.a, pair.b).friction;
    sticks = normal > 0 && (impulse - normal * n).norm() < friction * normal;
  } catch (const Error&) {
    sticks = false;  // the pinned flow does not converge: held as a contact
  }
  if (!sticks) {
    group.system = unpinned;
    m_groupProbes[g].clear();
    return false;
  }
  const std::size_t count = group.system.joints().size();
  for (std::vector<detail::JointImpulses>* impulses :
       {&m_jointsKicked, &m_jointsNow, &m_jointsTrial})
    (*impulses)[g].resize(count);
  for (const int member : group.bodies)
    m_stale[member] = true;  // its trial is flowed again, pinned
  return true;
}

void VariationalStep::dropPins(int g) {
  detail::JointGroup& group = m_joints.groups[g];
  const std::size_t count = group.sources.size();
  if (group.system.joints().size() == count) return;
  std::vector<core::joints::Joint> joints(
      group.system.joints().begin(),
      group.system.joints().begin() + static_cast<std::ptrdiff_t>(count));
  group.system = core::joints::JointedSystem(group.system.bodies(), std::move(joints));
  m_groupProbes[g].clear();
  for (std::vector<detail::JointImpulses>* impulses :
       {&m_jointsKicked, &m_jointsNow, &m_jointsTrial})
    (*impulses)[g].resize(count);
  for (const int member : group.bodies)
    m_stale[member] = true;
}

void VariationalStep::dropIslandPins(const Island& island) {
  for (const int body : island.bodies) {
    if (jointed(body)) dropPins(m_joints.groupOf[body]);
  }
}

}  // namespace carom
