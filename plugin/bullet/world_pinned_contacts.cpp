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
// Zeno guard's), a group whose resting pairs each hold one contact, contacts with static objects
// of its bodies' spheres of radius r, has each become two temporary joints to the world
// (core::joints::kSixDof rows, E = (t1, t2, n) the contact's tangents and normal away from the
// ground):
//   t_k·(x + R a − a_0) = 0, k = 1, 2     the sphere's material point a at the contact stays put
//                                          along the ground (sticking, no slip)
//   n·(x + R c − c_0) = 0                  the sphere's centre c stays r from the ground's tangent
//                                          plane (touching)
// with a_0 the contact point and c_0 the centre brought to touching (its gap then 0). Within the
// step the sphere turns by ωh about its centre, and its material point leaves the bottom by r ωh,
// which changes no row to first order; the next step pins the new bottom. A sphere of radius r
// rolls over the ground as the rows move it. A row that the group's joints and the pins before it
// hold already is left out (two pins on one rigid body, a leg pair's two feet, hold their distance
// twice: t1 runs along the line between them; pins on spheres joined to each other repeat joint
// rows): kept, it would leave the flow's Newton Jacobian singular. The pins hold for the step when
// the pinned flow's impulse at each pushes (its normal part > 0) and lies strictly inside its
// friction cone. A pair apart within the holding reach is pinned too, its centre brought to
// touching. One that pulls while it separates faster than the resting speed is let go (a trailing
// foot as the stance takes the load, lifting off); if one slips, or one that rests there would be
// pulled (a sphere just landed that its joints lift: let go, it would land again and again), every
// contact of the group is held at the velocity level as before. Any event of the island inside the
// step (an impact, a landing, the Zeno guard) first takes every pin out at its instant: the impact
// laws and the holds after it see the contact as a contact, and a strike on the walker's swing foot
// lets the trailing foot leave the ground.
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "bt_eigen.h"
#include "carom/core/joints/constraint.h"
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
  const core::BodyState& state = stateNow(body);
  const core::MassProperties& mass = m_bodies[body].mass;
  const core::Vec3 bottom = centre - radius * n;
  const core::Vec3 velocity = core::linearVelocity(mass, state) +
                              core::angularVelocityWorld(mass, state).cross(bottom - state.x);
  return PinPoint{body,
                  bottom,
                  centre,
                  gapNow(p).distance,
                  n,
                  velocity.dot(n),
                  materialOf(pair.a, pair.b).friction};
}

namespace {

// Gram–Schmidt over constraint rows: whether `row` adds to `kept` (an orthonormal set), and if so
// adds its new direction. A row within 1e-9 of their span is held by them already (two pins on one
// rigid body hold their distance twice; pins on bodies joined to each other hold a joint's rows
// again): kept, it would leave the constrained flow's Newton Jacobian singular, and where the
// repeated rows disagree by round-off its Newton iterations short of the tolerance.
bool addsTo(std::vector<Eigen::VectorXd>& kept, Eigen::VectorXd row) {
  const double size = row.norm();
  for (const Eigen::VectorXd& other : kept)
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
  std::vector<core::BodyState> states;  // the group's bodies now
  for (const int member : group.bodies)
    states.push_back(stateNow(member));
  using core::joints::JointFrame;
  const auto frameOn = [&](int body, const core::Vec3& point) {
    const int i = static_cast<int>(std::find(group.bodies.begin(), group.bodies.end(), body) -
                                   group.bodies.begin());
    const core::BodyState& state = stateNow(body);
    return JointFrame{i, state.R.transpose() * (point - state.x), core::Mat3::Identity()};
  };
  std::vector<core::Mat3> bases(pins.size());  // each pin's (t1, t2, n), t1 × t2 = n
  // Pin k's joints with the rows asked: t_k·(x + R a − a_0) = 0, the sphere's material point a
  // at the contact stays put along the ground; n·(x + R c − c_0) = 0, its centre c stays r from
  // the ground's tangent plane.
  const auto pinJoints = [&](std::size_t k, bool slip1, bool slip2, bool touch) {
    const PinPoint& pin = pins[k];
    std::vector<core::joints::Joint> rows;
    if (slip1 || slip2) {
      rows.push_back(core::joints::sixDofJoint(
          JointFrame{core::joints::kWorld, pin.point, bases[k]}, frameOn(pin.body, pin.point),
          {slip1, slip2, false, false, false, false}));
    }
    if (touch) {
      rows.push_back(core::joints::sixDofJoint(
          JointFrame{core::joints::kWorld, pin.centre - pin.gap * pin.normal, bases[k]},
          frameOn(pin.body, pin.centre), {false, false, true, false, false, false}));
    }
    return rows;
  };
  for (std::size_t attempt = 0; attempt < pins.size(); ++attempt) {
    // Every pin's three rows first (on a body pinned already, t1 along the line from its first
    // pin, which both pins hold); then only those that add to the group's joints' rows and to the
    // pins' before them.
    std::vector<core::joints::Joint> candidates = unpinned.joints();
    std::map<int, core::Vec3> firstOf;  // per body, its first pin
    for (std::size_t k = 0; k < pins.size(); ++k) {
      if (!pinned[k]) continue;
      const core::Vec3& n = pins[k].normal;
      const core::Vec3 first = firstOf.emplace(pins[k].body, pins[k].point).first->second;
      const core::Vec3 along = (pins[k].point - first) - (pins[k].point - first).dot(n) * n;
      const core::Vec3 t1 =
          along.norm() > 0 ? along.normalized().eval() : n.unitOrthogonal().eval();
      bases[k] << t1, n.cross(t1), n;
      for (core::joints::Joint& joint : pinJoints(k, true, true, true))
        candidates.push_back(std::move(joint));
    }
    const Eigen::MatrixXd gradient =
        core::joints::evaluateConstraints(
            core::joints::JointedSystem(unpinned.bodies(), candidates), states)
            .gradient;
    std::vector<Eigen::VectorXd> kept;
    for (int row = 0; row < unpinned.rowCount(); ++row)
      addsTo(kept, gradient.row(row).transpose());
    std::vector<core::joints::Joint> joints = unpinned.joints();
    std::vector<std::vector<std::size_t>> jointsOf(pins.size());  // each pin's, in `joints`
    int row = unpinned.rowCount();  // pin k's rows: t1, t2 (its slip joint), n (its touch joint)
    for (std::size_t k = 0; k < pins.size(); ++k) {
      if (!pinned[k]) continue;
      const bool touch = addsTo(kept, gradient.row(row + 2).transpose());
      const bool slip2 = addsTo(kept, gradient.row(row + 1).transpose());
      const bool slip1 = addsTo(kept, gradient.row(row).transpose());
      row += 3;
      for (core::joints::Joint& joint : pinJoints(k, slip1, slip2, touch)) {
        jointsOf[k].push_back(joints.size());
        joints.push_back(std::move(joint));
      }
    }
    group.system = core::joints::JointedSystem(unpinned.bodies(), std::move(joints));
    m_groupProbes[g].clear();  // its probes flowed the group without these pins
    bool sticks = true;
    std::vector<bool> pulls(pins.size(), false);
    try {
      const detail::GroupStep step =
          flowGroup(g, remaining, [&](int b) -> const core::BodyState& { return stateNow(b); });
      for (std::size_t k = 0; k < pins.size(); ++k) {
        if (!pinned[k]) continue;
        core::Vec3 impulse = core::Vec3::Zero();
        for (const std::size_t j : jointsOf[k])
          impulse += step.impulses[j].linearB;
        const double normal = impulse.dot(pins[k].normal);
        // Let go only where it leaves the ground: one resting there that would be pulled (a sphere
        // just landed that its joints lift), let go, lands again and again; its group is held at
        // the velocity level instead.
        pulls[k] = !(normal > 0) && pins[k].separating > m_restingSpeed;
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
