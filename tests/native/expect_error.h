// A test helper for the rejection paths: the call must throw E whose message contains every fragment.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>

#include "pbd/errors.h"

/// Runs `call`; records a failure unless it throws E with every fragment in its message. Returns the exception
/// for further checks (nullopt if none was thrown).
template <class E = pbd::InvalidArgument, class F>
std::optional<E> expectError(F&& call, std::initializer_list<const char*> fragments) {
  try {
    call();
  } catch (const E& e) {
    for (const char* f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << e.what();
    return e;
  }
  ADD_FAILURE() << "no exception; expected one mentioning " << *fragments.begin();
  return std::nullopt;
}
