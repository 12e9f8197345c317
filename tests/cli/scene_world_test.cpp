// The carom command's scene world in bullet mode: stock Bullet multiplies the two bodies'
// restitution and friction, and the scene's values must be what it ends up with (issue 30).
#include <gtest/gtest.h>

#include <cmath>

#include "scene_world.h"

namespace carom::cli {
namespace {

// A ball resting on the ground so that one step has a contact; `ground` and `ball` name materials.
Scene ballOnGround(const std::string& ground, const std::string& ball) {
  return Scene::parse(R"([solver]
kind = "bullet"
[material.steel]
restitution = 0.5
friction = 0.3
[material.rubber]
restitution = 0.8
friction = 0.75
[[body]]
name = "ground"
shape = "plane"
normal = [0.0, 0.0, 1.0]
material = ")" + ground +
                      R"("
[[body]]
name = "ball"
shape = "sphere"
radius = 0.1
mass = 1.0
position = [0.0, 0.0, 0.0995]
material = ")" + ball +
                      R"("
)");
}

// The combined values Bullet put on the first contact point after one step.
std::pair<double, double> bulletCombined(const Scene& scene) {
  SceneWorld world(scene, scene.config);
  world.world().stepSimulation(0.01, 1, 0.01);
  btDispatcher* dispatcher = world.world().getDispatcher();
  for (int i = 0; i < dispatcher->getNumManifolds(); ++i) {
    const btPersistentManifold* manifold = dispatcher->getManifoldByIndexInternal(i);
    if (manifold->getNumContacts() > 0)
      return {manifold->getContactPoint(0).m_combinedRestitution,
              manifold->getContactPoint(0).m_combinedFriction};
  }
  ADD_FAILURE() << "no contact after one step";
  return {NAN, NAN};
}

TEST(SceneWorld, StockBulletSeesOneMaterialsOwnRestitutionAndFriction) {
  const auto [restitution, friction] = bulletCombined(ballOnGround("steel", "steel"));
  EXPECT_NEAR(restitution, 0.5, 1e-15);  // not 0.25, Bullet's product of 0.5 and 0.5
  EXPECT_NEAR(friction, 0.3, 1e-15);
}

TEST(SceneWorld, StockBulletSeesTheGeometricMeanFrictionOfTwoMaterials) {
  const auto [restitution, friction] = bulletCombined(ballOnGround("steel", "rubber"));
  EXPECT_NEAR(friction, std::sqrt(0.3 * 0.75), 1e-15);  // carom's pair rule
  EXPECT_NEAR(restitution, std::sqrt(0.5 * 0.8), 1e-15);
}

}  // namespace
}  // namespace carom::cli
