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
#include "native/lane_bits.h"
#include "native/stage_oracles.h"

using namespace pbd;

namespace {

using test::bits;

std::vector<float> floatSamples() {
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
  const std::vector<float> v = floatSamples();
  size_t checked = 0;
  for (size_t i = 0; i + 4 <= v.size(); ++i) {
    for (size_t j = 0; j + 4 <= v.size(); j += 3) {
      const Float4 a = Float4::load(&v[i]), b = Float4::load(&v[j]);
      const Float4 sum = a + b, difference = a - b, product = a * b, quotient = a / b, negated = -a, root = sqrt(a);
      const Float4 lo = pmin(a, b), hi = pmax(a, b), chosen = select(a < b, a, b), kept = selectOrZero(a < b, a);
      const Float4 magnitude = absLanes(a);
      const Mask4 lt = a < b, gt = a > b, le = a <= b, eq = a == b, ne = a != b, sign = signbit(a), both = lt & le, either = gt | eq;
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
        ASSERT_EQ(bits(laneOf(kept, k)), bits(x < y ? x : 0.0f));
        ASSERT_EQ(bits(laneOf(kept, k)), bits(selectOrZero(x < y, x)));
        ASSERT_EQ(bits(laneOf(magnitude, k)), bits(x < 0 ? -x : x));  // -0 and NaN as they are
        ASSERT_EQ(bits(laneOf(magnitude, k)), bits(absLanes(x)));
        ASSERT_EQ(maskLane(lt, k), x < y);
        ASSERT_EQ(maskLane(gt, k), x > y);
        ASSERT_EQ(maskLane(le, k), x <= y);
        ASSERT_EQ(maskLane(eq, k), x == y);
        ASSERT_EQ(maskLane(ne, k), x != y);
        ASSERT_EQ(maskLane(sign, k), std::signbit(x));
        ASSERT_EQ(maskLane(both, k), x < y && x <= y);
        ASSERT_EQ(maskLane(either, k), x > y || x == y);
        ++checked;
      }
      ASSERT_EQ(all(le), maskLane(le, 0) && maskLane(le, 1) && maskLane(le, 2) && maskLane(le, 3));
      ASSERT_EQ(any(lt), maskLane(lt, 0) || maskLane(lt, 1) || maskLane(lt, 2) || maskLane(lt, 3));
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
  const Float4 r = Float4::make(1, 2, 3, 4), down = r.rotatedDown(), up = r.rotatedUp();
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(laneOf(down, k), laneOf(r, (k + 1) % 4)) << "lane " << k;
    EXPECT_EQ(laneOf(up, k), laneOf(r, (k + 3) % 4)) << "lane " << k;
    EXPECT_EQ(laneOf(down.rotatedUp(), k), laneOf(r, k)) << "lane " << k;
  }
}

TEST(WideFloat, AllIsTrueOnlyWhenEveryLaneIsAndAnyWhenOneIs) {
  const Float4 one = Float4::splat(1);
  EXPECT_TRUE(all(one == one));
  EXPECT_FALSE(all(one != one));
  EXPECT_TRUE(any(one == one));
  EXPECT_FALSE(any(one != one));
  for (int k = 0; k < 4; ++k) {  // one false lane, in each position
    float v[4] = {1, 1, 1, 1};
    v[k] = 2;
    EXPECT_FALSE(all(Float4::load(v) == one)) << "lane " << k;
    EXPECT_TRUE(any(Float4::load(v) != one)) << "lane " << k;  // and the other lanes all false
    v[k] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(all(one <= Float4::load(v))) << "NaN in lane " << k;
    EXPECT_TRUE(any(Float4::load(v) != one)) << "NaN in lane " << k;
    EXPECT_FALSE(any((Float4::load(v) == Float4::load(v)) & (Float4::load(v) != one))) << "NaN in lane " << k;
  }
}

TEST(WideFloat, TheForceStepMatchesTheOneParticleExpression) {
  // The force step's oracle (stage_oracles.h; its lanes laid out by spreadOverXyz and repeatOverXyz) against
  // v += h (g + w f) particle by particle, pinned particles (w = 0) untouched: ranges with and without a tail of
  // fewer than four particles, starting anywhere.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-3, 3);
  const size_t n = 23;
  std::vector<float> v(3 * n), w(n), f(3 * n);
  for (float& x : v) x = u(rng);
  for (float& x : f) x = u(rng);
  for (size_t i = 0; i < n; ++i) w[i] = i % 4 == 1 || i == 6 ? 0.0f : std::abs(u(rng)) + 0.1f;
  v[3 * 6] = -0.0f;  // a pinned particle's signed zero stays
  const float g[3] = {0.5f, -9.81f, 0.0f}, h = 1.0f / 600;
  for (auto [begin, end] : {std::pair<size_t, size_t>{0, n}, {3, 11}, {5, 8}}) {
    std::vector<float> wide = v, one = v;
    test::addAccelerationRange(wide.data(), w.data(), f.data(), g, h, begin, end);
    for (size_t i = begin; i < end; ++i) {
      if (w[i] == 0) continue;
      for (int a = 0; a < 3; ++a) one[3 * i + a] += h * (g[a] + w[i] * f[3 * i + a]);
    }
    for (size_t k = 0; k < 3 * n; ++k) ASSERT_EQ(bits(wide[k]), bits(one[k])) << "[" << begin << ", " << end << ") k " << k;
    EXPECT_NE(wide, v);  // it did something
  }
}

TEST(WideFloat, PaddingPositionsMovesEveryBitToItsLaneAndBack) {
  // padRange and unpadRange against the element-by-element layout, exact to the raw bits (signed zeros, a NaN with a
  // payload, infinities): ranges with and without a tail of fewer than four particles, starting anywhere, and
  // nothing outside [begin, end) written.
  const size_t n = 23;
  std::vector<float> xyz(3 * n), w(n);
  const std::vector<float> pool = floatSamples();
  for (size_t k = 0; k < xyz.size(); ++k) xyz[k] = pool[(7 * k + 3) % pool.size()];
  for (size_t i = 0; i < n; ++i) w[i] = pool[(5 * i + 1) % pool.size()];
  uint32_t payload = 0x7fa5a5a5u;  // a signalling NaN: a copy through float arithmetic would quiet it
  std::memcpy(&xyz[3 * 9 + 1], &payload, sizeof payload);
  const auto raw = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  };
  for (auto [begin, end] : {std::pair<size_t, size_t>{0, n}, {3, 11}, {5, 8}, {8, 16}}) {
    std::vector<float> padded(4 * n, 0.25f), back(3 * n, 0.75f);
    padRange(xyz.data(), w.data(), begin, end, padded.data());
    unpadRange(padded.data(), begin, end, back.data());
    for (size_t i = 0; i < n; ++i) {
      const bool in = i >= begin && i < end;
      for (int a = 0; a < 3; ++a) {
        ASSERT_EQ(raw(padded[4 * i + a]), raw(in ? xyz[3 * i + a] : 0.25f)) << "[" << begin << ", " << end << ") " << i;
        ASSERT_EQ(raw(back[3 * i + a]), raw(in ? xyz[3 * i + a] : 0.75f)) << "[" << begin << ", " << end << ") " << i;
      }
      ASSERT_EQ(raw(padded[4 * i + 3]), raw(in ? w[i] : 0.25f)) << "[" << begin << ", " << end << ") " << i;
    }
  }
}
