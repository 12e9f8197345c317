// Internals of the Stronge/Jia–Wang impact shared by its phases (stronge_slip.cpp integrates the
// hodograph, stronge_segment.cpp continues in closed form, stronge.cpp runs the sequence): the
// fixed data of one impact and the running state of its impulse path, in the contact frame.
#pragma once

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "carom/core/impact/hodograph.h"
#include "carom/core/impact/stronge.h"

namespace carom::core::impact {

struct StrongeProblem {
  Hodograph hodograph;              // B, d (eqs. 21–22) and μ
  Mat2 inverseB;                    // B⁻¹
  double normalInverseMass = 0;     // w = W_zz (1/kg)
  Vec2 slipBefore;                  // γ⁻ (m/s)
  double normalVelocityBefore = 0;  // v_z⁻ < 0 (m/s)
  double restitution = 1;           // e
  double slipTolerance = 0;         // ε (m/s): a slip this small counts as stopped

  // γ = γ⁻ + B I_⊥ + I_z d (eqs. 19–20).
  Vec2 slip(double Iz, const Vec2& tangentialImpulse) const {
    return slipBefore + hodograph.B * tangentialImpulse + Iz * hodograph.d;
  }
  // I_⊥ = B⁻¹(γ − γ⁻ − I_z d) (eq. 24): the impulse is algebraic in (γ, I_z).
  Vec2 tangentialImpulse(double Iz, const Vec2& slipVelocity) const {
    return inverseB * (slipVelocity - slipBefore - Iz * hodograph.d);
  }
  // v_z = v_z⁻ + d·I_⊥ + w I_z (eq. 10).
  double normalVelocity(double Iz, const Vec2& tangentialImpulse) const {
    return normalVelocityBefore + hodograph.d.dot(tangentialImpulse) + normalInverseMass * Iz;
  }
};

// Appends a piece of a trace line to `text`: text as it is, a number with 6 significant digits
// (as printf's "%.6g"), a count in full.
void appendTracePiece(std::string& text, std::string_view piece);
void appendTracePiece(std::string& text, double number);
void appendTracePiece(std::string& text, int count);
// A number as appendTracePiece writes it.
std::string traceNumber(double value);

struct ImpactPath {
  double normalImpulse = 0;               // I_z (N s)
  Vec2 tangentialImpulse = Vec2::Zero();  // I_⊥ (N s)
  double absorbed = 0;      // −∫v_z dI_z so far (J): the stored energy E while compressing
  double frictionWork = 0;  // ∫γ·dI_⊥ so far (J)
  bool compressing = true;
  bool ended = false;
  double compressionImpulse = 0;  // I_zc
  double compressionEnergy = 0;   // E_c
  double slipStopImpulse = -1;    // I_zs, −1 until the slip stops
  std::string sequence;           // event letters
  std::string trace;
  bool tracing = true;                  // StrongeParameters::trace: whether note writes
  std::vector<Vec3>* record = nullptr;  // the impulse at each step, when recording

  // E: the absorbed energy while compressing; afterwards e²E_c minus what restitution released.
  double storedEnergy(double restitution) const {
    return compressing ? absorbed
                       : absorbed - (1.0 - restitution * restitution) * compressionEnergy;
  }
  void recordImpulse() {
    if (record) record->emplace_back(tangentialImpulse.x(), tangentialImpulse.y(), normalImpulse);
  }
  // Appends a line to the trace ("; " between lines) from its pieces, text or numbers, where the
  // impact is traced (StrongeParameters::trace): formatting the numbers costs more than the rest
  // of a frictionless impact.
  template <typename... Pieces>
  void note(const Pieces&... pieces) {
    if (!tracing) return;
    if (!trace.empty()) trace += "; ";
    (appendTracePiece(trace, pieces), ...);
  }
};

// v_z has reached 0 at the path's current I_z: E_c is what was absorbed, and restitution begins
// with e²E_c stored (§4.1). With e = 0 the impact ends here.
void endCompression(const StrongeProblem& problem, ImpactPath& path);
void endRestitution(ImpactPath& path);

enum class SegmentEnd { kFullLength, kEnded, kNoTermination };

// Advances the path along a straight impulse segment, I_⊥' = tangentialRate, for a normal impulse
// of at most `length` (may be +∞), with the sliding speed ‖γ‖ = slipSpeed + slipSpeedRate·t on
// it (for the friction work). v_z is linear and E quadratic there, so compression and restitution
// end in closed form (digest §3.4; Jia & Wang eqs. 39–46 in a cancellation-free form).
SegmentEnd advanceLinearly(const StrongeProblem& problem, ImpactPath& path,
                           const Vec2& tangentialRate, double length, double slipSpeed,
                           double slipSpeedRate);

enum class SlipEnd { kEnded, kStopped, kOnRay, kStepLimit, kEventIterationLimit };
struct SlipOutcome {
  SlipEnd end = SlipEnd::kEnded;
  Vec2 rayDirection = Vec2::Zero();  // for kOnRay: the invariant direction ŝ
  double rayLambda = 0;              // and its λ
};

// Integrates the hodograph (eq. 31) and the absorbed energy (eq. 11) from the path's state until
// restitution ends, the slip stops, or it reaches an invariant ray; compression may end on the
// way. Adds the Runge–Kutta steps taken to `steps`.
SlipOutcome integrateSlip(const StrongeProblem& problem, const StrongeParameters& parameters,
                          ImpactPath& path, int& steps);

// The impact with a tangentially compliant contact, parameters.tangentialCompliance > 0 and
// μ > 0 (stronge_compliant.cpp), for validated parameters and an approaching v⁻ (v_z⁻ < 0).
StrongeSolution solveCompliantStronge(const Mat3& W, const Vec3& vMinus,
                                      const StrongeParameters& parameters);

}  // namespace carom::core::impact
