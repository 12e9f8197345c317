// [[joint]] tables of a scene file: what they hold, what they refuse (by file, line and key), and
// the joints `carom run` builds from them.
#include <gtest/gtest.h>

#include <string>

#include "carom/bullet/scene.h"
#include "scene_world.h"
#include "support/errors.h"

namespace carom {
namespace {

using test::expectErrorNaming;

const std::string kBodies = R"(
[[body]]
name = "ground"
shape = "plane"
normal = [0.0, 0.0, 1.0]
offset = 0.0

[[body]]
name = "bob"
shape = "sphere"
radius = 0.05
mass = 1.0
position = [1.0, 0.0, 2.0]

[[body]]
name = "rod"
shape = "box"
half_extents = [0.5, 0.05, 0.05]
mass = 1.0
position = [0.5, 0.0, 4.0]
)";

TEST(SceneJoints, ReadsEveryKeyOfAJoint) {
  const Scene scene = Scene::parse(kBodies + R"(
[[joint]]
type = "hinge"
body_a = "rod"
pivot = [0.0, 0.0, 4.0]
axis = [0.0, 1.0, 0.0]
lower = -0.5
upper = 0.5
motor_speed = 2.0
motor_impulse = 0.1
disable_collisions = false

[[joint]]
type = "point"
body_a = "bob"
body_b = "rod"
pivot = [1.0, 0.0, 4.0]
)");
  ASSERT_EQ(scene.joints.size(), 2u);
  const SceneJoint& hinge = scene.joints[0];
  EXPECT_EQ(hinge.kind, JointKind::hinge);
  EXPECT_EQ(hinge.bodyA, "rod");
  EXPECT_TRUE(hinge.bodyB.empty());
  EXPECT_EQ(hinge.axis, btVector3(0, 1, 0));
  EXPECT_TRUE(hinge.limited && hinge.motor);
  EXPECT_EQ(hinge.upper, 0.5);
  EXPECT_EQ(hinge.motorImpulse, 0.1);
  EXPECT_FALSE(hinge.disableCollisions);
  EXPECT_EQ(scene.joints[1].bodyB, "rod");
  EXPECT_TRUE(scene.joints[1].disableCollisions);
  EXPECT_EQ(scene.joints[1].line, 33);
}

TEST(SceneJoints, BadJointsAreRefusedByLineAndKey) {
  const auto joint = [](const std::string& lines) {
    return kBodies + "\n[[joint]]\n" + lines;  // [[joint]] on line 22, its keys from 23 on
  };
  expectErrorNaming([&] { Scene::parse(joint("type = \"rope\"\nbody_a = \"bob\"\n")); },
                    "<string>:23: joint[0].type: expected one of");
  expectErrorNaming(
      [&] { Scene::parse(joint("type = \"point\"\nbody_a = \"bobb\"\npivot = [0, 0, 0]\n")); },
      "<string>:24: joint[0].body_a: no body is named \"bobb\"");
  expectErrorNaming(
      [&] { Scene::parse(joint("type = \"point\"\nbody_a = \"bob\"\naxis = [1, 0, 0]\n")); },
      "<string>:25: joint[0].axis: unknown key");
  expectErrorNaming([&] { Scene::parse(joint("type = \"point\"\nbody_a = \"bob\"\n")); },
                    "<string>:22: joint[0].pivot: missing");
  expectErrorNaming(
      [&] {
        Scene::parse(
            joint("type = \"hinge\"\nbody_a = \"rod\"\npivot = [0, 0, 4]\n"
                  "axis = [0, 1, 0]\nlower = -1.0\n"));
      },
      "<string>:22: joint[0].upper: missing");
  expectErrorNaming(
      [&] {
        Scene::parse(
            joint("type = \"hinge\"\nbody_a = \"rod\"\npivot = [0, 0, 4]\n"
                  "axis = [0, 2, 0]\n"));
      },
      "<string>:26: joint[0].axis: must be a unit vector");
  expectErrorNaming(
      [&] {
        Scene::parse(
            joint("type = \"point\"\nbody_a = \"bob\"\nbody_b = \"bob\"\npivot = [0, 0, 0]\n"));
      },
      "<string>:25: joint[0].body_b: a joint must join two different bodies");
  expectErrorNaming(
      [&] { Scene::parse(joint("type = \"fixed\"\nbody_a = \"ground\"\npivot = [0, 0, 0]\n")); },
      "joint[0].body_a: a joint needs a moving body");
}

// The bundled cradle on strings, built as `carom run` builds it: one joint per ball, refused by
// name in variational mode.
TEST(SceneJoints, TheCradleOnStringsBuildsItsJoints) {
  const Scene scene =
      Scene::fromFile(std::string(CAROM_SCENES_DIR) + "/newtons_cradle_strings.toml");
  ASSERT_EQ(scene.joints.size(), 5u);
  Config lcp = scene.config;
  lcp.solver.kind = SolverKind::lcp;
  cli::SceneWorld world(scene, lcp);
  EXPECT_EQ(world.world().getNumConstraints(), 5);
  Config variational = scene.config;
  variational.solver.kind = SolverKind::variational;
  expectErrorNaming([&] { cli::SceneWorld refused(scene, variational); }, "variational");
}

}  // namespace
}  // namespace carom
