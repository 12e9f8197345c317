// The fixed train/test split of the tosses. The data set holds some tosses twice, turned about the
// vertical (the source's augmentation); a twin pair must not straddle the split, so a toss goes by
// the smaller number of its twin group: even to training, odd held out.
#pragma once

#include <vector>

#include "toss.h"

namespace carom::validation {

// Two tosses are twins when they have the same number of frames and the same heights to 1e-6 m at
// every frame (a turn about the vertical changes x and y, not z).
bool areTwins(const Toss& a, const Toss& b);

struct Split {
  std::vector<const Toss*> train, test;
};

// Splits `tosses` (which must outlive the result) in their given order.
Split splitTosses(const std::vector<Toss>& tosses);

}  // namespace carom::validation
