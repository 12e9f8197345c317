// A point's signed distance from a box in closed form. Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <LinearMath/btVector3.h>

namespace carom {

// How far a point is from a box's surface, and the surface's outward normal nearest to it, both in
// the box's frame.
struct BoxDistance {
  btScalar distance;  // signed (m): negative inside, by the depth to the nearest face
  btVector3 normal;   // unit
};

// The point `local` (the box's frame) against the box [−half, half], its edges and corners sharp:
// outside, its distance to the box's nearest point; inside, to its nearest face.
inline BoxDistance boxDistance(const btVector3& local, const btVector3& half) {
  btVector3 outside(0, 0, 0);  // from the box's closest point to the point, where it is outside
  int nearestFace = 0;         // where it is inside: the axis of the face nearest to it
  btScalar inside = -BT_LARGE_FLOAT;
  for (int axis = 0; axis < 3; ++axis) {
    const btScalar beyond = btFabs(local[axis]) - half[axis];
    if (beyond > 0) outside[axis] = local[axis] > 0 ? beyond : -beyond;
    if (beyond > inside) {
      inside = beyond;
      nearestFace = axis;
    }
  }
  if (outside.length2() > 0) {
    const btScalar distance = outside.length();
    return {distance, outside / distance};
  }
  btVector3 normal(0, 0, 0);
  normal[nearestFace] = local[nearestFace] < 0 ? -1 : 1;
  return {inside, normal};
}

}  // namespace carom
