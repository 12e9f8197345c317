// energy.svg's series stays bounded however long a run is, evenly spaced, its ends kept.
#include <gtest/gtest.h>

#include "energy_series.h"

namespace carom::cli {
namespace {

TEST(EnergySeries, AShortRunKeepsEverySample) {
  EnergySeries series;
  for (int i = 0; i < 100; ++i)
    series.add({i * 0.01, 1.0, 2.0, 3.0});
  const auto samples = series.samples();
  ASSERT_EQ(samples.size(), 100u);
  EXPECT_EQ(samples[99].t, 99 * 0.01);
}

TEST(EnergySeries, ALongRunKeepsABoundedEvenlySpacedSeries) {
  constexpr int kAdded = 1'000'003;
  EnergySeries series;
  for (int i = 0; i < kAdded; ++i)
    series.add({static_cast<double>(i), 0.5 * i, 0.0, 0.5 * i});
  const auto samples = series.samples();
  ASSERT_LE(samples.size(), EnergySeries::kMaxSamples + 1);
  // The stride doubles while 4096 · stride samples do not cover the run: to 256, as
  // 4096 · 128 < 1'000'003 ≤ 4096 · 256; every 256th sample is kept.
  ASSERT_EQ(samples.size(), (kAdded - 1) / 256 + 2);
  EXPECT_EQ(samples.front().t, 0.0);
  EXPECT_EQ(samples.back().t, kAdded - 1.0);  // the end of the run is always drawn
  for (std::size_t i = 1; i + 1 < samples.size(); ++i)
    ASSERT_EQ(samples[i].t - samples[i - 1].t, 256.0) << i;
  EXPECT_EQ(samples[1].kinetic, 0.5 * 256);
}

}  // namespace
}  // namespace carom::cli
