// Numbers as text in the files `carom run` writes.
#pragma once

#include <string>

namespace carom::cli {

// The shortest text that reads back to the same double: nothing is lost, and the same run gives
// the same bytes every time. −0 is written as 0, so a quantity at rest reads the same whichever
// way it got there.
std::string numberText(double value);

}  // namespace carom::cli
