// A host program that includes a carom Bullet header and does nothing else: enough for the
// precision guard to act at compile time (static_assert) and at link time (the anchor symbol).
#include <carom/bullet/precision.h>

int main() {
  return 0;
}
