// The bits of a float or a double, for the tests that compare a vector path's lanes with the scalar operation: every
// NaN counts as one value (the lanes' NaN payloads may differ between instruction sets).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace pbd::test {

inline uint32_t bits(float f) {
  if (std::isnan(f)) return 0x7fc00000u;
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline uint64_t bits(double d) {
  if (std::isnan(d)) return 0x7ff8000000000000ull;
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

}  // namespace pbd::test
