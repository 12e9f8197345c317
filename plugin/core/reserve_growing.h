// Room for a buffer that is kept from call to call and refilled each time. Internal to carom's two
// libraries.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace carom {

// Reserves room for at least `size` elements in `buffer`, at least doubling what it had when it
// must grow. A kept buffer is cleared before it is refilled, and std::vector then grows to exactly
// what is asked (reserve, assign and resize from empty): an island that gains a few contacts each
// step would move its buffers to a fresh allocation of exactly the new size at every growth, each
// of whose pages faults when first written (about 10 µs each where measured: docs/measurements.md).
template <class T>
void reserveGrowing(std::vector<T>& buffer, std::size_t size) {
  if (size > buffer.capacity()) buffer.reserve(std::max(size, 2 * buffer.capacity()));
}

// The same for each of `buffers`, of any element types.
template <class... T>
void reserveGrowingAll(std::size_t size, std::vector<T>&... buffers) {
  (reserveGrowing(buffers, size), ...);
}

}  // namespace carom
