#include "carom/core/joints/constraint.h"

#include <algorithm>
#include <cmath>

#include "carom/core/joints/cone.h"

namespace carom::core::joints {
namespace {

constexpr int kX = 0, kY = 1, kZ = 2;

// A joint side placed in the world: its body's pose (identity for kWorld) and its frame.
struct PlacedSide {
  int column = -1;  // the body's first gradient column, 6i; −1 on the world (no columns)
  Mat3 R = Mat3::Identity();
  Vec3 lever = Vec3::Zero();     // Rρ: centre of mass to pivot, world frame
  Vec3 pivot = Vec3::Zero();     // p = x + Rρ, world frame
  Mat3 axes = Mat3::Identity();  // E = RC, the frame's axes in the world
};

PlacedSide place(const JointFrame& side, const std::vector<BodyState>& states) {
  if (side.body == kWorld) return {-1, Mat3::Identity(), Vec3::Zero(), side.pivot, side.basis};
  const BodyState& s = states[side.body];
  const Vec3 lever = s.R * side.pivot;
  return {6 * side.body, s.R, lever, s.x + lever, s.R * side.basis};
}

// Writes the rows of one joint, starting at `first`.
class RowWriter {
 public:
  RowWriter(ConstraintEvaluation& out, Eigen::Index first, const PlacedSide& a, const PlacedSide& b)
      : out_(out), row_(first), a_(a), b_(b) {}

  // g = (p_B − p_A)·v for a world vector v: δp = δx + R S(η)ρ gives ∂g/∂x = ±v and
  // ∂g/∂η = ±ρ × Rᵀv (B +, A −).
  void point(const Vec3& v) {
    out_.value(row_) = (b_.pivot - a_.pivot).dot(v);
    addLever(a_, -v);
    addLever(b_, v);
    ++row_;
  }

  // g = (p_B − p_A)·E_A c, E_A's column c: the point row with v = E_A c, plus A's turning of v,
  // ∂/∂η_A [(p_B − p_A)·R_A C_A c] = C_A c × R_Aᵀ(p_B − p_A).
  void slide(int c) {
    const Vec3 d = b_.pivot - a_.pivot;
    addTurn(a_, a_.R.transpose() * a_.axes.col(c), d);
    point(a_.axes.col(c));
  }

  // g = E_A α · E_B β for columns α of A's frame and β of B's: δ(Rα) = R S(η)α gives
  // ∂g/∂η_A = α × R_Aᵀ(E_B β) and ∂g/∂η_B = β × R_Bᵀ(E_A α) (α, β in body coordinates).
  void align(int alpha, int beta) {
    const Vec3 u = a_.axes.col(alpha), w = b_.axes.col(beta);
    out_.value(row_) = u.dot(w);
    addTurn(a_, a_.R.transpose() * u, w);
    addTurn(b_, b_.R.transpose() * w, u);
    ++row_;
  }

  // g = r(ψ) − θ of c = E_Bᵀx_A (swingGap): each c_k = x_A·E_B e_k varies as align(kX, k) does,
  // so ∂g/∂η = Σ_k ∂g/∂c_k ∂c_k/∂η.
  void coneSwing(double span1, double span2) {
    const Vec3 x = a_.axes.col(kX);
    const SwingGap gap = swingGap(b_.axes.transpose() * x, span1, span2);
    out_.value(row_) = gap.value;
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = b_.axes.col(k);
      addTurn(a_, a_.R.transpose() * x, gap.gradient(k) * e);
      addTurn(b_, b_.R.transpose() * e, gap.gradient(k) * x);
    }
    ++row_;
  }

  // g = τ − twist (twistOf), brought into (−π, π]: δτ = (δφ_A − δφ_B)·rate for world turns
  // δφ = Rη, so ∂g/∂η_A = R_Aᵀ rate and ∂g/∂η_B = −R_Bᵀ rate.
  void twist(double held) {
    const Twist t = twistOf(a_.axes, b_.axes);
    out_.value(row_) = std::remainder(t.angle - held, 2.0 * M_PI);
    addAngular(a_, t.rate);
    addAngular(b_, -t.rate);
    ++row_;
  }

 private:
  // A world turn rate w of the side's body: ∂g/∂η = Rᵀw.
  void addAngular(const PlacedSide& side, const Vec3& w) {
    if (side.column < 0) return;
    out_.gradient.row(row_).segment<3>(side.column + 3) += side.R.transpose() * w;
  }
  // The force v at the side's pivot: ∂g/∂x = v, ∂g/∂η = ρ × Rᵀv = Rᵀ(Rρ × v).
  void addLever(const PlacedSide& side, const Vec3& v) {
    if (side.column < 0) return;
    out_.gradient.row(row_).segment<3>(side.column) += v;
    out_.gradient.row(row_).segment<3>(side.column + 3) += side.R.transpose() * side.lever.cross(v);
  }
  // The body vector `attached` (body coordinates) turned against the world vector w:
  // ∂/∂η (R attached)·w = attached × Rᵀw.
  void addTurn(const PlacedSide& side, const Vec3& attached, const Vec3& w) {
    if (side.column < 0) return;
    out_.gradient.row(row_).segment<3>(side.column + 3) += attached.cross(side.R.transpose() * w);
  }

  ConstraintEvaluation& out_;
  Eigen::Index row_;
  const PlacedSide& a_;
  const PlacedSide& b_;
};

}  // namespace

ConstraintEvaluation evaluateConstraints(const JointedSystem& system,
                                         const std::vector<BodyState>& states) {
  ConstraintEvaluation out{Eigen::VectorXd::Zero(system.rowCount()),
                           Eigen::MatrixXd::Zero(system.rowCount(), 6 * system.bodyCount())};
  Eigen::Index first = 0;
  for (const Joint& joint : system.joints()) {
    const PlacedSide a = place(joint.a, states), b = place(joint.b, states);
    RowWriter rows(out, first, a, b);
    if (joint.type == JointType::kConeSwing || joint.type == JointType::kTwist) {
      if (joint.type == JointType::kConeSwing) {
        rows.coneSwing(joint.swingSpan1, joint.swingSpan2);
      } else {
        rows.twist(joint.twist);
      }
      first += 1;
      continue;
    }
    if (joint.type == JointType::kSixDof) {
      for (int k = 0; k < 3; ++k) {
        if (joint.locked[k]) rows.slide(k);
      }
      const int free =
          static_cast<int>(std::count(joint.locked.begin() + 3, joint.locked.end(), false));
      if (free == 0) {  // the fixed joint's rows
        rows.align(kZ, kX);
        rows.align(kZ, kY);
        rows.align(kX, kY);
      } else if (free == 1) {  // a hinge about e_i: e_i^A ⊥ e_j^B, e_k^B
        const int i =
            static_cast<int>(std::find(joint.locked.begin() + 3, joint.locked.end(), false) -
                             joint.locked.begin() - 3);
        rows.align(i, (i + 1) % 3);
        rows.align(i, (i + 2) % 3);
      }
      first += rowCount(joint);
      continue;
    }
    if (joint.type == JointType::kSlider) {
      rows.slide(kY);
      rows.slide(kZ);
    } else {
      for (int k = 0; k < 3; ++k)
        rows.point(Vec3::Unit(k));
    }
    if (joint.type != JointType::kPoint) {  // z_A ⊥ x_B, y_B: the z axes aligned
      rows.align(kZ, kX);
      rows.align(kZ, kY);
    }
    if (joint.type == JointType::kFixed || joint.type == JointType::kSlider) rows.align(kX, kY);
    first += rowCount(joint.type);
  }
  return out;
}

}  // namespace carom::core::joints
