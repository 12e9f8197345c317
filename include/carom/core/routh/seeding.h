// Seeds for everything random in Halm & Posa sampling, derived so that a result depends only on
// (seed, sample index, step index), never on which thread ran it or in what order.
#pragma once

#include <cstdint>

namespace carom::core::routh {

/// SplitMix64 (Steele, Lea & Flood 2014) of a combined with b: a well-mixed 64-bit seed for the
/// child stream b of stream a. Same value on every platform.
inline std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b) {
  std::uint64_t x = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace carom::core::routh
