// The Halm–Posa impact problem of a scene at t = 0 (digest §1), in generalized coordinates: six
// per dynamic body, v = [v_0; ω_0; v_1; ω_1; ...], linear and angular velocity in the world frame.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "carom/bullet/scene.h"
#include "carom/core/routh/problem.h"
#include "scene_contacts.h"

namespace carom::cli {

struct SceneImpact {
  core::routh::ImpactProblem problem;
  Eigen::VectorXd vMinus;    // the scene's velocities, the pre-impact v⁻
  std::vector<int> dynamic;  // scene body index of each 6-block of v
  std::vector<SceneContact> contacts;
};

// M = blockdiag(m I, R I_body Rᵀ) per dynamic body; contact i between A and B has the normal row
// J_n,i v = n·(v_A + ω_A × r_A) − n·(v_B + ω_B × r_B), r the contact point from the centre of
// mass, i.e. [nᵀ, (r_A × n)ᵀ] in A's block and minus the same in B's, and two tangent rows built
// the same way; μ_i is the friction of the bodies' material pair (Config::material(a, b)).
// Throws carom::Error when there is no contact or no dynamic body.
SceneImpact buildSceneImpact(const Scene& scene, std::vector<SceneContact> contacts);

// The kinetic energy ½ m |v|² + ½ ωᵀ I ω (J) of one body's 6-block of v.
double bodyKineticEnergy(const Scene& scene, const SceneImpact& impact, std::size_t block,
                         const Eigen::VectorXd& v);

}  // namespace carom::cli
