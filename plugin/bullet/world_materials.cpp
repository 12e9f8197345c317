// The material of a contact pair (INTERFACES.md §2): the config's materials for bodies that have
// one, Bullet's own restitution and friction for bodies that do not.
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>

#include "variational_step.h"

namespace carom {

namespace {

// A body without a carom material, as stock Bullet would treat it: its own m_restitution and
// m_friction, with the impact law of its partner (Stronge's when the partner has none either).
core::impact::Material bulletMaterial(const btCollisionObject& body,
                                      core::impact::ImpactLawKind law) {
  return {"bullet", law, body.getRestitution(), body.getFriction(), 0};
}

}  // namespace

core::impact::Material VariationalStep::materialOf(const btCollisionObject* a,
                                                   const btCollisionObject* b) const {
  const std::string* nameA = m_world.getMaterial(a);
  const std::string* nameB = m_world.getMaterial(b);
  const Config& config = m_world.getConfig();
  if (nameA != nullptr && nameB != nullptr) {
    return config.material(*nameA, *nameB);
  }
  if (nameA == nullptr && nameB == nullptr) {
    // Bullet's global combiners (product of restitutions, clamped product of frictions).
    return {"bullet", core::impact::ImpactLawKind::kStronge,
            gCalculateCombinedRestitutionCallback(a, b), gCalculateCombinedFrictionCallback(a, b),
            0};
  }
  const bool aHasOne = nameA != nullptr;
  const core::impact::Material& carom = config.material(aHasOne ? *nameA : *nameB);
  return core::impact::combineMaterials(carom, bulletMaterial(aHasOne ? *b : *a, carom.impact));
}

}  // namespace carom
