// math/wide_double.h: every Double2 operation of the path this build compiled gives, lane by lane, the bits of the
// same IEEE double operation, and the conversions from and to Float4 lanes the bits of static casts; as
// wide_float_test.cpp does for Float4, so that VBD's double lanes give the bits of its one-vertex steps everywhere.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/wide_double.h"
#include "native/lane_bits.h"

using namespace pbd;

namespace {

using test::bits;

/// Lane k of a pair, its bytes as they are (every path's pair is two doubles in lane order).
double doubleLaneOf(Double2 a, int k) {
  double out[2];
  std::memcpy(out, &a, sizeof out);
  return out[k];
}

std::vector<double> doubleSamples() {
  using L = std::numeric_limits<double>;
  std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, L::infinity(), -L::infinity(), L::quiet_NaN(),
                           L::denorm_min(), -L::denorm_min(), L::min(), L::max(), -L::max(), 1e-300, 1e300};
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-4, 4);
  std::uniform_int_distribution<int> e(-200, 200);
  for (int k = 0; k < 120; ++k) v.push_back(std::ldexp(u(rng), e(rng)));
  return v;
}

Double2 pairOf(double a, double b) {
  Double2 r;
  const double lanes[2] = {a, b};
  std::memcpy(&r, lanes, sizeof lanes);
  return r;
}

}  // namespace

TEST(WideDouble, EveryOperationMatchesTheScalarOneBitForBit) {
  const std::vector<double> v = doubleSamples();
  size_t checked = 0;
  for (size_t i = 0; i + 2 <= v.size(); ++i) {
    for (size_t j = 0; j + 2 <= v.size(); j += 3) {
      const Double2 a = pairOf(v[i], v[i + 1]), b = pairOf(v[j], v[j + 1]);
      const Double2 sum = a + b, difference = a - b, product = a * b, quotient = a / b;
      const unsigned gt = (a > b).bits(), eq = (a == b).bits(), both = ((a > b) & (a == b)).bits();
      for (int k = 0; k < 2; ++k) {
        const double x = v[i + size_t(k)], y = v[j + size_t(k)];
        SCOPED_TRACE(testing::Message() << "lane " << k << ": x = " << x << ", y = " << y);
        ASSERT_EQ(bits(doubleLaneOf(sum, k)), bits(x + y));
        ASSERT_EQ(bits(doubleLaneOf(difference, k)), bits(x - y));
        ASSERT_EQ(bits(doubleLaneOf(product, k)), bits(x * y));
        ASSERT_EQ(bits(doubleLaneOf(quotient, k)), bits(x / y));
        ASSERT_EQ(bool(gt >> k & 1u), x > y);
        ASSERT_EQ(bool(eq >> k & 1u), x == y);
        ASSERT_FALSE(both >> k & 1u);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 4000u);
  EXPECT_EQ(bits(doubleLaneOf(Double2(-0.0), 1)), bits(-0.0));
}

TEST(WideDouble, FloatLanesWidenAndRoundAsStaticCasts) {
  using L = std::numeric_limits<float>;
  const float f[8] = {1.5f, -0.0f, L::denorm_min(), L::max(), 0.1f, -3.25e-20f, L::infinity(), 7.0f};
  for (int at = 0; at < 8; at += 4) {
    const Float4 lanes = Float4::load(f + at);
    const Double2 lo = Double2::low(lanes), hi = Double2::high(lanes);
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(bits(doubleLaneOf(lo, k)), bits(double(f[at + k]))) << at + k;
      EXPECT_EQ(bits(doubleLaneOf(hi, k)), bits(double(f[at + 2 + k]))) << at + 2 + k;
    }
  }
  // Doubles that round up, down, to even, overflow to infinity and underflow to a subnormal or zero.
  const double d[8] = {0.1, 1.0 + 0x1p-24, 1.0 + 0x3p-24, -1e39, 1e-45, 1e-50, -2.5e-40, 123456789.0};
  for (int at = 0; at < 8; at += 4) {
    float out[4];
    toFloat4(pairOf(d[at], d[at + 1]), pairOf(d[at + 2], d[at + 3])).store(out);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(bits(out[k]), bits(float(d[at + k]))) << at + k;
  }
}
