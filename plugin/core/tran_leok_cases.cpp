#include "carom/core/tran_leok_cases.h"

#include <cmath>

#include "carom/error.h"

namespace carom::core {
namespace {

constexpr double kPi = 3.14159265358979323846;

// θ = −π/90 (the 000 text): ñ = R_y(θ) e3 = (sin θ, 0, cos θ).
Vec3 tiltedNormal() {
  const double theta = -kPi / 90.0;
  return {std::sin(theta), 0.0, std::cos(theta)};
}

std::shared_ptr<const Shape> caseIIIShape() {
  // The body origin is the centre of mass: the paper's centres (1.5, 0, 0) and (−4.5, 0, 0)
  // shifted by c = (−0.9937128, 0, 0).
  const Vec3 c(-0.9937128, 0, 0);
  return std::make_shared<EllipsoidUnion>(
      std::vector<Ellipsoid>{Ellipsoid(Vec3(3, 4, 5), Vec3(1.5, 0, 0) + c),
                             Ellipsoid(Vec3(6, 1, 1), Vec3(-4.5, 0, 0) + c)});
}

}  // namespace

TranLeokSetup tranLeokSetup(TranLeokCase which) {
  const ExternalLoad load{Vec3(0, 0, -kTranLeokGravity), Vec3::Zero(), Vec3::Zero()};
  const BodyState initial{{0, 0, 10}, Mat3::Identity(), {2, 2, 10}, {4, -4, 4}};
  const Vec3 ellipsoidAxes(2, 3, 4);
  switch (which) {
    case TranLeokCase::kI:
      return {"I",
              uniformEllipsoid(1.0, ellipsoidAxes),
              std::make_shared<Ellipsoid>(ellipsoidAxes),
              Plane(Vec3::UnitZ()),
              load,
              initial};
    case TranLeokCase::kII:
      return {"II",
              uniformEllipsoid(1.0, ellipsoidAxes),
              std::make_shared<Ellipsoid>(ellipsoidAxes),
              Plane(tiltedNormal()),
              load,
              initial};
    case TranLeokCase::kIII:
      return {"III",
              MassProperties::create(1.0, Vec3(7.5932718, 9.9326434, 8.2731252).asDiagonal()),
              caseIIIShape(),
              Plane(Vec3::UnitZ()),
              load,
              initial};
    case TranLeokCase::kIV: {
      const double side = 2.0 * std::sqrt(3.0);
      return {"IV",
              uniformBox(1.0, Vec3::Constant(0.5 * side)),
              std::make_shared<RoundedPolytope>(RoundedPolytope::cube(side, 1e-13)),
              Plane(Vec3::UnitZ()),
              load,
              initial};
    }
  }
  throw Error("tranLeokSetup: unknown case");
}

CollisionIntegrator tranLeokIntegrator(const TranLeokSetup& setup,
                                       const CollisionIntegratorSettings& settings) {
  return CollisionIntegrator(setup.body, setup.shape, setup.plane, setup.load, settings);
}

}  // namespace carom::core
