// A pyramid of unit boxes dropped onto the ground from a gap under every level, as Bullet users
// stack them (world_many_contacts_test.cpp, settling_pile_test.cpp).
#pragma once

#include <BulletCollision/CollisionShapes/btBoxShape.h>

#include <algorithm>
#include <vector>

#include "bullet/world_scene.h"

namespace carom::test {

struct BoxPyramid {
  std::vector<btRigidBody*> boxes;
  std::vector<btVector3> rest;  // where each box stands once the pyramid has landed

  // The largest distance of a box from its place in the landed pyramid (m).
  double farthestFromRest() const {
    double farthest = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i)
      farthest = std::max(farthest, (boxes[i]->getCenterOfMassPosition() - rest[i]).length());
    return farthest;
  }
};

// The ground and `levels` levels of 1 m boxes of 1 kg, `gap` (m) under every level, each level half
// a box in from the one below; the ground and every box of the world's material "test".
inline BoxPyramid addBoxPyramid(Scene<DynamicsWorld>& scene, int levels, double gap) {
  scene.world().setMaterial(scene.addGround(), "test");
  BoxPyramid pyramid;
  for (int row = 0; row < levels; ++row) {
    for (int i = 0; i < levels - row; ++i) {
      const double x = i - 0.5 * (levels - row - 1);
      pyramid.rest.emplace_back(x, 0.5 + row, 0);
      pyramid.boxes.push_back(scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0,
                                        btVector3(x, 0.5 + row + gap * (row + 1), 0)));
      scene.world().setMaterial(pyramid.boxes.back(), "test");
    }
  }
  return pyramid;
}

}  // namespace carom::test
