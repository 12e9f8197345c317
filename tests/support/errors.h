// Checks that bad input is refused with a carom::Error that names what was wrong.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "carom/error.h"

namespace carom::test {

// Expects `call` to throw carom::Error with `name` (the offending parameter) in its message.
inline void expectErrorNaming(const std::function<void()>& call, const std::string& name) {
  try {
    call();
    ADD_FAILURE() << "no carom::Error for " << name;
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
  }
}

}  // namespace carom::test
