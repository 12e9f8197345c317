// The energy curves of energy.svg, thinned as a run goes on so that what a run holds does not
// grow with its duration: a plot shows no more than a few thousand points anyway.
#pragma once

#include <cstddef>
#include <vector>

namespace carom::cli {

struct EnergySample {
  double t, kinetic, potential, total;  // s, J
};

class EnergySeries {
 public:
  // At most this many samples are kept (and one more: the last one added).
  static constexpr std::size_t kMaxSamples = 4096;

  // Keeps every stride-th sample; when kMaxSamples are kept, drops every other one and doubles
  // the stride, so the kept samples stay evenly spaced over the whole run.
  void add(const EnergySample& sample);
  // The kept samples in order, the last one added always among them.
  std::vector<EnergySample> samples() const;

 private:
  std::vector<EnergySample> kept_;
  EnergySample last_{};
  std::size_t added_ = 0, stride_ = 1;
};

}  // namespace carom::cli
