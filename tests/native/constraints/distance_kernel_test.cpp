// The distance kernel against finite differences, and the momentum its correction carries (none).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "constraints/distance.h"
#include "math/band_layout.h"
#include "native/random_particles.h"

using namespace pbd;

namespace {

Real distanceC(const Vec3& a, const Vec3& b, Real lo, Real hi) {
  Real C = 0;
  Vec3 n;
  evalDistance(a, b, lo, hi, C, n);
  return C;
}

using test::randomVec;

}  // namespace

TEST(DistanceKernel, GradientMatchesCentralDifferences) {
  std::mt19937 rng(1);
  const Real eps = 1e-3f;
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 p1 = randomVec(rng, 1), p2 = randomVec(rng, 1);
    const Real d = (p1 - p2).norm();
    // Alternate between bilateral, too long (max active) and too short (min active).
    const Real lo = trial % 3 == 0 ? 0.7f * d : (trial % 3 == 1 ? 0 : 1.5f * d);
    const Real hi = trial % 3 == 0 ? lo : (trial % 3 == 1 ? 0.5f * d : 2 * d);
    Real C;
    Vec3 n;
    ASSERT_TRUE(evalDistance(p1, p2, lo, hi, C, n));
    for (int a = 0; a < 3; ++a) {
      Vec3 e = Vec3::Zero();
      e[a] = eps;
      const Real fd1 = (distanceC(p1 + e, p2, lo, hi) - distanceC(p1 - e, p2, lo, hi)) / (2 * eps);
      const Real fd2 = (distanceC(p1, p2 + e, lo, hi) - distanceC(p1, p2 - e, lo, hi)) / (2 * eps);
      EXPECT_NEAR(fd1, n[a], 2e-3f) << "trial " << trial << " axis " << a;
      EXPECT_NEAR(fd2, -n[a], 2e-3f) << "trial " << trial << " axis " << a;
    }
  }
}

TEST(DistanceKernel, ZeroCorrectionAtRestAndInsideTheSlack) {
  Vec3 p1(0, 0, 0), p2(1, 0, 0);
  EXPECT_EQ(projectDistance(p1, p2, 1, 1, 1, 1, true, 1, 0, 0), 0);
  EXPECT_EQ(projectDistance(p1, p2, 1, 1, 0.5f, 2, true, 1, 0, 0), 0);
  EXPECT_EQ(p1, Vec3(0, 0, 0));
  EXPECT_EQ(p2, Vec3(1, 0, 0));
}

TEST(DistanceKernel, RigidProjectionReachesRestLengthInOneStep) {
  Vec3 p1(0, 0, 0), p2(2, 0.5f, -1);
  projectDistance(p1, p2, 1, 3, 1.2f, 1.2f, true, 1, 0, 0);
  EXPECT_NEAR((p1 - p2).norm(), 1.2f, 1e-6f);
}

TEST(DistanceKernel, CorrectionCarriesNoLinearOrAngularMomentum) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> mass(0.1f, 10);
  for (int trial = 0; trial < 100; ++trial) {
    Vec3 p1 = randomVec(rng, 1), p2 = randomVec(rng, 1);
    const Vec3 q1 = p1, q2 = p2;
    const Real m1 = mass(rng), m2 = mass(rng);
    const bool xpbd = trial % 2;
    projectDistance(p1, p2, 1 / m1, 1 / m2, 0.3f, 0.3f, xpbd, 0.6f, 1e-2f, 0);
    const Vec3 linear = m1 * (p1 - q1) + m2 * (p2 - q2);
    // The correction is along p1 - p2, so its moment about any point vanishes.
    const Vec3 angular = m1 * p1.cross(p1 - q1) + m2 * p2.cross(p2 - q2);
    EXPECT_LT(linear.norm(), 1e-5f * (m1 + m2));
    EXPECT_LT(angular.norm(), 1e-5f * (m1 + m2));
  }
}

TEST(DistanceKernel, CoincidentParticlesAreLeftAlone) {
  Vec3 p1(1, 1, 1), p2(1, 1, 1);
  EXPECT_EQ(projectDistance(p1, p2, 1, 1, 1, 1, true, 1, 0, 0), 0);
  EXPECT_TRUE(p1.allFinite() && p2.allFinite());
}

TEST(CorrectedStiffness, RemovesTheSameFractionForAnyIterationCount) {
  for (Real k : {0.1f, 0.5f, 0.9f}) {
    for (int n : {1, 4, 32}) {
      const Real kp = correctedStiffness(k, n);
      EXPECT_NEAR(std::pow(1 - kp, Real(n)), 1 - k, 1e-5f);
    }
  }
  EXPECT_EQ(correctedStiffness(1, 7), 1);
}

namespace {

/// n independent constraints (each particle used once, constraint k on particles 2k and 2k+1): bilateral, slack,
/// stretched, coincident, pinned; every other one compliant unless `rigid`.
struct IndependentConstraints {
  std::vector<Real> xyz, w;
  std::vector<DistanceConstraint> cs;
};
IndependentConstraints independentConstraints(int n, unsigned seed, bool rigid) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1);
  IndependentConstraints r{std::vector<Real>(6 * n), std::vector<Real>(2 * n), {}};
  for (int k = 0; k < n; ++k) {
    for (int a = 0; a < 6; ++a) r.xyz[6 * k + a] = u(rng);
    if (k % 7 == 3) for (int a = 0; a < 3; ++a) r.xyz[6 * k + 3 + a] = r.xyz[6 * k + a];  // coincident
    r.w[2 * k] = k % 5 == 0 ? 0 : 1 + u(rng) * 0.5f;
    r.w[2 * k + 1] = k % 11 == 0 ? 0 : 1 + u(rng) * 0.5f;
    const Real lo = k % 3 == 0 ? 0.2f : 0.6f, hi = k % 3 == 1 ? 0.6f : 1.5f;  // some bilateral, some slack
    const Real compliance = !rigid && k % 2 ? 1e-4f : 0.0f;
    r.cs.push_back({uint32_t(2 * k), uint32_t(2 * k + 1), lo, hi, compliance, 0.7f, 0.4f});
  }
  return r;
}

}  // namespace

TEST(DistanceKernel, FourWideBatchIsBitIdenticalToOneByOne) {
  // 41 independent constraints in both methods; the batch path (4 lanes + a remainder of 1) must match
  // projectDistance exactly, also when a colour's batches are split into ranges as the thread pool splits them.
  const int n = 41;
  const auto [xyz, w, cs] = independentConstraints(n, 11, false);
  // The batches: 11, the last with 3 spare lanes on the padding particle (index 2n, inverse mass 0).
  std::vector<DistanceBatch> batches((n + 3) / 4);
  std::vector<DistanceBatchStrength> strengths(batches.size());
  packDistanceBatches(cs.data(), n, 2 * n, batches.data(), strengths.data());
  for (bool xpbd : {true, false}) {
    std::vector<Real> batchXyz = xyz, serialXyz = xyz, batchLambda(n + 3, 0.01f), serialLambda(n, 0.01f);
    std::vector<Real> padded(4 * (2 * n + 1), Real(0));
    padPositions(batchXyz.data(), w.data(), 0, 2 * n, padded.data());
    const std::vector<Real> paddingBefore(padded.end() - 4, padded.end());
    // Two ranges, as the thread pool splits a colour.
    const BatchMethod method = xpbd ? BatchMethod::Xpbd : BatchMethod::Pbd;
    projectDistanceBatches(batches.data(), strengths.data(), 0, 3, batchLambda.data(), padded.data(), method, 3600);
    projectDistanceBatches(batches.data(), strengths.data(), 3, batches.size(), batchLambda.data(), padded.data(),
                           method, 3600);
    unpadPositions(padded.data(), 0, 2 * n, batchXyz.data());
    EXPECT_EQ(paddingBefore, std::vector<Real>(padded.end() - 4, padded.end()));  // the padding particle stays
    for (int k = n; k < n + 3; ++k) EXPECT_EQ(batchLambda[k], 0.01f);           // and so do the spare multipliers
    for (int i = 0; i < 2 * n; ++i) EXPECT_EQ(padded[4 * i + 3], w[i]);          // w rides along unchanged
    Vec3* P = reinterpret_cast<Vec3*>(serialXyz.data());
    for (int k = 0; k < n; ++k) {
      const DistanceConstraint& c = cs[k];
      serialLambda[k] += projectDistance(P[c.i], P[c.j], w[c.i], w[c.j], c.minLength, c.maxLength, xpbd, c.kPrime,
                                         c.compliance * 3600, serialLambda[k]);
    }
    EXPECT_EQ(0, std::memcmp(batchXyz.data(), serialXyz.data(), xyz.size() * sizeof(Real))) << "xpbd " << xpbd;
    if (xpbd) EXPECT_EQ(0, std::memcmp(batchLambda.data(), serialLambda.data(), n * sizeof(Real)));
    else for (int k = 0; k < n; ++k) EXPECT_EQ(batchLambda[k], 0.01f);  // PBD has no multipliers to keep
    EXPECT_NE(0, std::memcmp(batchXyz.data(), xyz.data(), xyz.size() * sizeof(Real)));  // it did something
    for (Real x : batchXyz) ASSERT_TRUE(std::isfinite(x));
  }
}

TEST(DistanceKernel, BatchResidualsMatchTheOneByOneEvaluation) {
  // The residual record's four-wide passes, over batches and over a plain list: r = C (PBD) or C + α̃λ (XPBD) per
  // constraint, over 41 constraints of every kind (slack, bilateral, coincident, pinned ends, rigid and compliant);
  // the batches' last has 3 padding lanes (particle index 2n, beyond the unpadded positions). Same max |r| and the
  // same four running sums of r², bit for bit, as evalDistance one constraint at a time in order, each constraint
  // added into the sum of its lane (k mod 4 in the batches, (k - begin) mod 4 in a range of the list).
  const int n = 41;
  const auto [xyz, w, cs] = independentConstraints(n, 13, false);
  std::vector<DistanceBatch> batches((n + 3) / 4);
  std::vector<DistanceBatchStrength> strengths(batches.size());
  packDistanceBatches(cs.data(), n, 2 * n, batches.data(), strengths.data());
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Real> lambda(n + 3);
  for (Real& l : lambda) l = u(rng);
  const Real invH2 = 3600;
  const Vec3* P = reinterpret_cast<const Vec3*>(xyz.data());
  for (bool xpbd : {true, false}) {
    ResidualSums batched;
    addDistanceBatchResiduals(batches.data(), strengths.data(), lambda.data(), 0, 4, xyz.data(), 2 * n, xpbd, invH2,
                              batched);
    addDistanceBatchResiduals(batches.data(), strengths.data(), lambda.data(), 4, batches.size(), xyz.data(), 2 * n,
                              xpbd, invH2, batched);
    auto residual = [&, &cs = cs](int k) {  // (clang 14 captures no structured binding by default)
      const DistanceConstraint& c = cs[k];
      const Real C = distanceC(P[c.i], P[c.j], c.minLength, c.maxLength);
      return xpbd ? C + c.compliance * invH2 * lambda[k] : C;
    };
    double maxAbs = 0, lanes[4] = {0, 0, 0, 0}, rangeLanes[4] = {0, 0, 0, 0};
    for (int k = 0; k < n; ++k) {
      const Real r = residual(k);
      maxAbs = std::max(maxAbs, double(std::abs(r)));
      lanes[k % 4] += double(r * r);
      rangeLanes[(k < 18 ? k : k - 18) % 4] += double(r * r);
    }
    EXPECT_EQ(batched.maxAbs, maxAbs) << "xpbd " << xpbd;
    for (int lane = 0; lane < 4; ++lane) EXPECT_EQ(batched.laneSumSq[lane], lanes[lane]) << "xpbd " << xpbd;
    ResidualSums listed;  // the same constraints as a plain list, four at a time and one left over, in two ranges
    addDistanceResiduals(cs.data(), lambda.data(), 0, 18, xyz.data(), xpbd, invH2, listed);
    addDistanceResiduals(cs.data(), lambda.data(), 18, n, xyz.data(), xpbd, invH2, listed);
    EXPECT_EQ(listed.maxAbs, maxAbs) << "xpbd " << xpbd;
    for (int lane = 0; lane < 4; ++lane) EXPECT_EQ(listed.laneSumSq[lane], rangeLanes[lane]) << "xpbd " << xpbd;
    EXPECT_EQ(batched.sumSq(), (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]));
    EXPECT_GT(maxAbs, 0.0);  // there was something to measure
  }
}

TEST(DistanceKernel, RigidBatchesGiveXpbdsPositionsWithoutMultipliers) {
  // Rigid constraints (compliance 0) of every kind the kernel meets, one carried multiplier each (as after earlier
  // passes of a substep): the RigidXpbd path must move the particles exactly as XPBD does, whatever λ holds, and
  // leave the multipliers alone.
  const int n = 23;
  const auto [xyz, w, cs] = independentConstraints(n, 5, true);
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<DistanceBatch> batches((n + 3) / 4);
  std::vector<DistanceBatchStrength> strengths(batches.size());
  packDistanceBatches(cs.data(), n, 2 * n, batches.data(), strengths.data());
  std::vector<Real> padded(4 * (2 * n + 1), Real(0)), batchXyz = xyz, serialXyz = xyz;
  std::vector<Real> serialLambda(n);
  for (int k = 0; k < n; ++k) serialLambda[k] = u(rng);  // whatever the serial multipliers hold
  padPositions(batchXyz.data(), w.data(), 0, 2 * n, padded.data());
  projectDistanceBatches(batches.data(), nullptr, 0, batches.size(), nullptr, padded.data(), BatchMethod::RigidXpbd,
                         3600);
  unpadPositions(padded.data(), 0, 2 * n, batchXyz.data());
  Vec3* P = reinterpret_cast<Vec3*>(serialXyz.data());
  for (int k = 0; k < n; ++k) {
    const DistanceConstraint& c = cs[k];
    projectDistance(P[c.i], P[c.j], w[c.i], w[c.j], c.minLength, c.maxLength, true, c.kPrime, c.compliance * 3600,
                    serialLambda[k]);
  }
  EXPECT_EQ(0, std::memcmp(batchXyz.data(), serialXyz.data(), xyz.size() * sizeof(Real)));
  EXPECT_NE(0, std::memcmp(batchXyz.data(), xyz.data(), xyz.size() * sizeof(Real)));  // it did something
  for (int i = 0; i < 2 * n; ++i) EXPECT_EQ(padded[4 * i + 3], w[i]);
}

TEST(BandLayout, PaddingAndBackKeepEveryBitAndZeroTheTail) {
  // n not a multiple of 4 (the last band short) and a multiple; the copies split into ranges as the thread pool
  // splits them, one range of one block among them (the vector loop's edge cases: a range's last block, and a
  // block whose last-band particle is the last particle).
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-2, 2);
  for (uint32_t n : {1u, 7u, 13u, 64u, 4097u, 4098u, 4099u, 4100u}) {
    const uint32_t m = bandParticles(n);
    std::vector<Real> xyz(3 * n), w(n);
    for (Real& x : xyz) x = u(rng);
    for (Real& x : w) x = u(rng) + 3;
    std::vector<Real> bands(16 * size_t(m), Real(7));  // not zero: the tail must be written
    const size_t cuts[] = {0, m / 3, m / 3 + 1, m - 1, m};
    for (size_t c = 0; c + 1 < std::size(cuts); ++c) {
      if (cuts[c] < cuts[c + 1]) padBandsRange(xyz.data(), w.data(), n, m, cuts[c], cuts[c + 1], bands.data());
    }
    for (uint32_t b = 0; b < m; ++b) {
      for (uint32_t lane = 0; lane < 4; ++lane) {
        const size_t p = b + size_t(lane) * m;
        const Real* s = bands.data() + 16 * b + lane;
        for (int a = 0; a < 3; ++a) ASSERT_EQ(s[4 * a], p < n ? xyz[3 * p + a] : Real(0)) << n << " " << p;
        ASSERT_EQ(s[12], p < n ? w[p] : Real(0)) << n << " " << p;
      }
    }
    std::vector<Real> back(3 * n, Real(-9));
    for (size_t c = 0; c + 1 < std::size(cuts); ++c) {
      if (cuts[c] < cuts[c + 1]) unpadBandsRange(bands.data(), n, m, cuts[c], cuts[c + 1], back.data());
    }
    EXPECT_EQ(0, std::memcmp(back.data(), xyz.data(), xyz.size() * sizeof(Real))) << n;
  }
}

// The lattice-ordered layout (schedule/lattice_order.h): place b + L m holds particle order[b + L m]. Every bit there
// and back, the tail zeroed, for orders that put the last particle (whose vector load would read past the end) in
// any lane.
TEST(BandLayout, PaddingInAnOrderAndBackKeepEveryBit) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<Real> u(-2, 2);
  for (uint32_t n : {5u, 13u, 64u, 4097u, 4100u}) {
    const uint32_t m = bandParticles(n);
    std::vector<Real> xyz(3 * n), w(n);
    for (Real& x : xyz) x = u(rng);
    for (Real& x : w) x = u(rng) + 3;
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<Real> bands(16 * size_t(m), Real(7));
    const size_t cuts[] = {0, m / 3, m / 3 + 1, m};
    for (size_t c = 0; c + 1 < std::size(cuts); ++c) {
      if (cuts[c] < cuts[c + 1])
        padBandsInOrder(xyz.data(), w.data(), order.data(), n, m, cuts[c], cuts[c + 1], bands.data());
    }
    for (uint32_t b = 0; b < m; ++b) {
      for (uint32_t lane = 0; lane < 4; ++lane) {
        const size_t r = b + size_t(lane) * m, p = r < n ? order[r] : 0;
        const Real* s = bands.data() + 16 * b + lane;
        for (int a = 0; a < 3; ++a) ASSERT_EQ(s[4 * a], r < n ? xyz[3 * p + a] : Real(0)) << n << " " << r;
        ASSERT_EQ(s[12], r < n ? w[p] : Real(0)) << n << " " << r;
      }
    }
    std::vector<uint32_t> slot(n);
    for (uint32_t r = 0; r < n; ++r) slot[order[r]] = bandSlot(r, m);
    std::vector<Real> back(3 * n, Real(-9));
    const size_t particleCuts[] = {0, n / 3, n / 3 + 1, n};
    for (size_t c = 0; c + 1 < std::size(particleCuts); ++c) {
      unpadBandsToParticles(bands.data(), slot.data(), particleCuts[c], particleCuts[c + 1], back.data());
    }
    EXPECT_EQ(0, std::memcmp(back.data(), xyz.data(), xyz.size() * sizeof(Real))) << n;
  }
}

TEST(DistanceKernel, PaddingInAnOrderAndBackKeepEveryBitAndWriteOnlyTheirRange) {
  // padPositionsInOrder and unpadPositionsInOrder (one vector a particle in wasm, value by value elsewhere) against
  // the element-by-element layout, to the raw bits: signed zeros, infinities and a signalling NaN's payload (a copy
  // through float arithmetic would quiet it), in ranges that split the places and the particles anywhere.
  const uint32_t n = 37;
  std::mt19937 rng(52);
  std::uniform_real_distribution<Real> u(-2, 2);
  std::vector<Real> xyz(3 * n), w(n);
  for (Real& x : xyz) x = u(rng);
  for (Real& x : w) x = u(rng) + 3;
  xyz[3] = -0.0f, xyz[7] = std::numeric_limits<Real>::infinity(), w[4] = -0.0f;
  const uint32_t payload = 0x7fa5a5a5u;
  std::memcpy(&xyz[3 * 9 + 1], &payload, sizeof payload);
  std::vector<uint32_t> order(n), rank(n);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), rng);
  for (uint32_t r = 0; r < n; ++r) rank[order[r]] = r;
  for (auto [begin, end] : {std::pair<size_t, size_t>{0, n}, {3, 11}, {5, 6}, {20, n}}) {
    std::vector<Real> padded(4 * size_t(n), Real(0.25)), back(3 * size_t(n), Real(0.75));
    padPositionsInOrder(xyz.data(), w.data(), order.data(), begin, end, padded.data());
    for (size_t r = 0; r < n; ++r) {
      const bool in = r >= begin && r < end;
      for (int a = 0; a < 3; ++a) {
        const Real expected = in ? xyz[3 * size_t(order[r]) + a] : Real(0.25);
        ASSERT_EQ(0, std::memcmp(&padded[4 * r + a], &expected, sizeof(Real))) << "place " << r;
      }
      const Real expected = in ? w[order[r]] : Real(0.25);
      ASSERT_EQ(0, std::memcmp(&padded[4 * r + 3], &expected, sizeof(Real))) << "place " << r;
    }
    padPositionsInOrder(xyz.data(), w.data(), order.data(), 0, n, padded.data());
    unpadPositionsInOrder(padded.data(), rank.data(), begin, end, back.data());
    for (size_t i = 0; i < n; ++i) {
      for (int a = 0; a < 3; ++a) {
        const Real expected = i >= begin && i < end ? xyz[3 * i + a] : Real(0.75);
        ASSERT_EQ(0, std::memcmp(&back[3 * i + a], &expected, sizeof(Real))) << "particle " << i;
      }
    }
  }
}

TEST(DistanceKernel, BandedBatchIsBitIdenticalToOneByOne) {
  // 4U independent constraints on 8U particles, constraint k on particles 2k and 2k+1: with m = 2U particles a
  // band, constraints k, k + U, k + 2U, k + 3U are translates by m, one batch. Every kind (slack, bilateral,
  // coincident, pinned ends, rigid and compliant), and fillers in some lanes, which must leave their particles be.
  const uint32_t units = 13, n = 4 * units, m = 2 * units;
  const auto [xyz, w, cs] = independentConstraints(int(n), 17, false);
  auto filler = [](uint32_t k) { return k % 9 == 4; };
  std::vector<DistanceBatch> batches(units);
  std::vector<DistanceBatchStrength> strengths(units);
  for (uint32_t unit = 0; unit < units; ++unit) {
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const uint32_t k = unit + lane * units;
      const DistanceConstraint& c = cs[k];
      ASSERT_EQ(c.i, 2 * unit + lane * m);
      ASSERT_EQ(c.j, 2 * unit + 1 + lane * m);
      batches[unit].i[lane] = c.i, batches[unit].j[lane] = c.j;
      batches[unit].minLength[lane] = filler(k) ? 0 : c.minLength;
      batches[unit].maxLength[lane] = filler(k) ? std::numeric_limits<Real>::infinity() : c.maxLength;
      strengths[unit].kPrime[lane] = filler(k) ? 0 : c.kPrime;
      strengths[unit].compliance[lane] = filler(k) ? 0 : c.compliance;
    }
  }
  for (bool xpbd : {true, false}) {
    std::vector<Real> batchXyz = xyz, serialXyz = xyz, batchLambda(4 * units, 0.01f), serialLambda(4 * units, 0.01f);
    std::vector<Real> bands(16 * size_t(m));
    padBandsRange(batchXyz.data(), w.data(), 2 * n, m, 0, m, bands.data());
    const BatchMethod method = xpbd ? BatchMethod::Xpbd : BatchMethod::Pbd;
    projectBandedDistanceBatches(batches.data(), strengths.data(), 0, 5, batchLambda.data(), bands.data(), method,
                                 3600);
    projectBandedDistanceBatches(batches.data(), strengths.data(), 5, units, batchLambda.data(), bands.data(),
                                 method, 3600);
    for (uint32_t b = 0; b < m; ++b) {  // w rides along unchanged
      for (uint32_t lane = 0; lane < 4; ++lane) ASSERT_EQ(bands[16 * b + 12 + lane], w[b + lane * m]);
    }
    unpadBandsRange(bands.data(), 2 * n, m, 0, m, batchXyz.data());
    Vec3* P = reinterpret_cast<Vec3*>(serialXyz.data());
    for (uint32_t k = 0; k < n; ++k) {
      if (filler(k)) continue;
      const DistanceConstraint& c = cs[k];
      serialLambda[k] += projectDistance(P[c.i], P[c.j], w[c.i], w[c.j], c.minLength, c.maxLength, xpbd, c.kPrime,
                                         c.compliance * 3600, serialLambda[k]);
    }
    EXPECT_EQ(0, std::memcmp(batchXyz.data(), serialXyz.data(), xyz.size() * sizeof(Real))) << "xpbd " << xpbd;
    for (uint32_t unit = 0; unit < units; ++unit) {  // multipliers lane by lane: batch u's lane L is constraint u + L U
      for (uint32_t lane = 0; lane < 4; ++lane) {
        const uint32_t k = unit + lane * units;
        EXPECT_EQ(batchLambda[4 * unit + lane], xpbd ? serialLambda[k] : 0.01f) << k;
      }
    }
    size_t moved = 0;  // it did something, and nothing to a filler's particles
    for (uint32_t k = 0; k < n; ++k) {
      const bool same = std::memcmp(&batchXyz[6 * k], &xyz[6 * k], 6 * sizeof(Real)) == 0;
      if (filler(k)) {
        EXPECT_TRUE(same) << k;
      }
      moved += !same;
    }
    EXPECT_GT(moved, n / 3);  // the slack, coincident and pinned ones may not move
  }
}

TEST(DistanceKernel, ShiftedBandedBatchIsBitIdenticalToOneByOne) {
  // Units across a band's edge: lane L (0 to 2) joins particle 2u + L m to particle 2u + 1 + (L + 1) m; lane 3 is
  // the filler that pairs band 3 with band 0. Constraint parameters of every kind from independentConstraints.
  const uint32_t units = 11, m = 2 * units, n = 4 * m;
  const auto [unusedXyz, unusedW, kinds] = independentConstraints(int(3 * units), 23, false);
  std::mt19937 rng(29);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Real> xyz(3 * n), w(n);
  for (Real& x : xyz) x = u(rng);
  for (uint32_t p = 0; p < n; ++p) w[p] = p % 7 == 5 ? 0 : 1 + u(rng) * 0.5f;
  std::vector<DistanceConstraint> cs;  // lane L of unit u is cs[3u + L]
  std::vector<DistanceBatch> batches(units);
  std::vector<DistanceBatchStrength> strengths(units);
  for (uint32_t unit = 0; unit < units; ++unit) {
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const bool filler = lane == 3;
      batches[unit].i[lane] = 2 * unit + lane * m;
      batches[unit].j[lane] = 2 * unit + 1 + (lane + 1) % 4 * m;
      DistanceConstraint c = kinds[filler ? 0 : 3 * unit + lane];
      c.i = batches[unit].i[lane], c.j = batches[unit].j[lane];
      if (!filler) cs.push_back(c);
      batches[unit].minLength[lane] = filler ? 0 : c.minLength;
      batches[unit].maxLength[lane] = filler ? std::numeric_limits<Real>::infinity() : c.maxLength;
      strengths[unit].kPrime[lane] = filler ? 0 : c.kPrime;
      strengths[unit].compliance[lane] = filler ? 0 : c.compliance;
    }
  }
  for (bool xpbd : {true, false}) {
    std::vector<Real> batchXyz = xyz, serialXyz = xyz, batchLambda(4 * units, 0.01f), serialLambda(cs.size(), 0.01f);
    std::vector<Real> bands(16 * size_t(m));
    padBandsRange(batchXyz.data(), w.data(), n, m, 0, m, bands.data());
    const BatchMethod method = xpbd ? BatchMethod::Xpbd : BatchMethod::Pbd;
    projectBandedDistanceBatches(batches.data(), strengths.data(), 0, 4, batchLambda.data(), bands.data(), method,
                                 3600, 1);
    projectBandedDistanceBatches(batches.data(), strengths.data(), 4, units, batchLambda.data(), bands.data(), method,
                                 3600, 1);
    unpadBandsRange(bands.data(), n, m, 0, m, batchXyz.data());
    Vec3* P = reinterpret_cast<Vec3*>(serialXyz.data());
    for (size_t k = 0; k < cs.size(); ++k) {
      const DistanceConstraint& c = cs[k];
      serialLambda[k] += projectDistance(P[c.i], P[c.j], w[c.i], w[c.j], c.minLength, c.maxLength, xpbd, c.kPrime,
                                         c.compliance * 3600, serialLambda[k]);
    }
    EXPECT_EQ(0, std::memcmp(batchXyz.data(), serialXyz.data(), xyz.size() * sizeof(Real))) << "xpbd " << xpbd;
    EXPECT_NE(0, std::memcmp(batchXyz.data(), xyz.data(), xyz.size() * sizeof(Real)));  // it did something
    for (uint32_t unit = 0; unit < units; ++unit) {
      for (uint32_t lane = 0; lane < 3; ++lane) {
        EXPECT_EQ(batchLambda[4 * unit + lane], xpbd ? serialLambda[3 * unit + lane] : 0.01f);
      }
      EXPECT_EQ(batchLambda[4 * unit + 3], 0.01f);  // the filler's multiplier stays
    }
  }
}
