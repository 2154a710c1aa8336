// atan2 on floats, the same bits on every platform: glibc's and Emscripten's musl atan2f differ in the last bit for
// some inputs, so an angle computed with the C library makes native and wasm runs part ways (docs/determinism.md).
// Only IEEE +, -, *, / and compares, in a fixed order (the build uses -ffp-contract=off), so any conforming
// platform gives the same result.
//
// Method (Cephes' atanf): with a = min(|x|, |y|) / max(|x|, |y|) in [0, 1],
//   atan(a) = t + t z (c0 + z (c1 + z (c2 + z c3))),  z = t², where
//   t = a,                  for a <= tan(π/8)
//   t = (a - 1) / (a + 1),  plus π/4, above
// then the octant: π/2 - atan(a) where |y| > |x|, π - that where x < 0, negated where y < 0.
// Error: below 3e-7 rad against the exact angle (tests/native/atan2_test.cpp).
#pragma once

#include <cmath>

namespace pbd {

/// The angle of (x, y) in [-π, π], like std::atan2 up to 3e-7 rad: atan2(±0, x >= +0) = ±0, atan2(±0, x < 0) = ±π,
/// NaN in gives NaN out. Both arguments infinite gives NaN (std::atan2 gives a multiple of π/4).
inline float deterministicAtan2(float y, float x) {
  constexpr float kPi = 3.14159265358979f, kHalfPi = 1.57079632679490f, kQuarterPi = 0.785398163397448f;
  constexpr float kTanEighthPi = 0.414213562373095f;
  const float ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  const bool steep = ay > ax;
  const float big = steep ? ay : ax, small = steep ? ax : ay;
  const float a = big == 0 ? 0.0f : small / big;  // NaN stays NaN
  const bool reduced = a > kTanEighthPi;
  const float t = reduced ? (a - 1) / (a + 1) : a;
  const float z = t * t;
  float r = ((((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z - 3.33329491539e-1f) * z) * t + t;
  if (reduced) r = r + kQuarterPi;
  if (steep) r = kHalfPi - r;
  if (std::signbit(x)) r = kPi - r;  // x = -0 counts as negative, as in std::atan2
  return std::signbit(y) ? -r : r;
}

}  // namespace pbd
