// What a run would fail on or get wrong, refused when the scene is read: moments of inertia no
// body has, hulls that enclose nothing or are not centred on their body origin, two impact laws
// that meet without a pair table, and one pair given twice.
#include <gtest/gtest.h>

#include <string>

#include "carom/bullet/scene.h"
#include "support/errors.h"

namespace carom {
namespace {

using test::expectErrorNaming;

std::string body(const std::string& name, const std::string& keys) {
  return "[[body]]\nname = \"" + name + "\"\n" + keys;
}

std::string hull(const std::string& points, double mass = 1) {
  return body("h", "shape = \"convex_hull\"\nmass = " + std::to_string(mass) +
                       "\ninertia = [1, 1, 1]\npoints = " + points + "\n");
}

TEST(SceneConsistency, MomentsOfInertiaObeyTheTriangleInequality) {
  const std::string sphere = "shape = \"sphere\"\nradius = 1\nmass = 1\n";
  expectErrorNaming([&] { Scene::parse(body("b", sphere + "inertia = [1, 1, 100]\n"), "s.toml"); },
                    "s.toml:6: body[0].inertia: [1, 1, 100] is no body's: each principal moment "
                    "is at most the sum of the other two, and 100 > 2");
  expectErrorNaming([&] { Scene::parse(body("b", sphere + "inertia = [5, 1, 1]\n"), "s.toml"); },
                    "5 > 2");
  // A thin disk of radius r: Ix = Iy = m r²/4, Iz = m r²/2 = Ix + Iy, the bound itself.
  EXPECT_NO_THROW(Scene::parse(body("disk", sphere + "inertia = [0.25, 0.25, 0.5]\n")));
  // A static body has no inertia to judge.
  EXPECT_NO_THROW(Scene::parse(body("b", "shape = \"sphere\"\nradius = 1\ninertia = [1, 1, 9]\n")));
}

TEST(SceneConsistency, HullsThatEncloseNoVolumeAreRefused) {
  const char* flat[] = {
      "[[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]",                   // coincident
      "[[0, 0, 0], [1, 1, 1], [2, 2, 2], [-1, -1, -1], [3, 3, 3]]",     // collinear
      "[[1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0], [0.5, 0.5, 0]]",  // coplanar
  };
  for (const char* points : flat) {
    expectErrorNaming([&] { Scene::parse(hull(points), "s.toml"); },
                      "s.toml:6: body[0].points: the points enclose no volume");
    expectErrorNaming([&] { Scene::parse(hull(points, 0), "s.toml"); }, "enclose no volume");
  }
}

TEST(SceneConsistency, AMovingHullIsCentredOnItsBodyOrigin) {
  // The tetrahedron with a corner at the origin has its centre of volume at the mean of its four
  // corners, (1/4, 1/4, 1/4).
  const std::string corner = "[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]";
  expectErrorNaming(
      [&] { Scene::parse(hull(corner), "s.toml"); },
      "s.toml:6: body[0].points: the hull's centre of volume is at [0.25, 0.25, 0.25], "
      "not at the body origin");
  EXPECT_NO_THROW(Scene::parse(hull(corner, 0)));  // a static hull does not turn
  // The same tetrahedron less its centre; and a cube with one extra point on a face, which moves
  // the points' mean (to z = 1/9) but not the solid's centre.
  EXPECT_NO_THROW(
      Scene::parse(hull("[[-0.25, -0.25, -0.25], [0.75, -0.25, -0.25], [-0.25, 0.75, -0.25], "
                        "[-0.25, -0.25, 0.75]]")));
  EXPECT_NO_THROW(
      Scene::parse(hull("[[1, 1, 1], [1, 1, -1], [1, -1, 1], [1, -1, -1], [-1, 1, 1], [-1, 1, -1], "
                        "[-1, -1, 1], [-1, -1, -1], [0, 0, 1]]")));
}

TEST(SceneConsistency, DifferentLawsThatMayTouchNeedAPairTable) {
  const std::string materials =
      "[material.steel]\nimpact = \"newton\"\n[material.rubber]\nimpact = \"stronge\"\n";
  const std::string ground = body("ground",
                                  "shape = \"plane\"\nnormal = [0, 0, 1]\n"
                                  "material = \"steel\"\n");
  const std::string ball = body("ball",
                                "shape = \"sphere\"\nradius = 1\nmass = 1\n"
                                "position = [0, 0, 2]\nmaterial = \"rubber\"\n");
  expectErrorNaming([&] { Scene::parse(materials + ground + ball, "s.toml"); },
                    "s.toml:10: body[1].material: ");
  expectErrorNaming([&] { Scene::parse(materials + ground + ball, "s.toml"); },
                    "(bodies \"ball\" and \"ground\" may touch)");
  EXPECT_NO_THROW(
      Scene::parse(materials + "[pair.rubber.steel]\nimpact = \"newton\"\n" + ground + ball));
  // Two static bodies never touch.
  const std::string wall = body("wall", "shape = \"sphere\"\nradius = 1\nmaterial = \"rubber\"\n");
  EXPECT_NO_THROW(Scene::parse(materials + ground + wall));
}

TEST(SceneConsistency, APairGivenInBothOrdersIsRefusedNamingBoth) {
  const std::string text =
      "[material.a]\n[material.b]\n[pair.a.b]\nfriction = 0.1\n[pair.b.a]\nfriction = 0.9\n";
  expectErrorNaming([&] { Scene::parse(text, "s.toml"); },
                    "[pair.a.b] and [pair.b.a] both give this pair");
  expectErrorNaming([&] { Config::parse(text, "c.toml"); }, "c.toml:5: pair.b.a");
}

}  // namespace
}  // namespace carom
