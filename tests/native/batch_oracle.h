// The check that a batched element kernel (four elements of a colour in float lanes on padded positions) gives the
// bits of its one-at-a-time kernel on each element in turn.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd::test {

/// xyz after `batched(xyzw)` ran on it padded with the inverse masses w (padRange), which must come back unchanged.
template <class Batched>
std::vector<Real> runOnPadded(std::vector<Real> xyz, const std::vector<Real>& w, Batched batched) {
  std::vector<Real> xyzw(4 * w.size());
  padRange(xyz.data(), w.data(), 0, w.size(), xyzw.data());
  batched(xyzw.data());
  unpadRange(xyzw.data(), 0, w.size(), xyz.data());
  for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i], xyzw[4 * i + 3]) << "inverse mass of particle " << i;
  return xyz;
}

/// The batch's positions and multipliers are the one-by-one's to the bit, finite, and moved from `start`.
inline void expectSameBits(const std::vector<Real>& batchXyz, const std::vector<Real>& serialXyz,
                           const std::vector<Real>& batchLambda, const std::vector<Real>& serialLambda,
                           const std::vector<Real>& start, const std::string& what) {
  EXPECT_EQ(0, std::memcmp(batchXyz.data(), serialXyz.data(), start.size() * sizeof(Real))) << what;
  EXPECT_EQ(0, std::memcmp(batchLambda.data(), serialLambda.data(), batchLambda.size() * sizeof(Real))) << what;
  EXPECT_NE(0, std::memcmp(batchXyz.data(), start.data(), start.size() * sizeof(Real))) << what;  // it did something
  for (Real x : batchXyz) ASSERT_TRUE(std::isfinite(x)) << what;
}

/// Runs `batched(xyzw, lambda)` on a padded copy of xyz and `oneByOne(P, lambda)` on a plain one (P: xyz as Vec3),
/// each with its own copy of the multipliers, and expects the same bits of both (expectSameBits).
template <class Batched, class OneByOne>
void expectBatchMatchesOneByOne(const std::vector<Real>& xyz, const std::vector<Real>& w,
                                const std::vector<Real>& lambda, Batched batched, OneByOne oneByOne,
                                const std::string& what) {
  std::vector<Real> serialXyz = xyz, batchLambda = lambda, serialLambda = lambda;
  const std::vector<Real> batchXyz =
      runOnPadded(xyz, w, [&](Real* xyzw) { batched(xyzw, batchLambda.data()); });
  oneByOne(reinterpret_cast<Vec3*>(serialXyz.data()), serialLambda.data());
  expectSameBits(batchXyz, serialXyz, batchLambda, serialLambda, xyz, what);
}

}  // namespace pbd::test
