// Axis-aligned boxes as Bullet gives them, by their min and max corners. Internal to the plugin.
#pragma once

#include "carom/bullet/precision.h"

#include <LinearMath/btVector3.h>

namespace carom {

// Whether the box [innerMin, innerMax] lies within [outerMin, outerMax], faces touching allowed.
inline bool aabbContains(const btVector3& outerMin, const btVector3& outerMax,
                         const btVector3& innerMin, const btVector3& innerMax) {
  for (int axis = 0; axis < 3; ++axis) {
    if (!(outerMin[axis] <= innerMin[axis] && innerMax[axis] <= outerMax[axis])) return false;
  }
  return true;
}

// Whether the boxes [minA, maxA] and [minB, maxB] overlap, faces touching counted.
inline bool aabbOverlap(const btVector3& minA, const btVector3& maxA, const btVector3& minB,
                        const btVector3& maxB) {
  for (int axis = 0; axis < 3; ++axis) {
    if (maxA[axis] < minB[axis] || maxB[axis] < minA[axis]) return false;
  }
  return true;
}

}  // namespace carom
