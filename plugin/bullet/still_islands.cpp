// Still islands: an island at rest that a step leaves exactly as it found it (every body's pose and
// velocities to the last bit) is a fixed point of the step. Found again with the same bytes in
// everything its run reads, its step is the same function of the same inputs, and its result is
// known without flowing, querying or solving anything. The warm start is the one input left out:
// where contacts are redundant (a box on four corners) each converged solve moves the impulses
// along their null space by round-off (1e-11 N s a step in a pyramid) without changing a velocity;
// a repeat keeps the last impulses, a solution as converged as the next solve's. A tower, wall or
// pyramid standing still then costs its broadphase only, where Bullet would put it to sleep after
// two seconds; unlike sleeping, nothing is approximated: any change of an input (a force, a
// partner moved, a friction changed, a body arriving) makes a different fingerprint, and the island
// runs.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "bt_eigen.h"
#include "variational_step.h"

namespace carom {

namespace {

// Appends the bytes of scalars and pointers (no struct: its padding has no defined bytes).
class Bytes {
 public:
  template <class T>
  void add(T value) {
    static_assert(std::is_arithmetic_v<T> || std::is_pointer_v<T>, "scalars only");
    const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
    m_bytes.insert(m_bytes.end(), bytes, bytes + sizeof value);
  }
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
    add(object.getCollisionShape());
    add(object.getCollisionFlags());
    const btBroadphaseProxy* proxy = object.getBroadphaseHandle();
    add(proxy->m_aabbMin);
    add(proxy->m_aabbMax);
  }
  std::vector<unsigned char> take() { return std::move(m_bytes); }

 private:
  std::vector<unsigned char> m_bytes;
};

bool sameBits(const double* a, const double* b, int count) {
  return std::memcmp(a, b, sizeof(double) * static_cast<std::size_t>(count)) == 0;
}

bool sameBits(const btVector3& a, const btVector3& b) {
  return sameBits(a.m_floats, b.m_floats, 3);
}

// Whether writeBodies would give `body` the pose and velocities it has: those it started the step
// with, as the step read them (after Bullet's damping), since the step writes it only at its end.
// Bullet's values, not the state's: γ = m v and Π = J Rᵀ ω do not return v and ω to the last bit.
bool writesWhatItRead(const StepBody& body) {
  const btRigidBody& bullet = *body.rigidBody;
  const btTransform& frame = bullet.getCenterOfMassTransform();
  const btMatrix3x3 R = detail::toBt(body.state.R);
  for (int row = 0; row < 3; ++row) {
    if (!sameBits(R[row], frame.getBasis()[row])) return false;
  }
  return sameBits(detail::toBt(body.state.x), frame.getOrigin()) &&
         sameBits(detail::toBt(core::linearVelocity(body.mass, body.state)),
                  bullet.getLinearVelocity()) &&
         sameBits(detail::toBt(core::angularVelocityWorld(body.mass, body.state)),
                  bullet.getAngularVelocity());
}

}  // namespace

VariationalStep::Stillness& VariationalStep::stillnessOf(int id) {
  if (static_cast<int>(m_stillness.size()) <= id) m_stillness.resize(id + 1);
  return m_stillness[id];
}

std::optional<std::vector<unsigned char>> VariationalStep::stillInputsOf(
    const Island& island) const {
  Bytes bytes;
  // Read over all the step's bodies, these bound every island's holds.
  bytes.add(m_timeStep);
  bytes.add(m_restingSpeed);
  bytes.add(m_holdingReach);
  for (const int index : island.bodies) {
    if (jointed(index)) return std::nullopt;
    const StepBody& body = m_bodies[index];
    // As the step read them (readBodies): the bodies are written back only at its end.
    bytes.add(body.rigidBody->getCenterOfMassTransform());
    bytes.add(body.rigidBody->getLinearVelocity());
    bytes.add(body.rigidBody->getAngularVelocity());
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
    bytes.add(pair.childA);
    bytes.add(pair.childB);
    bytes.add(pair.slack);
    bytes.add(pair.reversed);
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
  Stillness& stillness = stillnessOf(id);
  stillness = {};
  stillness.inputs = stillInputsOf(island);
  if (!stillness.inputs) return false;
  const auto found = m_world.m_stillIslands.find(m_bodies[island.bodies.front()].rigidBody);
  if (found == m_world.m_stillIslands.end() || found->second.inputs != *stillness.inputs)
    return false;
  // Its bodies are where the step started them (runIsland has not flowed them), which is where the
  // step ends them.
  stillness.repeated = true;
  m_diagnostics.persistentContacts += found->second.persistentContacts;
  ++m_diagnostics.restingIslands;
  ++m_diagnostics.stillIslands;
  return true;
}

bool VariationalStep::endedStill(const Island& island) const {
  return std::all_of(island.bodies.begin(), island.bodies.end(),
                     [&](int body) { return writesWhatItRead(m_bodies[body]); });
}

}  // namespace carom
