// atan2 on floats, the same bits on every platform: glibc's and Emscripten's musl atan2f differ in the last bit for
// some inputs, so an angle computed with the C library makes native and wasm runs part ways (docs/determinism.md).
// Only IEEE +, -, *, / and compares, in a fixed order (the build uses -ffp-contract=off), so any conforming
// platform gives the same result; written once over the lane type (float, or Float4 for four angles at once, which
// then gives each lane the same bits as the float version).
//
// Method (Cephes' atanf): with a = min(|x|, |y|) / max(|x|, |y|) in [0, 1],
//   atan(a) = t + t z (c0 + z (c1 + z (c2 + z c3))),  z = t², where
//   t = a,                  for a <= tan(π/8)
//   t = (a - 1) / (a + 1),  plus π/4, above
// then the octant: π/2 - atan(a) where |y| > |x|, π - that where x < 0, negated where y < 0.
// Error: below 3e-7 rad against the exact angle (tests/native/math/atan2_test.cpp).
#pragma once

#include "math/wide_float.h"

namespace pbd {

/// The angle of (x, y) in [-π, π] per lane, like std::atan2 up to 3e-7 rad: atan2(±0, x >= +0) = ±0,
/// atan2(±0, x <= -0) = ±π, NaN in gives NaN out. Both arguments infinite gives NaN (std::atan2: a multiple of π/4).
template <class T>
T atan2Lanes(T y, T x) {
  const T zero = lanes<T>(0), one = lanes<T>(1);
  const T ax = absLanes(x), ay = absLanes(y);
  const auto steep = ay > ax;
  const T big = select(steep, ay, ax), small = select(steep, ax, ay);
  const T a = selectOrZero(big != zero, small / big);  // +0 where big = 0 (its 0/0 masked); NaN stays NaN
  const auto reduced = a > lanes<T>(0.414213562373095f);  // tan(π/8)
  const T t = select(reduced, (a - one) / (a + one), a);
  const T z = t * t;
  T r = ((((lanes<T>(8.05374449538e-2f) * z - lanes<T>(1.38776856032e-1f)) * z + lanes<T>(1.99777106478e-1f)) * z -
          lanes<T>(3.33329491539e-1f)) * z) * t + t;
  r = select(reduced, r + lanes<T>(0.785398163397448f), r);
  r = select(steep, lanes<T>(1.57079632679490f) - r, r);
  r = select(signbit(x), lanes<T>(3.14159265358979f) - r, r);  // x = -0 counts as negative, as in std::atan2
  return select(signbit(y), -r, r);
}

inline float deterministicAtan2(float y, float x) { return atan2Lanes(y, x); }

}  // namespace pbd
