// The principal moments of inertia of a uniform solid of each scene shape, about its centre of
// mass along the body axes of ShapeSpec.
#pragma once

#include <string>

#include "carom/bullet/scene.h"

namespace carom {

// Why a shape's inertia cannot come from the shape (an empty string when it can): the centre of
// mass and principal axes of a convex hull or a compound (whose children may overlap) need not be
// its body frame, so the scene must state them.
std::string inertiaProblem(const ShapeSpec& shape);
// What is wrong with moments computed from a shape's size and mass (an empty string when
// nothing): a radius of 1e300 gives infinite ones, one of 1e-200 zero ones.
std::string derivedInertiaProblem(const btVector3& inertia);
// What is wrong with principal moments that no mass distribution has (an empty string when
// nothing): each is at most the sum of the other two (Ixx + Iyy ≥ Izz, ...), to a relative
// kInertiaTriangleTolerance for values written with a few digits.
inline constexpr double kInertiaTriangleTolerance = 1e-6;
std::string inertiaTriangleProblem(const btVector3& inertia);
// The moments (kg·m²) of a uniform body of `mass` (kg); requires inertiaProblem(shape) empty.
btVector3 shapeInertia(const ShapeSpec& shape, double mass);

}  // namespace carom
