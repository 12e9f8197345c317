#include "scenes.h"

#include <cmath>
#include <random>

#include "carom/bullet/ellipsoid_shape.h"

namespace carom::bench {
namespace {

// Bullet multiplies the two bodies' restitutions and frictions: giving every body the square root
// makes every pair, body–body and body–wall alike, use `restitution` and `friction`.
void setContactMaterial(btRigidBody* body, double restitution, double friction) {
  body->setRestitution(std::sqrt(restitution));
  body->setFriction(std::sqrt(friction));
}

// Static walls of thickness 0.2 m around [-half, half]² from y = 0 to `height`, and the ground.
void addWalls(World& scene, double half, double height, bool lid, double restitution,
              double friction) {
  setContactMaterial(scene.addGround(), restitution, friction);
  const double t = 0.1;
  const btVector3 sides[] = {
      {half + t, 0, 0}, {-half - t, 0, 0}, {0, 0, half + t}, {0, 0, -half - t}};
  for (const btVector3& side : sides) {
    const btVector3 extent = side.x() != 0 ? btVector3(t, height / 2, half + 2 * t)
                                           : btVector3(half + 2 * t, height / 2, t);
    setContactMaterial(scene.add(new btBoxShape(extent), 0, side + btVector3(0, height / 2, 0)),
                       restitution, friction);
  }
  if (lid) {
    setContactMaterial(scene.add(new btBoxShape(btVector3(half + 2 * t, t, half + 2 * t)), 0,
                                 btVector3(0, height + t, 0)),
                       restitution, friction);
  }
}

}  // namespace

void pourIntoBin(World& scene, int bodies) {
  addWalls(scene, 2.0, 1.5, false, 0.3, 0.5);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (int i = 0; i < bodies; ++i) {
    // 8 × 8 per layer, 0.45 m apart, layers 0.45 m apart from 1 m up.
    const btVector3 at(-1.575 + 0.45 * (i % 8) + jitter(random), 1.0 + 0.45 * (i / 64),
                       -1.575 + 0.45 * ((i / 8) % 8) + jitter(random));
    btCollisionShape* shape = nullptr;
    switch (i % 3) {
      case 0:
        shape = new btSphereShape(0.15);
        break;
      case 1:
        shape = new btBoxShape(btVector3(0.15, 0.1, 0.12));
        break;
      default:
        shape = new EllipsoidShape(btVector3(0.18, 0.1, 0.13));
        break;
    }
    btRigidBody* body = scene.add(shape, 1.0, at);
    body->setAngularVelocity(btVector3(jitter(random), jitter(random), jitter(random)) * 40);
    setContactMaterial(body, 0.3, 0.5);
  }
}

void boxPyramid(World& scene, int levels) {
  setContactMaterial(scene.addGround(), 0.0, 0.6);
  for (int row = 0; row < levels; ++row) {
    for (int i = 0; i < levels - row; ++i) {
      const btVector3 at(i - 0.5 * (levels - row - 1), 0.5 + row, 0);
      setContactMaterial(scene.add(new btBoxShape(btVector3(0.5, 0.5, 0.5)), 1.0, at), 0.0, 0.6);
    }
  }
}

void elasticBallsInABox(World& scene, int balls) {
  addWalls(scene, 1.5, 3.0, true, 1.0, 0.0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> speed(-2.0, 2.0);
  for (int i = 0; i < balls; ++i) {
    // 5 × 5 per layer, 0.55 m apart, four layers.
    const btVector3 at(-1.1 + 0.55 * (i % 5), 0.4 + 0.6 * (i / 25), -1.1 + 0.55 * ((i / 5) % 5));
    const btVector3 velocity(speed(random), speed(random), speed(random));
    setContactMaterial(scene.add(new btSphereShape(0.1), 1.0, at, velocity), 1.0, 0.0);
  }
}

}  // namespace carom::bench
