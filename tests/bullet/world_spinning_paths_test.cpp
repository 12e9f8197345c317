// The path a body takes inside a variational step is the one the step ends it on, and the impact
// search sees all of it. Two ways it did not, both found in the 300-body bin (its deepest overlap
// over the first 60 steps, 0.45 mm, came from each in turn):
// - Between events a body was advanced by sub-flows from its state at the last event, while its
//   step ended at its trial, one flow from where it was last struck. The discrete flow does not
//   compose (F̃[a]F̃[b] ≠ F̃[a + b]): a tumbling body's two paths drift apart by up to a centimetre
//   in a step, and a search probing the one missed a contact that the other ended inside.
// - A pair nearer than the swept search's floor (0.1 mm) when it was asked is not searched; one
//   apart at its trial poses that dipped through touching inside the step was never struck.
// Both scenes put their body in an island with other events: a ball rattling between two plates
// inside its bounding sphere, never touching it. A near pair's dip is also found with no other
// event in its island: searched at a coarser resolution (the last test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bullet/world_scene.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/gap.h"

namespace carom {
namespace {

constexpr double kH = 1.0 / 60.0;

// A scene without gravity, its contacts elastic and frictionless, with a 2 cm ball rattling at
// 8 m/s along y between two static plates 4 cm apart around `centre`: about ten impacts a step.
// Without `rattling`, the scene has no ball and no plates.
class RattlingScene : public test::Scene<DynamicsWorld> {
 public:
  explicit RattlingScene(const btVector3& centre, bool rattling = true)
      : test::Scene<DynamicsWorld>(test::configWith(SolverKind::variational)) {
    world().setGravity(btVector3(0, 0, 0));
    if (!rattling) return;
    elastic(add(new btSphereShape(0.01), 0.1, centre, btVector3(0, 8, 0)));
    for (const double side : {-1.0, 1.0}) {
      elastic(add(new btBoxShape(btVector3(0.015, 0.003, 0.015)), 0,
                  centre + btVector3(0, 0.02 * side, 0)));
    }
  }
  btRigidBody* elastic(btRigidBody* body) {
    body->setRestitution(1);
    body->setFriction(0);
    return body;
  }
  double gapBetween(const btRigidBody& a, const btRigidBody& b) {
    return gap(*a.getCollisionShape(), a.getWorldTransform(), *b.getCollisionShape(),
               b.getWorldTransform())
        .distance;
  }
};

// A flat box tumbling at 100 to 150 rad/s (1.7 to 2.5 rad a step, flowed in sub-steps where one
// rotation solve cannot turn it so far) drifts at 0.3 m/s onto a static plate, in 80 variants of
// the plate's distance 0.2 mm apart, 40 steps each. Before, variants at 100, 120 and 150 rad/s
// ended a step inside the plate, by up to 2.7, 1.6 and 1.3 mm (measured). Anchored, but with each
// flow taking the sub-steps it needed alone (the path jumping where a shorter flow needs fewer), by
// up to 0.2 mm at 120 rad/s (measured). Now none does.
TEST(SpinningPaths, ATumblingBoxInABusyIslandEndsNoStepInsideThePlateItDriftsOnto) {
  for (const double spin : {100.0, 110.0, 120.0, 150.0}) {
    double deepest = 0;
    for (int variant = 0; variant < 80; ++variant) {
      RattlingScene scene(btVector3(0, 0, 0.13));
      btRigidBody* box = scene.elastic(scene.add(new btBoxShape(btVector3(0.14, 0.02, 0.06)), 1.0,
                                                 btVector3(0, 0, 0), btVector3(0.3, 0, 0)));
      box->setAngularVelocity(btVector3(spin, 12, 8));
      btRigidBody* plate = scene.elastic(scene.add(new btBoxShape(btVector3(0.01, 0.3, 0.3)), 0,
                                                   btVector3(0.2 + 2e-4 * variant, 0, 0)));
      for (int step = 0; step < 40; ++step) {
        ASSERT_NO_THROW(scene.world().stepSimulation(kH, 1, kH));
        deepest = std::min(deepest, scene.gapBetween(*box, *plate));
      }
    }
    EXPECT_GE(deepest, -1e-6) << spin << " rad/s";  // the contact tolerance
  }
}

// An ellipsoid (semi-axes 18, 10 and 13 cm) spinning at 40 rad/s about its short axis swings its
// long one past a static plate in mid-step, 50 µm from it at the start and as far at the end of
// the step: in between it would pass 6.8 mm into it. Before, it did, unstruck (measured). Now it
// is struck at the island's next event after its gap falls below touching, and turns back. The
// same dip 0.2 mm from the plate, above the swept search's floor, was struck before too.
// Returns the number of the pair's impacts in the step.
long dipOfANearEllipsoid(bool rattling) {
  constexpr double kA = 0.18, kB = 0.1, kSpin = 40;
  const double start = M_PI / 2 - 0.5 * kSpin * kH;  // the long axis along y in mid-step
  const double extent =
      std::hypot(kA * std::sin(start), kB * std::cos(start));  // along y, at the start
  RattlingScene scene(btVector3(0, 0, 0.155), rattling);
  btRigidBody* ellipsoid = scene.elastic(
      scene.add(new EllipsoidShape(btVector3(kA, kB, 0.13)), 1.0, btVector3(0, 0, 0)));
  ellipsoid->getWorldTransform().setRotation(btQuaternion(btVector3(0, 0, 1), start));
  ellipsoid->updateInertiaTensor();
  ellipsoid->setAngularVelocity(btVector3(0, 0, kSpin));
  btRigidBody* plate = scene.elastic(scene.add(new btBoxShape(btVector3(0.1, 0.01, 0.05)), 0,
                                               btVector3(0, extent + 5e-5 + 0.01, 0)));
  EXPECT_NEAR(scene.gapBetween(*ellipsoid, *plate), 5e-5, 1e-9);
  scene.world().stepSimulation(kH, 1, kH);
  const auto struck =
      std::count_if(scene.world().getImpactEvents().begin(), scene.world().getImpactEvents().end(),
                    [&](const ImpactEvent& event) {
                      return (event.bodyA == ellipsoid && event.bodyB == plate) ||
                             (event.bodyA == plate && event.bodyB == ellipsoid);
                    });
  EXPECT_LT(ellipsoid->getAngularVelocity().z(), 0.8 * kSpin);  // 29.5 rad/s (measured)
  EXPECT_GE(scene.gapBetween(*ellipsoid, *plate), 0.0);
  return struck;
}

TEST(SpinningPaths, ANearPairThatDipsInsideTheStepIsStruckAtTheIslandsNextEvent) {
  EXPECT_EQ(dipOfANearEllipsoid(true), 1);
}

// The same ellipsoid and plate alone, an island with no other event: the near pair is searched up
// to the end of the step, advanced by (Φ + 0.1 mm) over its closing speed's bound, and the dip is
// found at a probe inside the plate and located before it. Before, it passed through unstruck
// (measured: still spinning at 40 rad/s).
TEST(SpinningPaths, ANearPairThatDipsInsideTheStepInAnIslandOfItsOwnIsStruck) {
  EXPECT_EQ(dipOfANearEllipsoid(false), 1);
}

}  // namespace
}  // namespace carom
