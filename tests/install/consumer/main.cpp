// A user program: includes carom and Bullet through carom::carom's usage requirements alone.
#include <btBulletDynamicsCommon.h>

#include <carom/carom.h>
#include <cstdio>

int main() {
  static_assert(sizeof(btScalar) == sizeof(double),
                "carom::carom must bring double-precision Bullet");
  const auto body = carom::core::uniformEllipsoid(1.0, {2.0, 3.0, 4.0});
  carom::core::BodyState state;
  state.Pi = {4.0, -4.0, 4.0};
  const auto next = carom::core::flow(body, state, 0.01, {});
  std::printf("consumer: one LGVI step, |R^T R - I| = %.3g\n",
              carom::core::orthogonalityError(next.state.R));
  return next.ok() ? 0 : 1;
}
