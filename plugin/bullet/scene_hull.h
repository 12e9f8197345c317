// A convex hull body as a solid: its volume and centre of volume, so that a scene can refuse a
// hull that encloses nothing and one whose body origin is not its centre of mass.
#pragma once

#include <string>
#include <vector>

#include <LinearMath/btVector3.h>

namespace carom {

// Relative tolerances, as fractions of the points' largest extent L: a hull of volume at most
// kFlatHull · L³ encloses nothing (its points coincide, or lie on a line or a plane); a centre
// of volume farther than kOffCentreHull · L from the origin is not at the origin (1 mm for 1 m).
inline constexpr double kFlatHull = 1e-9;
inline constexpr double kOffCentreHull = 1e-3;

// Empty when the points span a volume; else why not.
std::string flatHullProblem(const std::vector<btVector3>& points);
// Empty when the centre of volume of the points' hull (a uniform body's centre of mass) is the
// body origin; else where it is and what to do. Requires flatHullProblem(points) empty.
std::string offCentreHullProblem(const std::vector<btVector3>& points);

}  // namespace carom
