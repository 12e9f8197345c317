#include "energy_series.h"

namespace carom::cli {

void EnergySeries::add(const EnergySample& sample) {
  last_ = sample;
  if (added_++ % stride_ != 0) return;
  kept_.push_back(sample);
  if (kept_.size() < kMaxSamples) return;
  // kMaxSamples is even: the next sample to keep, number kMaxSamples · stride, is a multiple of
  // the doubled stride, like every sample kept below.
  std::size_t half = 0;
  for (std::size_t i = 0; i < kept_.size(); i += 2)
    kept_[half++] = kept_[i];
  kept_.resize(half);
  stride_ *= 2;
}

std::vector<EnergySample> EnergySeries::samples() const {
  std::vector<EnergySample> out = kept_;
  if (added_ > 0 && (added_ - 1) % stride_ != 0) out.push_back(last_);
  return out;
}

}  // namespace carom::cli
