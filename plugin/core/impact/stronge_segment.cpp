#include <charconv>
#include <cmath>
#include <limits>

#include "stronge_path.h"

namespace carom::core::impact {

void appendTracePiece(std::string& text, std::string_view piece) {
  text += piece;
}

void appendTracePiece(std::string& text, double number) {
  // As printf's "%.6g" (the standard specifies the precision overloads so), at a fraction of its
  // cost.
  char digits[32];
  const std::to_chars_result end =
      std::to_chars(digits, digits + sizeof digits, number, std::chars_format::general, 6);
  text.append(digits, end.ptr);
}

void appendTracePiece(std::string& text, int count) {
  char digits[16];
  const std::to_chars_result end = std::to_chars(digits, digits + sizeof digits, count);
  text.append(digits, end.ptr);
}

std::string traceNumber(double value) {
  std::string text;
  appendTracePiece(text, value);
  return text;
}

void endCompression(const StrongeProblem& problem, ImpactPath& path) {
  path.compressing = false;
  path.compressionImpulse = path.normalImpulse;
  path.compressionEnergy = path.absorbed;
  path.sequence += 'c';
  path.note("compression ends at I_z = ", path.normalImpulse,
            " with E_c = ", path.compressionEnergy);
  if (path.storedEnergy(problem.restitution) <= 0.0) endRestitution(path);
}

void endRestitution(ImpactPath& path) {
  path.ended = true;
  path.sequence += 'r';
  path.note("restitution ends at I_z = ", path.normalImpulse);
}

SegmentEnd advanceLinearly(const StrongeProblem& problem, ImpactPath& path,
                           const Vec2& tangentialRate, double length, double slipSpeed,
                           double slipSpeedRate) {
  const double mu = problem.hodograph.mu;
  // k = v_z' = w + d·I_⊥' on this segment (1/m_σ of eq. 40).
  const double k = problem.normalInverseMass + problem.hodograph.d.dot(tangentialRate);
  double v = problem.normalVelocity(path.normalImpulse, path.tangentialImpulse);
  double remaining = length;
  const auto advance = [&](double t) {
    path.normalImpulse += t;
    path.tangentialImpulse += t * tangentialRate;
    path.absorbed += -v * t - 0.5 * k * t * t;  // E' = −v_z, v_z linear (eq. 11)
    path.frictionWork -= mu * (slipSpeed * t + 0.5 * slipSpeedRate * t * t);
    slipSpeed += slipSpeedRate * t;
    v += k * t;
    remaining -= t;
    path.recordImpulse();
  };
  const bool unbounded = std::isinf(length);

  if (path.compressing) {
    if (v < 0.0) {
      if (k <= 0.0) {
        if (unbounded) return SegmentEnd::kNoTermination;
        advance(remaining);
        return SegmentEnd::kFullLength;
      }
      const double toCompressionEnd = -v / k;
      if (toCompressionEnd > remaining) {
        advance(remaining);
        return SegmentEnd::kFullLength;
      }
      advance(toCompressionEnd);
    }
    endCompression(problem, path);
    if (path.ended) return SegmentEnd::kEnded;
  }

  // Restitution: E(t) = E − v t − ½k t²; its first zero is the stable root 2E/(v + √(v² + 2kE)).
  const double energy = path.storedEnergy(problem.restitution);
  double toRestitutionEnd = 0.0;
  if (energy > 0.0) {
    const double discriminant = v * v + 2.0 * k * energy;
    const double denominator = discriminant >= 0.0 ? v + std::sqrt(discriminant) : 0.0;
    toRestitutionEnd =
        denominator > 0.0 ? 2.0 * energy / denominator : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(toRestitutionEnd) || toRestitutionEnd > remaining) {
    if (unbounded) return SegmentEnd::kNoTermination;
    advance(remaining);
    return SegmentEnd::kFullLength;
  }
  advance(toRestitutionEnd);
  endRestitution(path);
  return SegmentEnd::kEnded;
}

}  // namespace carom::core::impact
