#include "progress_bar.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace carom::cli {
namespace {

constexpr int kWidth = 40;  // characters of the bar itself
constexpr auto kQuietStart = std::chrono::seconds(1);
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

}  // namespace

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled && ::isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", kWidth + 40, "");
}

void ProgressBar::update(double done, double total) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < kQuietStart || now - lastDraw_ < kRedrawInterval) return;
  lastDraw_ = now;
  drawn_ = true;
  const double fraction = total > 0 ? done / total : 1.0;
  const int filled = static_cast<int>(fraction * kWidth);
  std::fprintf(stderr, "\r[%s%s] %3d%%  t = %.3g / %.3g s", std::string(filled, '#').c_str(),
               std::string(kWidth - filled, ' ').c_str(), static_cast<int>(fraction * 100), done,
               total);
  std::fflush(stderr);
}

}  // namespace carom::cli
