// One impact problem of Halm & Posa (digest §1): at a frozen configuration q, a generalized mass
// matrix M(q), the active contacts' normal Jacobian J_n and tangent Jacobian J_t, and the friction
// coefficients. Generalized coordinates make the paper's planar examples (rocking block, box and
// wall, the articulated compass gait, disk stacking) exact, and rigid bodies in 3D are one use:
// stack [v_body; ω_body] per body and write each contact's rows as [nᵀ, (r×n)ᵀ].
//
// Friction is the paper's polyhedral cone (§1.3): k unit directions d_j in each contact's tangent
// plane, λ_t,i = D λ_D,i with λ_D,i ≥ 0, so J_D,i = Dᵀ J_t,i (k×n_v). The polygon is inscribed in
// the Coulomb disk, so the linearized cone lies inside the true one and never adds friction.
#pragma once

#include <Eigen/Dense>
#include <utility>
#include <vector>

namespace carom::core::routh {

/// Default number of friction directions in 3D. k = 8 (a regular octagon): the inscribed polygon
/// reaches cos(π/8) = 92.4% of μ in the worst direction (k = 4: cos(π/4) = 70.7%, a friction
/// anisotropy a sliding box would show), while the step LCP grows only from 7m to 11m unknowns —
/// about 35–80 µs per Lemke solve for a box on four corners (digest §8), affordable per impact.
inline constexpr int kDefaultSpatialDirections = 8;

class ImpactProblem {
 public:
  /// Planar contacts (digest §1.3, the paper's examples): Jt is m×n_v (one tangent per contact),
  /// D = [+1, −1], so J_D,i = [J_t,i; −J_t,i] and the linearized cone is exact.
  static ImpactProblem planar(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn,
                              const Eigen::MatrixXd& Jt, const Eigen::VectorXd& mu);
  /// Spatial contacts: Jt is 2m×n_v, rows 2i and 2i+1 the two orthonormal tangent directions of
  /// contact i; `directions` k ≥ 4 equally spaced unit vectors d_j = (cos 2πj/k, sin 2πj/k).
  static ImpactProblem spatial(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn,
                               const Eigen::MatrixXd& Jt, const Eigen::VectorXd& mu,
                               int directions = kDefaultSpatialDirections);

  Eigen::Index contacts() const { return Jn_.rows(); }                     ///< m
  Eigen::Index dofs() const { return M_.rows(); }                          ///< n_v
  Eigen::Index directions() const { return D_.cols(); }                    ///< k per contact
  Eigen::Index frictionRows() const { return directions() * contacts(); }  ///< km

  const Eigen::MatrixXd& massMatrix() const { return M_; }          ///< M (n_v×n_v), SPD
  const Eigen::MatrixXd& normalJacobian() const { return Jn_; }     ///< J_n (m×n_v)
  const Eigen::MatrixXd& tangentJacobian() const { return Jt_; }    ///< J_t (m or 2m rows)
  const Eigen::MatrixXd& directionJacobian() const { return JD_; }  ///< J_D (km×n_v), §1.3
  /// D: column j holds direction d_j in the contact's tangent rows (1 × k planar, where it is
  /// [+1, −1]; 2 × k spatial, (cos 2πj/k, sin 2πj/k)).
  const Eigen::MatrixXd& directionMatrix() const { return D_; }
  const Eigen::VectorXd& friction() const { return mu_; }  ///< μ_i ≥ 0, dimensionless
  ///< W_q of the step LCP (75b) with every contact capped, (3+k)m square, ordered
  ///< [β | λ_n | λ_D | γ] (digest §4.2, transposes restored). Depends on q only, so it is built
  ///< once.
  const Eigen::MatrixXd& stepMatrix() const { return W_; }

  /// M⁻¹(J_nᵀ λ_n + J_Dᵀ λ_D): the velocity change of a contact impulse, (75c).
  Eigen::VectorXd velocityChange(const Eigen::VectorXd& lambdaN,
                                 const Eigen::VectorXd& lambdaD) const;
  /// The same written to `change` (resized to n_v; its storage kept where the size is), from
  /// impulses that may be segments of a longer vector (an LCP's answer).
  void velocityChange(const Eigen::Ref<const Eigen::VectorXd>& lambdaN,
                      const Eigen::Ref<const Eigen::VectorXd>& lambdaD,
                      Eigen::VectorXd& change) const;
  /// J̄ᵀ(λ_n; λ_D) = J_nᵀ λ_n + J_Dᵀ λ_D, the generalized impulse.
  Eigen::VectorXd generalizedImpulse(const Eigen::VectorXd& lambdaN,
                                     const Eigen::VectorXd& lambdaD) const;
  /// K = ½ vᵀ M v (J for SI units).
  double kineticEnergy(const Eigen::VectorXd& v) const;
  /// ψ of Algorithm 2: σ_max(M⁻¹ J̄ᵀ)·m·(1 + max μ) + 1, scales its finishing cap ε/(3ψ).
  double algorithm2Psi() const;
  /// Throws carom::Error naming `name` unless v has n_v finite entries.
  void checkVelocity(const Eigen::VectorXd& v, const char* name) const;

 private:
  // D: each contact's r tangent rows (r = 1 planar, 2 spatial) to its k directions, r × k.
  ImpactProblem(const Eigen::MatrixXd& M, const Eigen::MatrixXd& Jn, const Eigen::MatrixXd& Jt,
                const Eigen::MatrixXd& D, const Eigen::VectorXd& mu);

  Eigen::MatrixXd M_, Jn_, Jt_, D_, JD_;
  Eigen::VectorXd mu_;
  // M's diagonal blocks (start, size) outside which its lower triangle is zero.
  std::vector<std::pair<Eigen::Index, Eigen::Index>> blocks_;
  Eigen::MatrixXd MinvJbarT_;  ///< M⁻¹ J̄ᵀ, n_v × (1+k)m
  Eigen::MatrixXd W_;
};

}  // namespace carom::core::routh
