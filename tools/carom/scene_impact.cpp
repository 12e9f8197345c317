#include "scene_impact.h"

#include "carom/error.h"

namespace carom::cli {
namespace {

Eigen::Vector3d toEigen(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}

// The world-frame inertia R diag(I) Rᵀ of a body.
Eigen::Matrix3d worldInertia(const SceneBody& body) {
  const btQuaternion& q = body.orientation;
  const Eigen::Matrix3d R = Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()).toRotationMatrix();
  return R * toEigen(body.inertia).asDiagonal() * R.transpose();
}

// Two unit tangents completing n to a right-handed frame (n, t1, t2). t1 is the x axis projected
// on the tangent plane unless n is nearly along x: planar scenes in the x–z plane then get their
// in-plane tangent first, as the paper's examples do.
std::pair<Eigen::Vector3d, Eigen::Vector3d> tangents(const Eigen::Vector3d& n) {
  const Eigen::Vector3d seed =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d t1 = (seed - seed.dot(n) * n).normalized();
  return {t1, n.cross(t1)};
}

}  // namespace

SceneImpact buildSceneImpact(const Scene& scene, std::vector<SceneContact> contacts) {
  if (contacts.empty()) {
    throw Error(scene.source + ": no bodies touch at t = 0 (within " +
                std::to_string(kContactTolerance) + " m): there is no impact to sample");
  }
  std::vector<int> dynamic;
  std::vector<Eigen::Index> column(scene.bodies.size(), -1);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (scene.bodies[i].isStatic()) continue;
    column[i] = 6 * static_cast<Eigen::Index>(dynamic.size());
    dynamic.push_back(static_cast<int>(i));
  }
  const Eigen::Index dofs = 6 * static_cast<Eigen::Index>(dynamic.size());
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(dofs, dofs);
  Eigen::VectorXd vMinus(dofs);
  for (int i : dynamic) {
    const SceneBody& body = scene.bodies[i];
    M.block<3, 3>(column[i], column[i]) = body.mass * Eigen::Matrix3d::Identity();
    M.block<3, 3>(column[i] + 3, column[i] + 3) = worldInertia(body);
    vMinus.segment<3>(column[i]) = toEigen(body.velocity);
    vMinus.segment<3>(column[i] + 3) = toEigen(body.angularVelocity);
  }
  const Eigen::Index m = static_cast<Eigen::Index>(contacts.size());
  Eigen::MatrixXd Jn = Eigen::MatrixXd::Zero(m, dofs), Jt = Eigen::MatrixXd::Zero(2 * m, dofs);
  Eigen::VectorXd mu(m);
  for (Eigen::Index c = 0; c < m; ++c) {
    const SceneContact& contact = contacts[c];
    const Eigen::Vector3d n = toEigen(contact.normal), p = toEigen(contact.point);
    // Named references, not a structured binding: the lambda below captures them, which C++17
    // allows only for variables (clang refuses the binding).
    const std::pair<Eigen::Vector3d, Eigen::Vector3d> tangentPair = tangents(n);
    const Eigen::Vector3d& t1 = tangentPair.first;
    const Eigen::Vector3d& t2 = tangentPair.second;
    // The velocity of body `index`'s material point at p along d, with `sign` +1 for A, −1 for B.
    const auto addRows = [&](int index, double sign) {
      if (column[index] < 0) return;
      const Eigen::Vector3d r = p - toEigen(scene.bodies[index].position);
      const Eigen::Index k = column[index];
      const auto row = [&](const Eigen::Vector3d& d) {
        Eigen::Matrix<double, 1, 6> values;
        values.head<3>() = sign * d.transpose();
        values.tail<3>() = sign * r.cross(d).transpose();
        return values;
      };
      Jn.block<1, 6>(c, k) += row(n);
      Jt.block<1, 6>(2 * c, k) += row(t1);
      Jt.block<1, 6>(2 * c + 1, k) += row(t2);
    };
    addRows(contact.bodyA, 1.0);
    addRows(contact.bodyB, -1.0);
    mu(c) = core::impact::frictionAtImpact(scene.config.material(
        scene.bodies[contact.bodyA].material, scene.bodies[contact.bodyB].material));
  }
  return {core::routh::ImpactProblem::spatial(M, Jn, Jt, mu), vMinus, std::move(dynamic),
          std::move(contacts)};
}

double bodyKineticEnergy(const Scene& scene, const SceneImpact& impact, std::size_t block,
                         const Eigen::VectorXd& v) {
  const SceneBody& body = scene.bodies[impact.dynamic[block]];
  const Eigen::Index k = 6 * static_cast<Eigen::Index>(block);
  const Eigen::Vector3d linear = v.segment<3>(k), angular = v.segment<3>(k + 3);
  return 0.5 * body.mass * linear.squaredNorm() + 0.5 * angular.dot(worldInertia(body) * angular);
}

}  // namespace carom::cli
