// Still islands: an island at rest that a step leaves where it found it (every body's velocities
// within the start-of-step hold's tolerance, 1e-12 m/s, and its pose within what that moves it in
// a step: the solve's round-off) is a fixed point of the step to the step's own precision. Found
// again with the same bytes in everything its run reads as the step left them, the next step would
// leave it there again, and it is taken without flowing, querying or solving anything. The warm
// start is not compared: where contacts are redundant (a box on four corners) each converged solve
// moves the impulses along their null space by round-off (1e-11 N s a step in a pyramid) without
// changing a velocity; a repeat keeps the last ones, as converged. A tower, wall or pyramid
// standing still then costs its broadphase only, where Bullet would put it to sleep after two
// seconds; unlike sleeping, nothing is approximated: any change of an input (a force, a partner
// moved, a friction changed, a body arriving) makes a different fingerprint, and the island runs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "bt_eigen.h"
#include "persistent_settings.h"
#include "variational_step.h"

namespace carom {

namespace {

// Appends the bytes of scalars and pointers (no struct: its padding has no defined bytes).
class Bytes {
 public:
  template <class T>
  void add(T value) {
    static_assert(std::is_arithmetic_v<T> || std::is_pointer_v<T>, "scalars only");
    const std::size_t end = m_bytes.size();
    m_bytes.resize(end + sizeof value);
    std::memcpy(m_bytes.data() + end, &value, sizeof value);
  }
  void reserve(std::size_t bytes) { m_bytes.reserve(bytes); }
  void add(const double* values, int count) {
    for (int i = 0; i < count; ++i)
      add(values[i]);
  }
  void add(const btVector3& v) { add(v.m_floats, 3); }
  void add(const btTransform& frame) {
    add(frame.getOrigin());
    for (int row = 0; row < 3; ++row)
      add(frame.getBasis()[row]);
  }
  // What the step reads of an object beyond its pose: its material and the bounds of its shape.
  void addObject(const btCollisionObject& object) {
    add(&object);
    add(object.getCollisionFlags());
    const btCollisionShape& shape = *object.getCollisionShape();
    add(&shape);
    btVector3 min, max;  // in its own frame: its size, scaling and margin
    shape.getAabb(btTransform::getIdentity(), min, max);
    add(min);
    add(max);
  }
  std::vector<unsigned char> take() { return std::move(m_bytes); }

 private:
  std::vector<unsigned char> m_bytes;
};

// What writeBodies gives `body`: its pose and velocities now (m, m/s, rad/s), as Bullet will hold
// them at the start of the next step.
struct Written {
  btTransform frame;
  btVector3 linearVelocity, angularVelocity;
};
Written writtenOf(const StepBody& body, const core::BodyState& state) {
  return {btTransform(detail::toBt(state.R), detail::toBt(state.x)),
          detail::toBt(core::linearVelocity(body.mass, state)),
          detail::toBt(core::angularVelocityWorld(body.mass, state))};
}

}  // namespace

VariationalStep::Stillness& VariationalStep::stillnessOf(int id) {
  if (static_cast<int>(m_stillness.size()) <= id) m_stillness.resize(id + 1);
  return m_stillness[id];
}

std::optional<std::vector<unsigned char>> VariationalStep::stillInputsOf(const Island& island,
                                                                         bool atEnd) const {
  Bytes bytes;
  bytes.reserve(400 * island.bodies.size() + 200 * island.pairs.size());
  // Read over all the step's bodies, these bound every island's holds.
  bytes.add(m_timeStep);
  bytes.add(m_restingSpeed);
  bytes.add(m_holdingReach);
  for (const int index : island.bodies) {
    if (jointed(index)) return std::nullopt;
    const StepBody& body = m_bodies[index];
    // At the start, as the step read them (readBodies: the bodies are written back only at its
    // end); at the end, as writeBodies will write them.
    const btRigidBody& bullet = *body.rigidBody;
    const Written written = atEnd
                                ? writtenOf(body, stateNow(index))
                                : Written{bullet.getCenterOfMassTransform(),
                                          bullet.getLinearVelocity(), bullet.getAngularVelocity()};
    bytes.add(written.frame);
    bytes.add(written.linearVelocity);
    bytes.add(written.angularVelocity);
    bytes.add(body.mass.mass());
    bytes.add(body.mass.inertia().data(), 9);
    bytes.add(body.load.gravity.data(), 3);
    bytes.add(body.load.force.data(), 3);
    bytes.add(body.load.torque.data(), 3);
    bytes.add(body.reach);
    bytes.add(body.rotationLocked);
    bytes.addObject(*body.rigidBody);
  }
  for (const int p : island.pairs) {
    const CandidatePair& pair = m_pairs[p];
    for (const btCollisionObject* side : {pair.a, pair.b}) {
      if (stepIndexOf(side) != kFixed) continue;           // a step body: above
      if (side->isKinematicObject()) return std::nullopt;  // it moves on its own
      bytes.addObject(*side);
      bytes.add(side->getWorldTransform());
    }
    bytes.add(pair.childA);  // its slack and facing follow from the poses
    bytes.add(pair.childB);
    const core::impact::Material material = materialOf(pair.a, pair.b);
    bytes.add(static_cast<int>(material.impact));
    bytes.add(material.restitution);
    bytes.add(material.friction);
    bytes.add(core::impact::frictionAtImpact(material));
    bytes.add(material.tangentialCompliance);
    bytes.add(material.roughness);
  }
  return bytes.take();
}

bool VariationalStep::repeatStillIsland(const Island& island, int id) {
  stillnessOf(id) = {};
  const auto found = m_world.m_stillIslands.find(m_bodies[island.bodies.front()].rigidBody);
  if (found == m_world.m_stillIslands.end()) return false;
  const std::optional<std::vector<unsigned char>> inputs = stillInputsOf(island, false);
  if (!inputs || *inputs != found->second.inputs) return false;
  // Its bodies are where the step started them (runIsland has not flowed them), which is where the
  // step ends them.
  stillnessOf(id).repeated = true;
  m_diagnostics.persistentContacts += found->second.persistentContacts;
  ++m_diagnostics.restingIslands;
  ++m_diagnostics.stillIslands;
  return true;
}

bool VariationalStep::endedStill(const Island& island) const {
  const double noise = detail::stepHoldSettings(m_timeStep).tolerance;  // m/s
  return std::all_of(island.bodies.begin(), island.bodies.end(), [&](int index) {
    const StepBody& body = m_bodies[index];
    const btRigidBody& bullet = *body.rigidBody;
    const btTransform& start = bullet.getCenterOfMassTransform();
    const Written end = writtenOf(body, stateNow(index));
    double turn = 0;  // ‖ΔR‖_F ≥ the spectral norm: no point turns further than it × reach
    for (int row = 0; row < 3; ++row)
      turn += (end.frame.getBasis()[row] - start.getBasis()[row]).length2();
    return (end.frame.getOrigin() - start.getOrigin()).length() <= noise * m_timeStep &&
           std::sqrt(turn) * body.reach <= noise * m_timeStep &&
           (end.linearVelocity - bullet.getLinearVelocity()).length() <= noise &&
           (end.angularVelocity - bullet.getAngularVelocity()).length() * body.reach <= noise;
  });
}

}  // namespace carom
