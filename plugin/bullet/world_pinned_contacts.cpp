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
// Zeno guard's), a group whose resting pairs each hold one contact, touching contacts with static
// objects of its bodies' spheres of radius r, has each touching one become two temporary joints to
// the world (core::joints::kSixDof rows, E = (t1, t2, n) the contact's tangents and normal away
// from the ground):
//   t_k·(x + R a − a_0) = 0, k = 1, 2     the sphere's material point a at the contact stays put
//                                          along the ground (sticking, no slip)
//   n·(x + R c − c_0) = 0                  the sphere's centre c stays r from the ground's tangent
//                                          plane (touching)
// with a_0 the contact point and c_0 the centre brought to touching (its gap then 0). Within the
// step the sphere turns by ωh about its centre, and its material point leaves the bottom by r ωh,
// which changes no row to first order; the next step pins the new bottom. A sphere of radius r
// rolls over the ground as the rows move it. Two pins on one rigid body (a leg pair's two feet)
// hold their distance twice: the row that repeats it is left out (t1 along the line between
// them), as the flow's Newton Jacobian would be singular with it. The pins hold for the step when
// the pinned flow's impulse at each pushes (its normal part > 0) and lies strictly inside its
// friction cone. One that pulls is let go (a trailing foot as the stance takes the load), and so
// are the group's pairs that are apart, which the hold would take as speculative contacts: the
// impact search finds them if they close. If one slips, every contact of the group is held at the
// velocity level as before. Any event of the island inside the step (an impact, a landing, the Zeno
// guard) first takes every pin out at its instant: the impact laws and the holds after it see the
// contact as a contact, and a strike on the walker's swing foot lets the trailing foot leave the
// ground.
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "bt_eigen.h"
#include "carom/core/joints/joint.h"
#include "carom/error.h"
#include "variational_step.h"

namespace carom {

using detail::toEigen;

std::optional<VariationalStep::PinPoint> VariationalStep::pinPointOf(int p,
                                                                     const PairContact& contact) {
  const CandidatePair& pair = m_pairs[p];
  // One side a static object (not kinematic, not a sleeping body), the other a jointed body.
  const int side = pair.bodyA == kFixed ? 1 : 0;  // the body's
  const int body = side == 1 ? pair.bodyB : pair.bodyA;
  const int fixed = side == 1 ? pair.bodyA : pair.bodyB;
  const btCollisionObject* ground = side == 1 ? pair.a : pair.b;
  if (fixed != kFixed || body == kFixed || !ground->isStaticObject() || !jointed(body))
    return std::nullopt;
  const PairGeometry geometry =
      geometryAt(pair, currentOf(pair.bodyA), currentOf(pair.bodyB), m_now);
  const btCollisionShape* shape = geometry.shape[side];
  if (shape == nullptr || shape->getShapeType() != SPHERE_SHAPE_PROXYTYPE) return std::nullopt;
  const double radius = static_cast<const btSphereShape*>(shape)->getRadius();  // m
  const core::Vec3 centre = toEigen(geometry.frame[side].getOrigin());
  // The core's normal runs from A into B: away from the ground where the body is B.
  const core::Vec3 n = side == 1 ? contact.normal : (-contact.normal).eval();
  return PinPoint{body,   centre - radius * n,
                  centre, gapNow(p).distance,
                  n,      materialOf(pair.a, pair.b).friction};
}

namespace {

// A pin's row: along `direction` at `point` of a body at x, as a row of the body's twist (v, ω):
// direction · (v + ω × (point − x)).
using TwistRow = Eigen::Matrix<double, 6, 1>;
TwistRow twistRow(const core::Vec3& direction, const core::Vec3& point, const core::Vec3& x) {
  TwistRow row;
  row << direction, (point - x).cross(direction);
  return row;
}

// Gram–Schmidt over one body's rows: whether `row` adds to `kept` (an orthonormal set), and if so
// adds its new direction. A row within 1e-9 of their span is held by them already: two pins on one
// rigid body hold their distance twice, and the constrained flow's Newton Jacobian is then
// singular.
bool addsTo(std::vector<TwistRow>& kept, TwistRow row) {
  const double size = row.norm();
  for (const TwistRow& other : kept)
    row -= other.dot(row) * other;
  constexpr double kDependent = 1e-9;  // of the row's size: round-off, not geometry
  if (!(row.norm() > kDependent * size)) return false;
  kept.push_back(row.normalized());
  return true;
}

}  // namespace

std::vector<bool> VariationalStep::pinStickingContacts(int g,
                                                       const std::vector<HeldPoint>& contacts,
                                                       double remaining) {
  detail::JointGroup& group = m_joints.groups[g];
  // A group with limits or motors, or already pinned, keeps the velocity-level hold.
  if (contacts.empty() || !group.drives.empty() ||
      group.system.joints().size() != group.sources.size())
    return {};
  std::vector<PinPoint> pins;
  for (const HeldPoint& held : contacts) {
    std::optional<PinPoint> pin = pinPointOf(held.p, held.contact);
    if (!pin) return {};
    pins.push_back(*pin);
  }
  const core::joints::JointedSystem unpinned = group.system;
  // The pinned flow over the rest of the step gives each pin an impulse. One that pulls lets its
  // point go (a trailing foot as the stance takes the load), and the others are pinned again
  // without it: at most one try per contact.
  std::vector<bool> pinned(pins.size(), true);
  for (std::size_t attempt = 0; attempt < pins.size(); ++attempt) {
    std::vector<core::joints::Joint> joints = unpinned.joints();
    std::vector<std::vector<std::size_t>> jointsOf(pins.size());  // each pin's, in `joints`
    std::map<int, std::vector<TwistRow>> rowsOf;                  // per body, its pins' so far
    std::map<int, core::Vec3> firstOf;                            // per body, its first pin
    for (std::size_t k = 0; k < pins.size(); ++k) {
      if (!pinned[k]) continue;
      const PinPoint& pin = pins[k];
      const core::BodyState& state = m_bodies[pin.body].state;
      const core::Vec3& n = pin.normal;
      // Tangents t1 × t2 = n; on a body pinned already, t1 along the line from its first pin,
      // which both pins hold.
      const auto first = firstOf.emplace(pin.body, pin.point).first->second;
      const core::Vec3 along = (pin.point - first) - (pin.point - first).dot(n) * n;
      const core::Vec3 t1 =
          along.norm() > 0 ? along.normalized().eval() : n.unitOrthogonal().eval();
      const core::Vec3 t2 = n.cross(t1);
      core::Mat3 basis;
      basis << t1, t2, n;
      std::vector<TwistRow>& kept = rowsOf[pin.body];
      const bool touch = addsTo(kept, twistRow(n, pin.centre, state.x));
      const bool slip2 = addsTo(kept, twistRow(t2, pin.point, state.x));
      const bool slip1 = addsTo(kept, twistRow(t1, pin.point, state.x));
      const std::vector<int>& members = group.bodies;
      const int i =
          static_cast<int>(std::find(members.begin(), members.end(), pin.body) - members.begin());
      using core::joints::JointFrame;
      // t_k·(x + R a − a_0) = 0: the sphere's material point a at the contact stays put along the
      // ground; n·(x + R c − c_0) = 0: its centre c stays r from the ground's tangent plane.
      if (slip1 || slip2) {
        jointsOf[k].push_back(joints.size());
        joints.push_back(core::joints::sixDofJoint(
            JointFrame{core::joints::kWorld, pin.point, basis},
            JointFrame{i, state.R.transpose() * (pin.point - state.x), core::Mat3::Identity()},
            {slip1, slip2, false, false, false, false}));
      }
      if (touch) {
        jointsOf[k].push_back(joints.size());
        joints.push_back(core::joints::sixDofJoint(
            JointFrame{core::joints::kWorld, pin.centre - pin.gap * n, basis},
            JointFrame{i, state.R.transpose() * (pin.centre - state.x), core::Mat3::Identity()},
            {false, false, true, false, false, false}));
      }
    }
    group.system = core::joints::JointedSystem(unpinned.bodies(), std::move(joints));
    m_groupProbes[g].clear();  // its probes flowed the group without these pins
    bool sticks = true;
    std::vector<bool> pulls(pins.size(), false);
    try {
      const detail::GroupStep step = flowGroup(
          g, remaining, [&](int b) -> const core::BodyState& { return m_bodies[b].state; });
      for (std::size_t k = 0; k < pins.size(); ++k) {
        if (!pinned[k]) continue;
        core::Vec3 impulse = core::Vec3::Zero();
        for (const std::size_t j : jointsOf[k])
          impulse += step.impulses[j].linearB;
        const double normal = impulse.dot(pins[k].normal);
        pulls[k] = !(normal > 0);
        sticks = sticks && (pulls[k] ||
                            (impulse - normal * pins[k].normal).norm() < pins[k].friction * normal);
      }
    } catch (const Error&) {
      sticks = false;  // the pinned flow does not converge: held as contacts
    }
    const bool anyPulls = std::find(pulls.begin(), pulls.end(), true) != pulls.end();
    if (sticks && !anyPulls) break;
    for (std::size_t k = 0; k < pins.size(); ++k)
      pinned[k] = pinned[k] && !pulls[k];
    // One that slips is held as a contact, and so are the others (the velocity-level hold of a
    // group takes all its contacts or none).
    if (!anyPulls || std::find(pinned.begin(), pinned.end(), true) == pinned.end()) {
      group.system = unpinned;
      m_groupProbes[g].clear();
      return {};
    }
  }
  const std::size_t count = group.system.joints().size();
  for (std::vector<detail::JointImpulses>* impulses :
       {&m_jointsKicked, &m_jointsNow, &m_jointsTrial})
    (*impulses)[g].resize(count);
  for (const int member : group.bodies)
    m_stale[member] = true;  // its trial is flowed again, pinned
  return pinned;
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
