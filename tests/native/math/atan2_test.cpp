// math/atan2.h: the library's own atan2, checked against the exact angle (std::atan2 in double) and IEEE's special
// cases. Its bits are the same natively and in wasm by construction; the determinism tests check that end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "math/atan2.h"

namespace pbd {
namespace {

TEST(DeterministicAtan2, Within3e7RadOfTheExactAngleEverywhere) {
  // Random points at scales from 1e-6 to 1e3 (thin and steep wedges included), and points on a circle every 0.01°.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1), exponent(-6, 3);
  double worst = 0;
  auto check = [&](float y, float x) {
    const double error = std::fabs(double(deterministicAtan2(y, x)) - std::atan2(double(y), double(x)));
    worst = std::max(worst, error);
  };
  for (int k = 0; k < 1000000; ++k) check(u(rng) * std::pow(10.0f, exponent(rng)), u(rng) * std::pow(10.0f, exponent(rng)));
  for (int k = 0; k < 36000; ++k) {
    const double a = (k / 100.0 - 180.0) * M_PI / 180.0;
    check(float(std::sin(a)), float(std::cos(a)));
  }
  EXPECT_LT(worst, 3e-7);
  EXPECT_GT(worst, 0);  // it is an approximation: the bound above is what is promised, not exactness
}

TEST(DeterministicAtan2, SignsQuadrantsAndSpecialValuesAsStdAtan2) {
  EXPECT_EQ(deterministicAtan2(0.0f, 1.0f), 0.0f);
  EXPECT_TRUE(std::signbit(deterministicAtan2(-0.0f, 1.0f)));
  EXPECT_EQ(deterministicAtan2(0.0f, 0.0f), 0.0f);
  EXPECT_NEAR(deterministicAtan2(0.0f, -0.0f), M_PI, 3e-7);
  EXPECT_NEAR(deterministicAtan2(-0.0f, -1.0f), -M_PI, 3e-7);
  EXPECT_NEAR(deterministicAtan2(1.0f, 0.0f), M_PI / 2, 3e-7);
  EXPECT_NEAR(deterministicAtan2(-1.0f, 0.0f), -M_PI / 2, 3e-7);
  EXPECT_NEAR(deterministicAtan2(1.0f, 1.0f), M_PI / 4, 3e-7);
  EXPECT_NEAR(deterministicAtan2(1.0f, -1.0f), 3 * M_PI / 4, 3e-7);
  EXPECT_NEAR(deterministicAtan2(-1.0f, -1.0f), -3 * M_PI / 4, 3e-7);
  EXPECT_NEAR(deterministicAtan2(3e-30f, 1e-30f), std::atan2(3.0, 1.0), 3e-7);  // tiny but normal: no underflow
  EXPECT_TRUE(std::isnan(deterministicAtan2(NAN, 1.0f)));
  EXPECT_TRUE(std::isnan(deterministicAtan2(1.0f, NAN)));
  // Odd in y, and reflecting x turns a into π - a.
  for (float y : {0.3f, 2.0f, 1e-5f}) {
    for (float x : {0.7f, 1e-4f, 5.0f}) {
      EXPECT_EQ(deterministicAtan2(-y, x), -deterministicAtan2(y, x));
      EXPECT_NEAR(deterministicAtan2(y, -x), M_PI - deterministicAtan2(y, x), 3e-7);
    }
  }
}

}  // namespace
}  // namespace pbd
