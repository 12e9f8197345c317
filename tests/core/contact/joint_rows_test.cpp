// core::contact joint rows: the exact equality solve (JointSystem), the jointed system's inverse
// mass at a contact, the contact that reproduces it for the impact laws, and the mixed solve with
// stops and contacts. Expected values are closed forms of rigid bodies on a pivot.
#include "carom/core/contact/joint_rows.h"

#include <gtest/gtest.h>

#include "carom/core/impact/law.h"
#include "carom/error.h"

namespace carom::core::contact {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A uniform rod of mass m and length 2a along x, centred at the origin: I = m a²/3 about y and z.
impact::ContactBody rod(double mass, double half) {
  impact::ContactBody body;
  body.inverseMass = 1.0 / mass;
  const double transverse = mass * half * half / 3.0, axial = 1e-3 * transverse;
  body.inverseInertiaWorld = Vec3(1 / axial, 1 / transverse, 1 / transverse).asDiagonal();
  return body;
}

// The three rows of a point joint between body 0's point `arm` (from its centre) and the world:
// the point's velocity v + ω × arm along each axis, as Bullet writes them (J = [e, arm × e]).
std::vector<JointRow> pointRows(const Vec3& arm) {
  std::vector<JointRow> rows;
  for (int k = 0; k < 3; ++k) {
    JointRow row;
    row.bodyA = 0;
    row.linearA = Vec3::Unit(k);
    row.angularA = arm.cross(Vec3::Unit(k));
    rows.push_back(row);
  }
  return rows;
}

TEST(JointRows, HoldStopsThePivotExactly) {
  const std::vector<impact::ContactBody> bodies{rod(2.0, 0.5)};
  const JointSystem joints(bodies, pointRows(Vec3(-0.5, 0, 0)));
  std::vector<Vec3> v{Vec3(0.3, -1.0, 0.2)}, w{Vec3(0.1, 0.4, -2.0)};
  joints.hold(v, w);
  EXPECT_LT(joints.velocities(v, w).norm(), 1e-15);
}

// A rod on a pivot at its end struck at its other end by a unit impulse: it turns about the pivot
// with I_p = 4 m a²/3, so the end's inverse mass across the rod is (2a)²/I_p = 3/m, and along the
// rod 0 (the pivot holds it); the free rod's would be 4/m across and 1/m along.
TEST(JointRows, HeldInverseMassIsTheRodOnItsPivots) {
  const double m = 2.0, a = 0.5;
  const std::vector<impact::ContactBody> bodies{rod(m, a)};
  const JointSystem joints(bodies, pointRows(Vec3(-a, 0, 0)));
  const Mat3 k = heldInverseMassMatrix(bodies, joints, kWorld, 0, Vec3(a, 0, 0));
  EXPECT_NEAR(k(1, 1), 3.0 / m, 1e-12);
  EXPECT_NEAR(k(0, 0), 0.0, 1e-12);
  // The contact the laws see has that K and the relative velocity asked.
  const impact::Contact contact = impact::contactWithResponse(k, Vec3(0, -1, 0), Vec3(0, 1, 0));
  EXPECT_LT((impact::inverseMassMatrix(contact) - k).norm(), 1e-12);
  EXPECT_LT((impact::relativeVelocity(contact) - Vec3(0, -1, 0)).norm(), 1e-15);
  // An elastic strict map (smooth) reverses the end's speed; the rod then turns at 1 rad/s.
  const impact::ImpactOutcome outcome = impact::applyLaw(contact, impact::StrictLaw{});
  std::vector<impact::ContactBody> moved = bodies;
  moved[0].linearVelocity = Vec3(0, -0.5, 0);  // turning about the pivot at −1 rad/s
  moved[0].angularVelocity = Vec3(0, 0, -1.0);
  const Eigen::VectorXd pivot =
      applyHeldImpulse(moved, joints, kWorld, 0, Vec3(a, 0, 0), outcome.impulse);
  EXPECT_NEAR(moved[0].angularVelocity.z(), 1.0, 1e-12);
  EXPECT_NEAR(moved[0].linearVelocity.y(), 0.5, 1e-12);
  EXPECT_NEAR(outcome.energyChange, 0.0, 1e-12);
  // The pivot's impulse: m Δv_c = P + R with Δv_c = a Δω and Δω = 2a P / I_p, so R = P/2, along
  // the strike (struck beyond its centre of percussion, the rod pulls on its pivot).
  ASSERT_EQ(pivot.size(), 3);
  EXPECT_LT((pivot - Eigen::Vector3d(0, 0.5 * outcome.impulse.y(), 0)).norm(),
            1e-12 * outcome.impulse.norm());
}

// The same three rows twice (a joint repeated): redundant, they share the impulse and still hold.
TEST(JointRows, RedundantRowsShareTheirImpulse) {
  const std::vector<impact::ContactBody> bodies{rod(1.0, 0.5)};
  std::vector<JointRow> rows = pointRows(Vec3(-0.5, 0, 0));
  const std::vector<JointRow> again = rows;
  rows.insert(rows.end(), again.begin(), again.end());
  const JointSystem joints(bodies, rows);
  std::vector<Vec3> v{Vec3(0, -1, 0)}, w{Vec3::Zero()};
  const Eigen::VectorXd lambda = joints.hold(v, w);
  EXPECT_TRUE(lambda.allFinite());
  EXPECT_LT(joints.velocities(v, w).norm(), 1e-12);
}

// Two rods on pivots, one to the world and one to a fixed body that the first rod's third joint
// also holds: the fixed body couples nothing, so the system is two independent ones (solved as
// separate blocks), and its impulses are each rod's own system's, row for row.
TEST(JointRows, IndependentSystemsHoldAsEachAlone) {
  impact::ContactBody fixed;  // zero inverse mass and inertia
  const std::vector<impact::ContactBody> bodies{rod(2.0, 0.5), rod(1.0, 0.3), fixed};
  std::vector<JointRow> first = pointRows(Vec3(-0.5, 0, 0));
  std::vector<JointRow> second = pointRows(Vec3(0.3, 0, 0));
  for (JointRow& row : second) {
    row.bodyA = 1;
    row.bodyB = 2;
    row.linearB = -row.linearA;
  }
  JointRow toFixed = first[1];  // the first rod's end point, along y, to the fixed body
  toFixed.angularA = Vec3(0.5, 0, 0).cross(Vec3::UnitY());
  toFixed.bodyB = 2;
  toFixed.linearB = -Vec3::UnitY();
  first.push_back(toFixed);
  std::vector<JointRow> rows;
  for (std::size_t i = 0; i < 3; ++i) {  // interleaved: the blocks' rows are not contiguous
    rows.push_back(second[i]);
    rows.push_back(first[i]);
  }
  rows.push_back(first[3]);
  const std::vector<Vec3> v0{Vec3(0.3, -1.0, 0.2), Vec3(-0.4, 0.5, 1.0), Vec3::Zero()};
  const std::vector<Vec3> w0{Vec3(0.1, 0.4, -2.0), Vec3(1.5, -0.2, 0.7), Vec3::Zero()};
  std::vector<Vec3> v = v0, w = w0;
  const Eigen::VectorXd both = JointSystem(bodies, rows).hold(v, w);
  std::vector<Vec3> v1 = v0, w1 = w0, v2 = v0, w2 = w0;
  const Eigen::VectorXd alone1 = JointSystem(bodies, first).hold(v1, w1);
  const Eigen::VectorXd alone2 = JointSystem(bodies, second).hold(v2, w2);
  for (Eigen::Index i = 0; i < 3; ++i) {
    EXPECT_NEAR(both(2 * i), alone2(i), 1e-12);
    EXPECT_NEAR(both(2 * i + 1), alone1(i), 1e-12);
  }
  EXPECT_NEAR(both(6), alone1(3), 1e-12);
  EXPECT_LT((v[0] - v1[0]).norm() + (w[0] - w1[0]).norm(), 1e-12);
  EXPECT_LT((v[1] - v2[1]).norm() + (w[1] - w2[1]).norm(), 1e-12);
  EXPECT_LT(JointSystem(bodies, rows).velocities(v, w).norm(), 1e-12);
}

// A rod on its pivot turning onto a stop (a row on its turn that only pushes): the stop ends the
// turn in one round, through the pivot held.
TEST(JointRows, AStopOnAPivotedRodEndsItsTurn) {
  std::vector<impact::ContactBody> bodies{rod(1.0, 0.5)};
  bodies[0].linearVelocity = Vec3(0, -1.0, 0);  // turning about the pivot (−0.5, 0, 0) at −2 rad/s
  bodies[0].angularVelocity = Vec3(0, 0, -2.0);
  const JointSystem joints(bodies, pointRows(Vec3(-0.5, 0, 0)));
  JointRow stop;
  stop.bodyA = 0;
  stop.angularA = Vec3::UnitZ();
  stop.lower = 0;
  stop.upper = kInfinity;
  std::vector<JointRow> bounded{stop};
  std::vector<PersistentContact> none;
  Eigen::VectorXd impulses;
  const JointSolveReport report =
      solveJointsAndContacts(bodies, joints, Eigen::VectorXd::Zero(3), impulses, bounded, none);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.rounds, 1);
  EXPECT_LT(bodies[0].angularVelocity.norm(), 1e-12);
  EXPECT_LT(bodies[0].linearVelocity.norm(), 1e-12);
  EXPECT_LE(report.energyChange, 0.0);
}

// A pivoted rod turning down onto the ground at its free end: the report gives what still closes
// there after the solve, −(n·u) at the end point of the bodies as they are left.
TEST(JointRows, TheReportGivesTheContactStillClosing) {
  const auto solve = [](int rounds, std::vector<impact::ContactBody>& bodies) {
    bodies = {rod(1.0, 0.5)};
    bodies[0].linearVelocity = Vec3(0, -1.0, 0);  // about the pivot (−0.5, 0, 0) at −2 rad/s
    bodies[0].angularVelocity = Vec3(0, 0, -2.0);
    const JointSystem joints(bodies, pointRows(Vec3(-0.5, 0, 0)));
    PersistentContact ground;  // the world (A) under the rod's free end (B)
    ground.bodyB = 0;
    ground.point = Vec3(0.5, 0, 0);
    ground.normal = Vec3::UnitY();
    std::vector<PersistentContact> contacts{ground};
    std::vector<JointRow> bounded;
    Eigen::VectorXd impulses;
    JointSolveSettings settings;
    settings.maxRounds = rounds;
    settings.contacts.maxIterations = 1;
    return solveJointsAndContacts(bodies, joints, Eigen::VectorXd::Zero(3), impulses, bounded,
                                  contacts, settings);
  };
  std::vector<impact::ContactBody> bodies;
  // One round: the contact's sweep on the free rod's inverse mass, then the pivot held, which
  // leaves the end still closing.
  const JointSolveReport once = solve(1, bodies);
  const Vec3 end = bodies[0].linearVelocity + bodies[0].angularVelocity.cross(Vec3(0.5, 0, 0));
  EXPECT_GT(-end.y(), 1e-3);
  EXPECT_EQ(once.penetratingContact, 0);
  EXPECT_NEAR(once.penetrationRate, -end.y(), 1e-15);
  // Converged, nothing closes.
  const JointSolveReport converged = solve(200, bodies);
  ASSERT_TRUE(converged.ok()) << converged.message;
  EXPECT_LE(converged.penetrationRate, 1e-9);
}

TEST(JointRows, BadRowsAreRefused) {
  const std::vector<impact::ContactBody> bodies{rod(1.0, 0.5)};
  JointRow row;
  row.bodyA = 3;
  EXPECT_THROW(JointSystem(bodies, {row}), Error);  // index out of range
  row.bodyA = 0;
  EXPECT_THROW(JointSystem(bodies, {row}), Error);  // a zero row moves nothing
  row.linearA = Vec3::UnitX();
  row.lower = 0;
  EXPECT_THROW(JointSystem(bodies, {row}), Error);  // not an equality
  row.lower = 1;
  EXPECT_THROW(validateRows(bodies, {row}), Error);  // must push however it moves
}

}  // namespace
}  // namespace carom::core::contact
