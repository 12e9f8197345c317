// The precision guard: carom's Bullet adapter and the program that includes it must use the same
// Bullet precision. Float and double Bullet share most mangled names, so a mismatch would
// otherwise link and run silently wrong (digest bullet_integration.md §6). Every carom header
// that touches Bullet includes this one first.
#pragma once

#include <LinearMath/btScalar.h>

static_assert(sizeof(btScalar) == sizeof(double),
              "carom is built against double-precision Bullet: compile this program with "
              "-DBT_USE_DOUBLE_PRECISION and link the double Bullet libraries (Debian: pkg-config "
              "module bullet-float64), or link carom::carom, which brings both.");

namespace carom::detail {

/// Defined in carom's library next to a reference to a Bullet function whose mangled name holds
/// the precision (btRigidBody::applyDamping(double)). Every translation unit that includes a carom
/// Bullet header refers to it, so linking carom with float Bullet libraries fails with an undefined
/// reference instead of running wrong.
extern const int kDoublePrecisionBulletAnchor;

/// [[gnu::used]] keeps the reference even in translation units that call nothing from carom.
[[gnu::used]] static const int* const kDoublePrecisionBulletCheck = &kDoublePrecisionBulletAnchor;

}  // namespace carom::detail
