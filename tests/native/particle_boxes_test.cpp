// The contact broad phase's particle boxes (collision/particle_boxes.h): each run's box is the exact bounds of its
// particles whatever the run's length, a non-finite coordinate makes the infinite box, and the reach test never
// rejects a box that holds a particle within reach.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "collision/particle_boxes.h"
#include "math/wide_float.h"
#include "world/particle_advance.h"

using namespace pbd;

namespace {

std::vector<Real> randomPositions(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-3, 3);
  std::vector<Real> xyz(3 * n);
  for (Real& c : xyz) c = u(rng);
  return xyz;
}

}  // namespace

TEST(ParticleBoxes, EachRunsBoxIsTheBoundsOfItsParticles) {
  // Particle counts that end runs and four-particle groups anywhere, bounded from particle 0 or from a later run.
  constexpr size_t K = kBoxParticles;
  for (size_t n : {size_t(1), size_t(3), size_t(4), size_t(5), K - 1, K, K + 1, 2 * K + 2, 4 * K + 7}) {
    const std::vector<Real> xyz = randomPositions(n, unsigned(n));
    for (size_t begin : {size_t(0), size_t(kBoxParticles)}) {
      if (begin >= n) continue;
      std::vector<ParticleBox> boxes((n + kBoxParticles - 1) / kBoxParticles);
      boundParticles(xyz.data(), begin, n, boxes.data());
      for (size_t run = begin / kBoxParticles; run < boxes.size(); ++run) {
        for (int a = 0; a < 3; ++a) {
          Real lo = std::numeric_limits<Real>::infinity(), hi = -lo;
          for (size_t i = run * kBoxParticles; i < std::min(n, (run + 1) * kBoxParticles); ++i) {
            lo = std::min(lo, xyz[3 * i + a]), hi = std::max(hi, xyz[3 * i + a]);
          }
          EXPECT_EQ(boxes[run].lo[a], lo) << "n " << n << " run " << run << " axis " << a;
          EXPECT_EQ(boxes[run].hi[a], hi) << "n " << n << " run " << run << " axis " << a;
        }
      }
    }
  }
}

TEST(ParticleBoxes, ANonFiniteCoordinateMakesTheInfiniteBox) {
  const Real kInf = std::numeric_limits<Real>::infinity();
  // In a four-particle group (the vector path) and in a run's tail (one by one), NaN and infinity alike.
  constexpr size_t n = kBoxParticles + 3;  // two runs, the second of three particles (its tail only)
  for (size_t at : {size_t(5), size_t(kBoxParticles - 2), size_t(kBoxParticles + 2)}) {
    for (Real bad : {std::numeric_limits<Real>::quiet_NaN(), kInf, -kInf}) {
      std::vector<Real> xyz = randomPositions(n, 7);
      xyz[3 * at + 1] = bad;
      std::vector<ParticleBox> boxes(2);
      boundParticles(xyz.data(), 0, n, boxes.data());
      const ParticleBox& box = boxes[at / kBoxParticles];
      for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(box.lo[a], -kInf);
        EXPECT_EQ(box.hi[a], kInf);
      }
      const Real far[3] = {1e6f, 1e6f, 1e6f};
      EXPECT_TRUE(boxWithinReach(box, far, 1));  // looked at one by one
      const ParticleBox& other = boxes[1 - at / kBoxParticles];
      EXPECT_TRUE(std::isfinite(other.lo[0]) && std::isfinite(other.hi[2]));  // the other run is unaffected
    }
  }
}

// The prediction's fused pass (advanceParticles): the same p and copy as the plain x + h v (axpyRange) and the same
// boxes as bounding p afterwards, bit for bit, whatever the count, a later first run, or a non-finite value.
TEST(ParticleBoxes, TheFusedPredictionGivesTheBitsOfPredictingThenBounding) {
  constexpr size_t K = kBoxParticles;
  for (size_t n : {size_t(1), size_t(6), K, K + 1, 3 * K + 5}) {
    for (size_t begin : {size_t(0), size_t(K)}) {
      for (bool nonFinite : {false, true}) {
        if (begin >= n) continue;
        const std::vector<Real> x = randomPositions(n, unsigned(n + 1)), v = randomPositions(n, unsigned(n + 2));
        std::vector<Real> vel = v;
        // The last particle: in a run's tail or in a four.
        if (nonFinite) vel[3 * (n - 1) + 2] = std::numeric_limits<Real>::infinity();
        const Real h = Real(1) / 600;
        std::vector<Real> p(3 * n, -1), copy(3 * n, -2), plainP(3 * n, -1), plainCopy(3 * n, -2);
        std::vector<ParticleBox> boxes((n + K - 1) / K), plainBoxes(boxes.size());
        axpyAndBound(p.data(), x.data(), h, vel.data(), copy.data(), begin, n, boxes.data());
        axpyRange(plainP.data(), x.data(), h, vel.data(), 3 * begin, 3 * n, plainCopy.data());
        boundParticles(plainP.data(), begin, n, plainBoxes.data());
        EXPECT_EQ(0, std::memcmp(p.data(), plainP.data(), p.size() * sizeof(Real))) << "n " << n << " from " << begin;
        EXPECT_EQ(0, std::memcmp(copy.data(), plainCopy.data(), p.size() * sizeof(Real))) << "n " << n;
        EXPECT_EQ(0, std::memcmp(boxes.data() + begin / K, plainBoxes.data() + begin / K,
                                 (boxes.size() - begin / K) * sizeof(ParticleBox)))
            << "n " << n << " from " << begin << " non-finite " << nonFinite;
        EXPECT_EQ(p[3 * begin], x[3 * begin] + h * vel[3 * begin]);  // it did predict
        if (nonFinite) {
          EXPECT_EQ(boxes.back().hi[0], std::numeric_limits<Real>::infinity());
        }
      }
    }
  }
}

// The substep's fused pass (world/particle_advance.h), with and without the commit and the boxes: the bits of the
// commit, the forces and the prediction run one after the other, and of bounding after them; pinned particles keep
// their velocity.
TEST(ParticleBoxes, TheFusedAdvanceGivesTheBitsOfItsStagesInTurn) {
  constexpr size_t K = kBoxParticles;
  const Real g[3] = {0.5f, -9.81f, 0.25f}, h = Real(1) / 600, invH = 1 / h;
  for (size_t n : {size_t(3), size_t(9), K, 2 * K + 7}) {
    for (size_t begin : {size_t(0), size_t(K)}) {
      for (int variant = 0; variant < 4; ++variant) {
        const bool bound = variant & 1, commit = variant & 2;
        if (begin >= n) continue;
        const std::vector<Real> x0 = randomPositions(n, 1), v0 = randomPositions(n, 2), p0 = randomPositions(n, 3);
        const std::vector<Real> inertial0 = randomPositions(n, 4), f = randomPositions(n, 5);
        std::vector<Real> w(n);
        for (size_t i = 0; i < n; ++i) w[i] = i % 5 == 2 ? 0 : Real(1) + Real(i % 3);
        std::vector<Real> x = x0, v = v0, p = p0, inertial = inertial0;
        std::vector<ParticleBox> boxes((n + K - 1) / K), stagedBoxes(boxes.size());
        accelerateAndPredict({x.data(), v.data(), p.data(), inertial.data(), w.data(), f.data()}, commit, g, h, invH,
                             begin, n, bound ? boxes.data() : nullptr);
        std::vector<Real> sx = x0, sv = v0, sp = p0, sInertial = inertial0;
        if (commit) commitRange(sx.data(), sv.data(), sp.data(), sInertial.data(), invH, 3 * begin, 3 * n);
        addAccelerationRange(sv.data(), w.data(), f.data(), g, h, begin, n);
        axpyAndBound(sInertial.data(), sx.data(), h, sv.data(), sp.data(), begin, n, stagedBoxes.data());
        const size_t bytes = 3 * n * sizeof(Real);
        EXPECT_EQ(0, std::memcmp(x.data(), sx.data(), bytes)) << "n " << n << " from " << begin << " commit " << commit;
        EXPECT_EQ(0, std::memcmp(v.data(), sv.data(), bytes)) << "n " << n << " from " << begin;
        EXPECT_EQ(0, std::memcmp(p.data(), sp.data(), bytes)) << "n " << n << " from " << begin;
        EXPECT_EQ(0, std::memcmp(inertial.data(), sInertial.data(), bytes)) << "n " << n << " from " << begin;
        if (bound) {
          EXPECT_EQ(0, std::memcmp(boxes.data() + begin / K, stagedBoxes.data() + begin / K,
                                   (boxes.size() - begin / K) * sizeof(ParticleBox)))
              << "n " << n << " from " << begin;
        }
        // It did each stage: a pinned particle's velocity is the commit's alone, a free one's also has g + w f (in
        // y, |g + w f| >= 9.81 - 3 * 3, far above rounding); x is the old p after a commit, p the new prediction.
        std::vector<Real> committedV = v0, committedX = x0;
        if (commit) {
          commitRange(committedX.data(), committedV.data(), p0.data(), inertial0.data(), invH, 3 * begin, 3 * n);
        }
        const size_t pinned = begin + (7 - begin % 5) % 5, free = begin;  // i % 5 == 2 is pinned
        ASSERT_EQ(w[pinned], 0);
        ASSERT_NE(w[free], 0);
        EXPECT_EQ(v[3 * pinned + 1], committedV[3 * pinned + 1]);
        EXPECT_NE(v[3 * free + 1], committedV[3 * free + 1]);
        EXPECT_EQ(x[3 * free], commit ? p0[3 * free] : x0[3 * free]);
        EXPECT_EQ(p[3 * free], x[3 * free] + h * v[3 * free]);
      }
    }
  }
}

TEST(ParticleBoxes, TheReachTestKeepsEveryBoxWithAParticleInReach) {
  // Random runs and spheres: whenever some particle is within reach as the contact scan computes it
  // (|p - c|² <= reach²), the box must be in reach; and a box far from every sphere is rejected.
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-3, 3);
  int rejected = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::vector<Real> xyz = randomPositions(kBoxParticles, unsigned(trial));
    ParticleBox box;
    boundParticles(xyz.data(), 0, kBoxParticles, &box);
    const Real centre[3] = {4 * u(rng), 4 * u(rng), 4 * u(rng)};
    Real nearest = std::numeric_limits<Real>::infinity();
    for (uint32_t i = 0; i < kBoxParticles; ++i) {
      const Real d[3] = {xyz[3 * i] - centre[0], xyz[3 * i + 1] - centre[1], xyz[3 * i + 2] - centre[2]};
      nearest = std::min(nearest, (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]);
    }
    const Real reach = std::sqrt(nearest);  // the nearest particle exactly at reach: the tightest case
    EXPECT_TRUE(boxWithinReach(box, centre, reach)) << "trial " << trial;
    rejected += !boxWithinReach(box, centre, Real(0.5) * (std::abs(centre[0]) - 3));
  }
  EXPECT_GT(rejected, 100);  // the test does reject
}
