// Tests that take ten seconds or more under ASan + UBSan (about ten times slower than Release): whole scenes, and
// the same scenes on every thread count. The sanitized suite of `npm test` skips them and the wasm suite of the same
// run checks them whole; `npm run test:sanitized-long` (PBD_LONG_SCENES=1) runs them under the sanitizers too.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

#ifdef PBD_SANITIZED_TESTS
#define PBD_LONG_SCENE()                                                                             \
  if (!std::getenv("PBD_LONG_SCENES"))                                                                \
  GTEST_SKIP() << "a long scene: checked whole by the wasm suite; PBD_LONG_SCENES=1 runs it here"
#else
#define PBD_LONG_SCENE() static_cast<void>(0)
#endif
