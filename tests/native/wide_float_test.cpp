// math/wide_float.h: every Float4 operation of the path this build compiled (wasm simd128, SSE, NEON or scalar) gives,
// lane by lane, the bits of the same IEEE single-precision operation on one float, over random values and the
// special ones (±0, ±inf, NaN, subnormals, the largest and smallest normals). This is what lets the batched kernels
// promise the same results as one by one, and the same in every build.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/wide_float.h"

using namespace pbd;

namespace {

/// Bits of a float; every NaN counts as one value (the lanes' NaN payloads may differ between instruction sets).
uint32_t bits(float f) {
  if (std::isnan(f)) return 0x7fc00000u;
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

std::vector<float> samples() {
  using L = std::numeric_limits<float>;
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, L::infinity(), -L::infinity(), L::quiet_NaN(),
                          -L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min(), L::max(), -L::max(), 1e-20f};
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-4, 4);
  std::uniform_int_distribution<int> e(-40, 40);
  for (int k = 0; k < 200; ++k) v.push_back(std::ldexp(u(rng), e(rng)));
  return v;
}

float laneOf(Float4 a, int k) {
  float out[4];
  a.store(out);
  return out[k];
}

bool maskLane(Mask4 m, int k) {  // select picks a where the mask is set
  return laneOf(select(m, Float4::splat(1), Float4::splat(0)), k) == 1;
}

}  // namespace

TEST(WideFloat, EveryOperationMatchesTheScalarOneBitForBit) {
  RecordProperty("path", kWideFloatPath);
  std::cout << "wide_float path: " << kWideFloatPath << "\n";
  const std::vector<float> v = samples();
  size_t checked = 0;
  for (size_t i = 0; i + 4 <= v.size(); ++i) {
    for (size_t j = 0; j + 4 <= v.size(); j += 3) {
      const Float4 a = Float4::load(&v[i]), b = Float4::load(&v[j]);
      const Float4 sum = a + b, difference = a - b, product = a * b, quotient = a / b, negated = -a, root = sqrt(a);
      const Float4 lo = pmin(a, b), hi = pmax(a, b), chosen = select(a < b, a, b);
      const Mask4 lt = a < b, gt = a > b, le = a <= b, eq = a == b, ne = a != b, sign = signbit(a), both = lt & le;
      for (int k = 0; k < 4; ++k) {
        const float x = v[i + size_t(k)], y = v[j + size_t(k)];
        SCOPED_TRACE(testing::Message() << "lane " << k << ": x = " << x << ", y = " << y);
        ASSERT_EQ(bits(laneOf(sum, k)), bits(x + y));
        ASSERT_EQ(bits(laneOf(difference, k)), bits(x - y));
        ASSERT_EQ(bits(laneOf(product, k)), bits(x * y));
        ASSERT_EQ(bits(laneOf(quotient, k)), bits(x / y));
        ASSERT_EQ(bits(laneOf(negated, k)), bits(-x));
        ASSERT_EQ(bits(laneOf(root, k)), bits(std::sqrt(x)));
        ASSERT_EQ(bits(laneOf(lo, k)), bits(pmin(x, y)));
        ASSERT_EQ(bits(laneOf(hi, k)), bits(pmax(x, y)));
        ASSERT_EQ(bits(laneOf(chosen, k)), bits(x < y ? x : y));
        ASSERT_EQ(maskLane(lt, k), x < y);
        ASSERT_EQ(maskLane(gt, k), x > y);
        ASSERT_EQ(maskLane(le, k), x <= y);
        ASSERT_EQ(maskLane(eq, k), x == y);
        ASSERT_EQ(maskLane(ne, k), x != y);
        ASSERT_EQ(maskLane(sign, k), std::signbit(x));
        ASSERT_EQ(maskLane(both, k), x < y && x <= y);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

TEST(WideFloat, LoadsStoresGathersAndTransposesMoveTheRightLanes) {
  float rows[16];
  for (int k = 0; k < 16; ++k) rows[k] = float(k) + 0.25f;
  Float4 a = Float4::load(rows), b = Float4::load(rows + 4), c = Float4::load(rows + 8), d = Float4::load(rows + 12);
  transpose(a, b, c, d);
  const Float4 columns[4] = {a, b, c, d};
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 4; ++k) EXPECT_EQ(laneOf(columns[r], k), rows[4 * k + r]) << "column " << r << ", lane " << k;
  }
  transpose(a, b, c, d);  // its own inverse
  EXPECT_EQ(laneOf(c, 1), rows[9]);
  const Float4 g = Float4::gather(&rows[7], &rows[2], &rows[15], &rows[0]);
  EXPECT_EQ(g.lane<0>(), rows[7]);
  EXPECT_EQ(g.lane<1>(), rows[2]);
  EXPECT_EQ(g.lane<2>(), rows[15]);
  EXPECT_EQ(g.lane<3>(), rows[0]);
  float out[4] = {0, 0, 0, 0};
  Float4::make(1, 2, 3, 4).scatter(&out[3], &out[1], &out[0], &out[2]);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[2], 4);
  EXPECT_EQ(out[3], 1);
}
