#include "split.h"

#include <algorithm>
#include <cmath>

namespace carom::validation {

bool areTwins(const Toss& a, const Toss& b) {
  if (a.frames.size() != b.frames.size()) return false;
  for (std::size_t k = 0; k < a.frames.size(); ++k) {
    if (std::abs(a.frames[k].position.z() - b.frames[k].position.z()) > 1e-6) return false;
  }
  return true;
}

Split splitTosses(const std::vector<Toss>& tosses) {
  Split split;
  for (const Toss& toss : tosses) {
    int group = toss.number;
    for (const Toss& other : tosses) {
      if (other.number < group && areTwins(toss, other)) group = other.number;
    }
    (group % 2 == 0 ? split.train : split.test).push_back(&toss);
  }
  return split;
}

}  // namespace carom::validation
