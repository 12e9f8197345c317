// The four numerical experiments of Tran & Leok §6 (Table 1; digest §6.1), ready to integrate:
// the reference scenes of the variational collision integrator, shared by the validation tests,
// the demo and the benchmarks.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "carom/core/body.h"
#include "carom/core/collision_integrator.h"
#include "carom/core/lgvi.h"
#include "carom/core/sdf.h"

namespace carom::core {

enum class TranLeokCase {
  kI,    ///< triaxial ellipsoid, horizontal plane
  kII,   ///< the same ellipsoid, plane tilted by 2° about the y-axis
  kIII,  ///< union of two ellipsoids, horizontal plane
  kIV,   ///< ε-rounded cube, horizontal plane
};

inline constexpr std::array<TranLeokCase, 4> kTranLeokCases = {
    TranLeokCase::kI, TranLeokCase::kII, TranLeokCase::kIII, TranLeokCase::kIV};

/// Standard gravity of the paper (m/s²), acting along −e3 in every case.
inline constexpr double kTranLeokGravity = 9.80665;

struct TranLeokSetup {
  std::string name;  // "I" … "IV"
  MassProperties body;
  std::shared_ptr<const Shape> shape;
  Plane plane;
  ExternalLoad load;
  BodyState initial;  ///< x₀ = (0,0,10), γ₀ = (2,2,10), Π₀ = (4,−4,4), R₀ = I
};

/// The case's parameters verbatim from the paper (Case III: the paper's centre offset and the
/// symmetrised inertia, digest §6.1).
TranLeokSetup tranLeokSetup(TranLeokCase which);

/// The case's Algorithm 5.2 integrator with the given settings (the paper's h = 0.01 by default).
CollisionIntegrator tranLeokIntegrator(const TranLeokSetup& setup,
                                       const CollisionIntegratorSettings& settings = {});

}  // namespace carom::core
