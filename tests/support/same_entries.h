// Checks that two answers agree to the bit: a solver that keeps its storage from call to call
// must answer as a fresh one does.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Core>

namespace carom::test {

// Whether a and b have the same size and the same entries (compared with ==).
inline ::testing::AssertionResult sameEntries(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    if (!(a(i) == b(i)))
      return ::testing::AssertionFailure() << "entry " << i << ": " << a(i) << " and " << b(i);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace carom::test
