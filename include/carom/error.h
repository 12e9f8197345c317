// carom::Error: the one exception type carom throws for bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace carom {

/// Thrown when a caller hands carom something it cannot use (a non-positive mass, a NaN in a state,
/// an inertia that no rigid body has, a malformed config). The message names the quantity. Whatever
/// the call would have changed is left unchanged.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error("carom: " + what) {}
};

}  // namespace carom
