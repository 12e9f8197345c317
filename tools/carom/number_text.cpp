#include "number_text.h"

#include <charconv>

namespace carom::cli {

std::string numberText(double value) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, value + 0.0);
  return std::string(text, written.ptr);
}

}  // namespace carom::cli
