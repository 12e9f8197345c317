// carom::Scene: what a scene file means, and the errors that name file, line and key.
#include <gtest/gtest.h>

#include <cmath>

#include "carom/bullet/scene.h"
#include "support/errors.h"

namespace carom {
namespace {

using test::expectErrorNaming;

TEST(Scene, DefaultsFillWhatTheFileLeavesOut) {
  const Scene scene = Scene::parse(R"([[body]]
name = "ball"
shape = "sphere"
radius = 0.5
mass = 2.0
)");
  EXPECT_EQ(scene.world.gravity, btVector3(0, 0, -9.81));
  EXPECT_EQ(scene.world.timestep, 0.01);
  EXPECT_EQ(scene.world.outputEvery, 1);
  ASSERT_EQ(scene.bodies.size(), 1u);
  const SceneBody& ball = scene.bodies[0];
  EXPECT_EQ(ball.material, "default");
  EXPECT_EQ(ball.orientation, btQuaternion::getIdentity());
  EXPECT_DOUBLE_EQ(ball.inertia.x(), 0.4 * 2.0 * 0.25);  // (2/5) m r²
}

TEST(Scene, InertiaComesFromTheShapeUnlessGiven) {
  const Scene scene = Scene::parse(R"([[body]]
name = "block"
shape = "box"
half_extents = [0.5, 0.25, 1.0]
mass = 1.0
[[body]]
name = "disk"
shape = "sphere"
radius = 1.0
mass = 1.0
inertia = [0.5, 0.5, 0.5]
position = [5.0, 0.0, 0.0]
)");
  // Box: (m/3)(b² + c²) about x with half extents a, b, c; the rocking block's I_y = 5/12.
  EXPECT_DOUBLE_EQ(scene.bodies[0].inertia.y(), 5.0 / 12.0);
  EXPECT_DOUBLE_EQ(scene.bodies[0].inertia.x(), (0.0625 + 1.0) / 3.0);
  EXPECT_EQ(scene.bodies[1].inertia, btVector3(0.5, 0.5, 0.5));
}

TEST(Scene, StaticByMassZeroOrOmitted) {
  const Scene scene = Scene::parse(R"([[body]]
name = "floor"
shape = "plane"
normal = [0.0, 0.0, 2.0]
[[body]]
name = "anvil"
shape = "box"
half_extents = [1.0, 1.0, 1.0]
mass = 0.0
)");
  EXPECT_TRUE(scene.bodies[0].isStatic());
  EXPECT_TRUE(scene.bodies[1].isStatic());
  EXPECT_EQ(scene.bodies[0].shape.normal, btVector3(0, 0, 1));  // normalized
  EXPECT_EQ(scene.bodies[0].shape.offset, 0.0);
}

TEST(Scene, MaterialsAndPairsAreTheConfigs) {
  const Scene scene = Scene::parse(R"([material.steel]
friction = 0.2
[material.rubber]
friction = 0.8
[pair.steel.rubber]
friction = 0.6
[[body]]
name = "ball"
shape = "sphere"
radius = 0.1
mass = 1.0
material = "rubber"
)");
  EXPECT_EQ(scene.config.material("steel", "rubber").friction, 0.6);
  EXPECT_EQ(scene.bodies[0].material, "rubber");
}

TEST(Scene, ErrorsNameFileLineAndKey) {
  const std::string ball = "[[body]]\nname = \"ball\"\nshape = \"sphere\"\nradius = 0.1\n";
  expectErrorNaming([&] { Scene::parse(ball + "mass = 1\nspin = 2\n", "s.toml"); },
                    "s.toml:6: body[0].spin: unknown key");
  expectErrorNaming([&] { Scene::parse(ball + "mass = 1\nmaterial = \"gold\"\n", "s.toml"); },
                    "s.toml:6: body[0].material");
  expectErrorNaming([&] { Scene::parse(ball + "velocity = [1.0, 0.0, 0.0]\n", "s.toml"); },
                    "s.toml:1: body[0].velocity: a static body");
  expectErrorNaming([&] { Scene::parse(ball + "mass = 1\n" + ball + "mass = 1\n", "s.toml"); },
                    "s.toml:6: body[1].name");
  expectErrorNaming([&] { Scene::parse("[world]\ntimestep = 0\n", "s.toml"); },
                    "s.toml:2: world.timestep");
  expectErrorNaming([&] { Scene::parse("[camera]\n", "s.toml"); }, "s.toml:1: camera");
  expectErrorNaming(
      [&] { Scene::parse("[[body]]\nname = \"f\"\nshape = \"plane\"\nmass = 1\n", "s.toml"); },
      "s.toml:4: body[0].mass: a plane is static");
  expectErrorNaming(
      [&] {
        Scene::parse(
            "[[body]]\nname = \"h\"\nshape = \"convex_hull\"\nmass = 1\npoints = "
            "[[0,0,0],[1,0,0],[0,1,0],[0,0,1]]\n",
            "s.toml");
      },
      "s.toml:1: body[0].inertia: missing");
}

TEST(Scene, ShapesBecomeBulletShapes) {
  const Scene scene = Scene::parse(R"([[body]]
name = "capsule"
shape = "capsule"
radius = 0.5
half_height = 1.0
mass = 1.0
)");
  const auto shape = makeShape(scene.bodies[0].shape);
  btVector3 lo, hi;
  shape->getAabb(btTransform::getIdentity(), lo, hi);
  EXPECT_NEAR(hi.z(), 1.5, 1e-9);  // along z: half height plus the cap
  EXPECT_NEAR(hi.x(), 0.5, 1e-9);
}

TEST(Scene, CompoundChildrenArePlacedInTheBodyFrame) {
  const Scene scene = Scene::parse(R"([[body]]
name = "dumbbell"
shape = "compound"
mass = 1.0
inertia = [1.0, 2.0, 2.0]
[[body.children]]
shape = "sphere"
radius = 0.5
position = [-1.0, 0.0, 0.0]
[[body.children]]
shape = "box"
half_extents = [0.5, 0.5, 0.5]
position = [1.0, 0.0, 0.0]
orientation = [0.7071067811865476, 0.0, 0.0, 0.7071067811865476]
)");
  const ShapeSpec& spec = scene.bodies[0].shape;
  ASSERT_EQ(spec.children.size(), 2u);
  EXPECT_EQ(spec.children[0].shape.kind, ShapeKind::sphere);
  EXPECT_EQ(spec.children[0].position, btVector3(-1, 0, 0));
  EXPECT_EQ(spec.children[1].shape.kind, ShapeKind::box);
  EXPECT_EQ(scene.bodies[0].inertia, btVector3(1, 2, 2));
  const auto shape = makeShape(spec);
  ASSERT_TRUE(shape->isCompound());
  btVector3 lo, hi;
  shape->getAabb(btTransform::getIdentity(), lo, hi);
  EXPECT_NEAR(lo.x(), -1.5, 1e-6);  // the sphere's far side
  EXPECT_NEAR(hi.x(), 1.5, 1e-6);   // the turned box's
  expectErrorNaming(
      [&] {
        Scene::parse(
            "[[body]]\nname = \"u\"\nshape = \"compound\"\nmass = 1\ninertia = "
            "[1, 1, 1]\nchildren = [1, 2]\n",
            "s.toml");
      },
      "s.toml:6: body[0].children: expected one or more [[body.children]] tables");
}

TEST(Scene, CapsuleAndCylinderInertiaAlongZ) {
  const Scene scene = Scene::parse(R"([[body]]
name = "pill"
shape = "capsule"
radius = 0.05
half_height = 0.1
mass = 0.3
[[body]]
name = "can"
shape = "cylinder"
radius = 0.05
half_height = 0.1
mass = 0.4
position = [1.0, 0.0, 0.0]
)");
  // Capsule: cylinder 0.225 kg and hemispheres 0.075 kg (volumes 1.5708e-3 and 5.236e-4 m³);
  // axial mc r²/2 + (2/5) ms r², across mc (3r² + L²)/12 + ms (2r²/5 + L²/4 + 3Lr/8).
  EXPECT_NEAR(scene.bodies[0].inertia.z(), 3.5625e-4, 1e-12);
  EXPECT_NEAR(scene.bodies[0].inertia.x(), 8.90625e-4 + 1.10625e-3, 1e-12);
  // Cylinder: m r²/2 along the axis, m (3r² + L²)/12 across.
  EXPECT_NEAR(scene.bodies[1].inertia.z(), 0.5 * 0.4 * 0.0025, 1e-15);
  EXPECT_NEAR(scene.bodies[1].inertia.y(), 0.4 * (0.0075 + 0.04) / 12, 1e-15);
}

}  // namespace
}  // namespace carom
