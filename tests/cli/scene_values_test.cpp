// Values that are finite in the file but whose derived quantities are not: a normal whose length
// overflows, moments of inertia out of double range, a friction blend that overflows.
#include <gtest/gtest.h>

#include <string>

#include "carom/bullet/scene.h"
#include "support/errors.h"

namespace carom {
namespace {

using test::expectErrorNaming;

std::string plane(const std::string& normal) {
  return "[[body]]\nname = \"floor\"\nshape = \"plane\"\nnormal = " + normal + "\n";
}

std::string ball(const std::string& keys) {
  return "[[body]]\nname = \"ball\"\nshape = \"sphere\"\n" + keys;
}

TEST(SceneValues, HugeAndTinyNormalsNormalizeToTheirDirection) {
  EXPECT_EQ(Scene::parse(plane("[0, 0, 1e200]")).bodies[0].shape.normal, btVector3(0, 0, 1));
  EXPECT_EQ(Scene::parse(plane("[-1e-300, 0, 0]")).bodies[0].shape.normal, btVector3(-1, 0, 0));
  // A 3-4-5 triangle scaled to 1e300: the direction (0.6, 0.8, 0).
  const btVector3 n = Scene::parse(plane("[3e300, 4e300, 0]")).bodies[0].shape.normal;
  EXPECT_NEAR(n.x(), 0.6, 1e-15);
  EXPECT_NEAR(n.y(), 0.8, 1e-15);
  expectErrorNaming([] { Scene::parse(plane("[0, 0, 0]"), "s.toml"); },
                    "s.toml:4: body[0].normal: must not be zero");
  expectErrorNaming([] { Scene::parse(plane("[0, 0, inf]"), "s.toml"); },
                    "s.toml:4: body[0].normal: must be finite");
  expectErrorNaming([] { Scene::parse(plane("[nan, 0, 1]"), "s.toml"); }, "must be finite");
}

TEST(SceneValues, InertiaOutOfDoubleRangeIsRefused) {
  // (2/5) m r² with r = 1e300 overflows, with r = 1e-200 underflows to zero.
  expectErrorNaming([] { Scene::parse(ball("radius = 1e300\nmass = 1\n"), "s.toml"); },
                    "s.toml:1: body[0].inertia: the moments of inertia from the shape's size and "
                    "mass are [inf, inf, inf]");
  expectErrorNaming([] { Scene::parse(ball("radius = 1e-200\nmass = 1\n"), "s.toml"); },
                    "body[0].inertia: the moments of inertia from the shape's size and mass are "
                    "[0, 0, 0]");
  // (2/5) · 1e308 · 100 overflows too.
  expectErrorNaming([] { Scene::parse(ball("radius = 10\nmass = 1e308\n"), "s.toml"); },
                    "body[0].inertia: the moments");
  // Given moments and sizes must be normal numbers too.
  expectErrorNaming(
      [] { Scene::parse(ball("radius = 1\nmass = 1\ninertia = [1, 1, 1e-310]\n"), "s.toml"); },
      "s.toml:6: body[0].inertia: every entry must be positive");
  expectErrorNaming([] { Scene::parse(ball("radius = 1e-310\nmass = 1\n"), "s.toml"); },
                    "s.toml:4: body[0].radius: must be finite and positive, got 1e-310");
}

TEST(SceneValues, LargeFrictionsBlendWithoutOverflow) {
  const Scene scene = Scene::parse(R"([material.a]
friction = 1e200
[material.b]
friction = 4e200
)");
  // The geometric mean √(1e200 · 4e200) = 2e200, which the product alone would overflow.
  EXPECT_DOUBLE_EQ(scene.config.material("a", "b").friction, 2e200);
  expectErrorNaming([] { Scene::parse("[material.a]\nfriction = inf\n", "s.toml"); },
                    "s.toml:2: material.a.friction");
  expectErrorNaming([] { Scene::parse("[material.a]\nrestitution = nan\n", "s.toml"); },
                    "s.toml:2: material.a.restitution");
}

}  // namespace
}  // namespace carom
