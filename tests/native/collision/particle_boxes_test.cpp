// The contact broad phase's particle boxes (collision/particle_boxes.h): each run's box is the exact bounds of its
// particles whatever the run's length, a non-finite coordinate makes the infinite box, and the reach test never
// rejects a box that holds a particle within reach.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "collision/particle_boxes.h"

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
