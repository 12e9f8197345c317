// The progress bar of `carom run` on stderr: only in a terminal (a log file gets no carriage
// returns), and only once a run has taken a second, so short runs print nothing.
#pragma once

#include <chrono>

namespace carom::cli {

class ProgressBar {
 public:
  // `enabled` false (--quiet) never draws.
  explicit ProgressBar(bool enabled);
  // Clears the bar's line if one was drawn.
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Redraws at most ten times a second: `done` of `total` simulated seconds.
  void update(double done, double total);

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point lastDraw_ = start_;
};

}  // namespace carom::cli
