// Random scenes of mixed convex bodies in variational mode: spheres, boxes, ellipsoids, capsules,
// cylinders, cones, convex hulls and compounds, with random materials, poses, velocities and
// spins, thrown onto the ground and a tilted static box. What no scene may do: gain energy, throw,
// or leave a body sunk into another. Each defect these scenes have shown was fixed with a test of
// its own (world_smooth_contacts_test.cpp, world_resting_island_test.cpp); these keep watch over
// the scenes nobody wrote down.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "bullet/world_scene.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/gap.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;

// Scene `seed`: the ground, a static box tilted by 0.3 rad, and `bodies` random bodies, none
// within 1 cm of another at the start.
class RandomScene {
 public:
  RandomScene(unsigned seed, int bodies) : random_(seed) {
    btRigidBody* ground = scene_.addGround();
    setMaterial(*ground);
    btRigidBody* ramp = scene_.add(new btBoxShape(btVector3(1, 0.1, 1)), 0, btVector3(3, 0.3, 0));
    ramp->getWorldTransform().setRotation(btQuaternion(btVector3(0, 0, 1), 0.3));
    while (bodies > 0) {
      btCollisionShape* shape = randomShape();
      const btVector3 at(uniform(-2, 2), uniform(0.5, 3.5), uniform(-2, 2));
      const btVector3 velocity(uniform(-3, 3), uniform(-3, 3), uniform(-3, 3));
      const btVector3 axis(uniform(0, 1), uniform(0, 1), uniform(0.1, 1.1));
      const btTransform pose(btQuaternion(axis.normalized(), uniform(0, 6)), at);
      if (!clearOfTheOthers(*shape, pose)) {
        delete shape;
        continue;
      }
      btRigidBody* body = scene_.add(shape, uniform(0.2, 3.2), at, velocity);
      body->setAngularVelocity(btVector3(uniform(-10, 10), uniform(-10, 10), uniform(-10, 10)));
      setMaterial(*body);
      body->setWorldTransform(pose);
      body->updateInertiaTensor();
      --bodies;
    }
  }

  DynamicsWorld& world() { return scene_.world(); }

  // The deepest overlap of two objects now, one of them dynamic (m; ≤ 0).
  double deepestOverlap() {
    double deepest = 0;
    btOverlappingPairCache* cache = world().getBroadphase()->getOverlappingPairCache();
    for (int i = 0; i < cache->getNumOverlappingPairs(); ++i) {
      const btBroadphasePair& pair = cache->getOverlappingPairArrayPtr()[i];
      const auto* a = static_cast<const btCollisionObject*>(pair.m_pProxy0->m_clientObject);
      const auto* b = static_cast<const btCollisionObject*>(pair.m_pProxy1->m_clientObject);
      if (a->isStaticObject() && b->isStaticObject()) continue;
      deepest = std::min(deepest, gap(*a->getCollisionShape(), a->getWorldTransform(),
                                      *b->getCollisionShape(), b->getWorldTransform())
                                      .distance);
    }
    return deepest;
  }

 private:
  double uniform(double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(random_);
  }

  void setMaterial(btRigidBody& body) {
    body.setRestitution(uniform(0, 1));
    body.setFriction(uniform(0, 1));
  }

  btCollisionShape* randomShape() {
    const int kind = std::uniform_int_distribution<int>(0, 7)(random_);
    const double size = uniform(0.1, 0.4);
    switch (kind) {
      case 0:
        return new btSphereShape(size);
      case 1:  // no face thinner than 5 cm
        return new btBoxShape(btVector3(size, std::max(0.05, size * uniform(0.3, 1.3)),
                                        std::max(0.05, size * uniform(0.5, 1.5))));
      case 2:
        return new EllipsoidShape(
            btVector3(size, size * uniform(0.4, 1.4), size * uniform(0.6, 1.6)));
      case 3:
        return new btCapsuleShape(0.5 * size, size);
      case 4:
        return new btCylinderShape(btVector3(size, 0.7 * size, size));
      case 5:
        return new btConeShape(size, 2 * size);
      case 6: {
        auto* hull = new btConvexHullShape();
        for (int k = 0; k < 8; ++k)
          hull->addPoint(
              btVector3(uniform(-size, size), uniform(-size, size), uniform(-size, size)));
        return hull;
      }
      default: {  // a box and a sphere side by side; the compound does not own its children
        auto* compound = new btCompoundShape();
        children_.push_back(std::make_unique<btBoxShape>(btVector3(size, 0.5 * size, 0.5 * size)));
        compound->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(size, 0, 0)),
                                children_.back().get());
        children_.push_back(std::make_unique<btSphereShape>(0.6 * size));
        compound->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-size, 0, 0)),
                                children_.back().get());
        return compound;
      }
    }
  }

  bool clearOfTheOthers(const btCollisionShape& shape, const btTransform& pose) {
    const btCollisionObjectArray& objects = world().getCollisionObjectArray();
    for (int k = 0; k < objects.size(); ++k) {
      if (gap(shape, pose, *objects[k]->getCollisionShape(), objects[k]->getWorldTransform())
              .distance <= 0.01) {
        return false;
      }
    }
    return true;
  }

  std::mt19937 random_;
  std::vector<std::unique_ptr<btCollisionShape>> children_;  // before scene_: outlives it
  test::Scene<DynamicsWorld> scene_{test::configWith(SolverKind::variational)};
};

// 40 scenes of 12 bodies, 300 steps each (5 s). The deepest overlap of all is 1.6 mm (measured).
// It was 2.5 mm where the Zeno guard held only its next event's pair, not every pair of the body
// that had had its events, and 7 of these scenes went past 5 mm, the worst to 5.2 cm, where a
// quiet pair was left alone for the rest of the step (measured). Stock Bullet and lcp mode sink
// bodies 20 to 57 cm deep in scenes like these: a box struck down at 7.8 m/s has no continuous
// collision there.
TEST(RandomScenes, NoSceneGainsEnergyOrLeavesABodySunkIntoAnother) {
  constexpr int kScenes = 40, kBodies = 12, kSteps = 300;
  double worstOverlap = 0, worstGain = 0;
  for (unsigned seed = 0; seed < kScenes; ++seed) {
    RandomScene scene(seed, kBodies);
    const double e0 = test::totalEnergy(scene.world());
    double highest = e0, deepest = 0;
    for (int step = 0; step < kSteps; ++step) {
      ASSERT_NO_THROW(scene.world().stepSimulation(kH, 1, kH)) << "scene " << seed;
      highest = std::max(highest, test::totalEnergy(scene.world()));
      deepest = std::min(deepest, scene.deepestOverlap());
    }
    const double gain = (highest - e0) / std::abs(e0);
    EXPECT_LE(gain, 1e-12) << "scene " << seed;
    EXPECT_GE(deepest, -2e-3) << "scene " << seed;
    worstGain = std::max(worstGain, gain);
    worstOverlap = std::min(worstOverlap, deepest);
  }
  std::printf("[ measured ] %d scenes: deepest overlap %.2e m, largest energy gain %.1e E0\n",
              kScenes, worstOverlap, worstGain);
}

}  // namespace
}  // namespace carom
