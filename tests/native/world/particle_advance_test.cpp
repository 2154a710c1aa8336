// The substep's fused particle pass (world/particle_advance.h): for every set of stages the step asks for, with and
// without the commit and the boxes, the bits of the stages run one after the other over the range (math/wide_float.h,
// world/velocity_clamp.h, collision/particle_boxes.h), whatever the count, a later first run, or a non-finite value;
// and each stage did its work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "collision/particle_boxes.h"
#include "math/wide_float.h"
#include "native/random_particles.h"
#include "native/stage_oracles.h"
#include "world/particle_advance.h"
#include "world/velocity_clamp.h"

using namespace pbd;

namespace {

struct Particles {
  std::vector<Real> x, v, p, inertial;
  AdvancedParticles arrays(const std::vector<Real>& w, const std::vector<Real>& f) {
    return {x.data(), v.data(), p.data(), inertial.data(), w.data(), f.data()};
  }
};

/// The stages one after the other over particles [begin, end), each its own pass: what the fused pass must equal.
void stagesInTurn(Particles& q, const std::vector<Real>& w, const std::vector<Real>& f, const AdvanceStages& s,
                  size_t begin, size_t end, ParticleBox* boxes) {
  if (s.commit) commitRange(q.x.data(), q.v.data(), q.p.data(), q.inertial.data(), 1 / s.h, 3 * begin, 3 * end);
  if (s.damp) {
    for (size_t k = 3 * begin; k < 3 * end; ++k) q.v[k] *= s.keep;
  }
  if (s.accelerate) test::addAccelerationRange(q.v.data(), w.data(), f.data(), s.g, s.h, begin, end);
  if (s.clamp) clampSpeedRange(q.v.data(), s.maxSpeed, begin, end);
  if (!s.predict) return;
  axpyRange(q.inertial.data(), q.x.data(), s.h, q.v.data(), 3 * begin, 3 * end);
  std::copy(q.inertial.begin() + 3 * begin, q.inertial.begin() + 3 * end, q.p.begin() + 3 * begin);
  if (boxes) boundParticles(q.p.data(), begin, end, boxes);
}

std::vector<Real> randomXyz(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  return test::randomParticles(rng, uint32_t(n), 3, 0).xyz;  // uniform in [-3, 3]³
}

Real speed(const std::vector<Real>& v, size_t i) {
  return std::sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
}

}  // namespace

TEST(ParticleAdvance, EveryStageSetGivesTheBitsOfItsStagesInTurn) {
  constexpr size_t K = kBoxParticles;
  // The sets the step runs (world/step.cpp integrateAndPredict, settle): the common form, with damping, a clamp or
  // both; the halves around Müller's damping; BDF2's; the settle's prediction alone; a commit alone. Each has its
  // own loop or the one that tests the stages (particle_advance.cpp).
  struct Set {
    const char* name;
    bool accelerate, damp, clamp, predict;
  };
  const Set sets[] = {{"forces, prediction", true, false, false, true},
                      {"forces, damping, prediction", true, true, false, true},
                      {"forces, clamp, prediction", true, false, true, true},
                      {"all", true, true, true, true},
                      {"damping (before Müller's)", false, true, false, false},
                      {"forces, clamp, prediction (after Müller's)", true, false, true, true},
                      {"damping, clamp (BDF2)", false, true, true, false},
                      {"prediction", false, false, false, true},
                      {"none", false, false, false, false}};
  for (const Set& set : sets) {
    for (size_t n : {size_t(1), size_t(3), size_t(9), K, 2 * K + 7}) {
      for (size_t begin : {size_t(0), size_t(K)}) {
        for (int variant = 0; variant < 8; ++variant) {
          const bool bound = (variant & 1) && set.predict, commit = variant & 2, nonFinite = variant & 4;
          if (begin >= n) continue;
          AdvanceStages s{.commit = commit, .accelerate = set.accelerate, .damp = set.damp, .clamp = set.clamp,
                          .predict = set.predict};
          s.g[0] = Real(0.5), s.g[1] = Real(-9.81), s.g[2] = Real(0.25);
          s.h = Real(1) / 600, s.keep = Real(0.75), s.maxSpeed = Real(2.5);
          const std::string at = std::string(set.name) + ", n " + std::to_string(n) + " from " +
                                 std::to_string(begin) + " variant " + std::to_string(variant);
          Particles start{randomXyz(n, 1), randomXyz(n, 2), randomXyz(n, 3), randomXyz(n, 4)};
          // The last particle, in a run's tail or in a four.
          if (nonFinite) start.v[3 * (n - 1) + 2] = std::numeric_limits<Real>::infinity();
          const std::vector<Real> f = randomXyz(n, 5);
          std::vector<Real> w(n);
          for (size_t i = 0; i < n; ++i) w[i] = i % 5 == 2 ? 0 : Real(1) + Real(i % 3);

          Particles fused = start, staged = start;
          std::vector<ParticleBox> boxes((n + K - 1) / K), stagedBoxes(boxes.size());
          advanceParticleRange(fused.arrays(w, f), s, begin, n, bound ? boxes.data() : nullptr);
          stagesInTurn(staged, w, f, s, begin, n, stagedBoxes.data());
          const size_t bytes = 3 * n * sizeof(Real);
          EXPECT_EQ(0, std::memcmp(fused.x.data(), staged.x.data(), bytes)) << at;
          EXPECT_EQ(0, std::memcmp(fused.v.data(), staged.v.data(), bytes)) << at;
          EXPECT_EQ(0, std::memcmp(fused.p.data(), staged.p.data(), bytes)) << at;
          EXPECT_EQ(0, std::memcmp(fused.inertial.data(), staged.inertial.data(), bytes)) << at;
          if (bound) {
            EXPECT_EQ(0, std::memcmp(boxes.data() + begin / K, stagedBoxes.data() + begin / K,
                                     (boxes.size() - begin / K) * sizeof(ParticleBox)))
                << at;
            if (nonFinite) {
              EXPECT_EQ(boxes.back().hi[0], std::numeric_limits<Real>::infinity()) << at;
            }
          }

          // Each stage did its work (the reference could skip one as well): particle `free` (w != 0) and `pinned`.
          const size_t pinned = begin + (7 - begin % 5) % 5, free = begin;  // i % 5 == 2 is pinned
          if (pinned >= n) continue;
          Particles committed = start;
          if (commit) stagesInTurn(committed, w, f, {.commit = true, .h = s.h}, begin, n, nullptr);
          EXPECT_EQ(fused.x[3 * free], committed.x[3 * free]) << at;  // x is the old p after a commit
          EXPECT_EQ(fused.x[3 * free], commit ? start.p[3 * free] : start.x[3 * free]) << at;
          const Real before = committed.v[3 * pinned + 1], after = fused.v[3 * pinned + 1];
          if (!set.damp && !set.clamp) {
            EXPECT_EQ(after, before) << at;  // no force on a pinned particle
          }
          if (set.damp && !set.clamp) {
            EXPECT_EQ(after, before * s.keep) << at;
          }
          if (set.accelerate && !set.clamp) {
            // In y, |g + w f| >= 9.81 - 3 * 3, far above rounding. The damping (keep 3/4) acts on the velocity
            // carried over, not on this substep's impulse: damped, the impulse would be a quarter short.
            const Real impulse = s.h * (s.g[1] + w[free] * f[3 * free + 1]);
            EXPECT_NEAR(fused.v[3 * free + 1] - committed.v[3 * free + 1] * (set.damp ? s.keep : 1), impulse,
                        Real(0.01) * std::abs(impulse))
                << at;
          }
          if (set.clamp) {
            for (size_t i = begin; i < n - nonFinite; ++i) {
              EXPECT_LE(speed(fused.v, i), s.maxSpeed * 1.00001f) << at;
            }
          }
          if (set.predict) {
            EXPECT_EQ(fused.p[3 * free], fused.x[3 * free] + s.h * fused.v[3 * free]) << at;
          } else {
            EXPECT_EQ(0, std::memcmp(fused.p.data(), start.p.data(), bytes)) << at;
          }
        }
      }
    }
  }
}

TEST(ParticleAdvance, TheClampedSetReachesTheLimitWhereTheSpeedWasAboveIt) {
  // The clamp test above could pass on velocities already below the limit: here about half of them are above it.
  const size_t n = 203;
  std::vector<Real> x = randomXyz(n, 1), v = randomXyz(n, 2), p = x, inertial = x, w(n, 1), f(3 * n, 0);
  const std::vector<Real> v0 = v;
  AdvanceStages s{.clamp = true, .predict = true};
  s.h = Real(0.01), s.maxSpeed = Real(3);
  advanceParticleRange({x.data(), v.data(), p.data(), inertial.data(), w.data(), f.data()}, s, 0, n, nullptr);
  size_t clamped = 0;
  for (size_t i = 0; i < n; ++i) {
    if (speed(v0, i) > s.maxSpeed) {
      ++clamped;
      EXPECT_NEAR(speed(v, i), s.maxSpeed, 1e-5) << i;
      EXPECT_NEAR(v[3 * i] * speed(v0, i), v0[3 * i] * s.maxSpeed, 1e-4) << i;  // direction kept
    } else {
      EXPECT_EQ(v[3 * i], v0[3 * i]) << i;
    }
  }
  EXPECT_GT(clamped, n / 4);
}
