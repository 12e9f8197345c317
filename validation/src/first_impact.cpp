#include "first_impact.h"

#include <algorithm>
#include <cmath>

#include "carom/core/routh/policy.h"
#include "carom/core/routh/sample_set.h"
#include "cube_model.h"
#include "initial_state.h"
#include "scene_contacts.h"
#include "scene_impact.h"

namespace carom::validation {
namespace {

btVector3 toBt(const Eigen::Vector3d& v) {
  return btVector3(v.x(), v.y(), v.z());
}

// Backward-difference velocity of the centre of mass over frames [j − 1, j].
Eigen::Vector3d differenceVelocity(const Toss& toss, int j, const Eigen::Vector3d& centreOfMass) {
  return (massCentre(toss.frames[j], centreOfMass) - massCentre(toss.frames[j - 1], centreOfMass)) /
         (toss.frames[j].t - toss.frames[j - 1].t);
}

// The sharp cube's corner `corner` (0…7, a bit per axis) in the body frame of its centre of mass.
btVector3 sharpCorner(int corner, const Eigen::Vector3d& centreOfMass) {
  return toBt(cubeCorner(corner, kHalfSide, centreOfMass));
}

// The board and the cube at frame j with velocities [v; ω] (board frame): the scene that the
// carom command's Halm–Posa code takes.
Scene cubeScene(const Toss& toss, int j, const Eigen::Matrix<double, 6, 1>& v,
                const FirstImpactOptions& options) {
  Scene scene;
  Material material;
  material.impact = ImpactLawKind::kNewton;  // the set's law is Halm–Posa's; only μ is read
  material.restitution = options.restitution;
  material.friction = options.friction;
  scene.config.setMaterial("default", material);
  SceneBody ground;
  ground.name = "board";
  ground.shape.kind = ShapeKind::plane;
  SceneBody cube;
  cube.name = "cube";
  cube.shape.kind = ShapeKind::convexHull;  // the sharp box about its centre of mass
  for (int corner = 0; corner < 8; ++corner)
    cube.shape.points.push_back(sharpCorner(corner, options.centreOfMass));
  cube.mass = kMass;
  cube.inertia = btVector3(kInertia, kInertia, kInertia);
  const Frame& f = toss.frames[j];
  cube.position =
      toBt(massCentre(f, options.centreOfMass) + Eigen::Vector3d(0, 0, options.heightOffset));
  cube.orientation = btQuaternion(f.rotation.x(), f.rotation.y(), f.rotation.z(), f.rotation.w());
  cube.velocity = toBt(v.head<3>());
  cube.angularVelocity = toBt(v.tail<3>());
  scene.bodies = {ground, cube};
  return scene;
}

}  // namespace

std::optional<FirstImpactResult> analyseFirstImpact(const Toss& toss,
                                                    const FirstImpactOptions& options) {
  const int n = static_cast<int>(toss.frames.size());
  const double dt = toss.frames[1].t - toss.frames[0].t;
  int j = -1;  // the impact lies between frames j and j + 1
  for (int k = 2; k + 2 < n && j < 0; ++k) {
    if (differenceVelocity(toss, k + 1, options.centreOfMass).z() -
            differenceVelocity(toss, k, options.centreOfMass).z() >
        options.velocityJump)
      j = k;
  }
  if (j < 0) return std::nullopt;
  // v⁻ over [j − 1, j] and v⁺ over [j + 1, j + 2], both carried by gravity to t_j + Δt/2.
  const Eigen::Vector3d g(0, 0, -kGravity);
  Eigen::Matrix<double, 6, 1> vMinus, vPlus;
  vMinus << differenceVelocity(toss, j, options.centreOfMass) + g * dt,
      toss.frames[j].rotation * toss.frames[j].omegaBody;
  vPlus << differenceVelocity(toss, j + 2, options.centreOfMass) - g * dt,
      toss.frames[j + 2].rotation * toss.frames[j + 2].omegaBody;

  const Scene scene = cubeScene(toss, j, vMinus, options);
  // Every corner within the tolerance of the lowest one: the board is moved up to the lowest.
  std::vector<cli::SceneContact> contacts;
  {
    Scene lifted = scene;
    double lowest = INFINITY;
    const btTransform pose = cli::bodyTransform(scene.bodies[1]);
    for (int c = 0; c < 8; ++c)
      lowest = std::min(lowest, (pose * sharpCorner(c, options.centreOfMass)).z());
    lifted.bodies[0].shape.offset = lowest;
    contacts = cli::findContacts(lifted, cli::makeShapes(lifted), options.contactTolerance);
  }
  if (contacts.size() < 2) return std::nullopt;
  const cli::SceneImpact impact = cli::buildSceneImpact(scene, contacts);

  using core::routh::ImpactPolicy;
  using core::routh::PolicyKind;
  const Eigen::MatrixXd& M = impact.problem.massMatrix();
  auto withRestitution = [&](const Eigen::VectorXd& compressed) -> Eigen::VectorXd {
    return impact.vMinus + (1 + options.restitution) * (compressed - impact.vMinus);
  };
  auto distance = [&](const Eigen::VectorXd& v) {
    const Eigen::VectorXd d = v - vPlus;
    return std::sqrt(d.dot(M * d) / kMass);
  };
  FirstImpactResult result;
  result.toss = toss.number;
  result.frame = j;
  result.corners = static_cast<int>(contacts.size());

  ImpactPolicy simultaneous;
  const core::routh::PolicyResult ap =
      core::routh::resolveImpact(impact.problem, impact.vMinus, simultaneous);
  const double h = ap.outcome.impulseN.sum();  // the impact's own impulse scale (sets_command)
  if (!(h > 0)) return std::nullopt;           // nothing approaches: no impact to sample
  result.models.push_back("simultaneous (Anitescu–Potra)");
  result.modelDistance.push_back(distance(withRestitution(ap.outcome.v)));
  for (bool reversed : {false, true}) {
    ImpactPolicy sequential;
    sequential.kind = PolicyKind::kSequential;
    for (std::size_t c = 0; c < contacts.size(); ++c)
      sequential.order.push_back(static_cast<Eigen::Index>(c));
    if (reversed) std::reverse(sequential.order.begin(), sequential.order.end());
    const auto outcome = core::routh::resolveImpact(impact.problem, impact.vMinus, sequential);
    result.models.push_back(reversed ? "sequential, last corner first" : "sequential, in order");
    result.modelDistance.push_back(distance(withRestitution(outcome.outcome.v)));
  }

  core::routh::SampleSetOptions sampling;
  sampling.samples = options.samples;
  sampling.seed = 1;
  const auto set = core::routh::sampleImpactSet(impact.problem, impact.vMinus, h, sampling);
  const std::vector<Eigen::VectorXd> points = set.postImpactVelocities();
  if (points.empty()) return std::nullopt;
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(6);
  result.setDistance = INFINITY;
  for (const Eigen::VectorXd& p : points) {
    const Eigen::VectorXd v = withRestitution(p);
    mean += v / points.size();
    if (distance(v) < result.setDistance) {
      result.setDistance = distance(v);
      result.setLinearMiss = (v - vPlus).head<3>().norm();
      result.setSpinMiss = std::sqrt(kInertia / kMass) * (v - vPlus).tail<3>().norm();
    }
  }
  for (const Eigen::VectorXd& p : points) {
    const Eigen::VectorXd d = withRestitution(p) - mean;
    result.setRadius = std::max(result.setRadius, std::sqrt(d.dot(M * d) / kMass));
  }
  return result;
}

}  // namespace carom::validation
