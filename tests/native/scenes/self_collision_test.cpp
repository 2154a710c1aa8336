// Self-collision: two cloths dropped on each other stay apart, the spatial hash finds every close pair, and the
// rest-distance filter lets a fine cloth lie still.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "collision/particle_neighbours.h"
#include "collision/spatial_hash.h"
#include "pbd/world.h"
#include "native/random_particles.h"
#include "scenes/tet_cube.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

/// Smallest distance between a particle of [0, split) and one of [split, n).
Real closestAcross(const World& w, uint32_t split) {
  Real best = 1e30f;
  const Real* x = w.positions();
  for (uint32_t i = 0; i < split; ++i)
    for (uint32_t j = split; j < w.particleCount(); ++j) {
      const Real d = std::sqrt((x[3 * i] - x[3 * j]) * (x[3 * i] - x[3 * j]) + (x[3 * i + 1] - x[3 * j + 1]) * (x[3 * i + 1] - x[3 * j + 1]) +
                               (x[3 * i + 2] - x[3 * j + 2]) * (x[3 * i + 2] - x[3 * j + 2]));
      best = std::min(best, d);
    }
  return best;
}

/// Self-collision of `radius` on, no gravity, no ground, one substep of one pass per step.
SolverSettings oneSubstepWithoutGravity(Real radius) {
  SolverSettings s = scenes::freeSpace();
  s.selfCollision.enabled = true;
  s.selfCollision.radius = radius;
  s.substeps = 1;
  s.iterations = 1;
  return s;
}

Real dropTwoCloths(bool selfCollision, Real radius) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.iterations = 2;
  s.selfCollision.enabled = selfCollision;
  s.selfCollision.radius = radius;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 16;
  c.spacing = 0.05f;
  c.origin = Vec3(-0.4f, 0.3f, -0.4f);
  world.addCloth(c);
  c.origin = Vec3(-0.4f, 0.5f, -0.395f);  // a second cloth above, 5 mm off: flat on the ground they would nearly coincide
  world.addCloth(c);
  Real worst = 1e30f;
  uint32_t mostPairs = 0;
  for (int f = 0; f < 90; ++f) {
    world.step(1.0f / 60);
    mostPairs = std::max(mostPairs, world.selfCollisionPairCount());
    if (f > 10) worst = std::min(worst, closestAcross(world, 256));
  }
  EXPECT_EQ(mostPairs > 0, selfCollision);
  return worst;
}

}  // namespace

TEST(SpatialHash, FindsEveryPairWithinTheRadius) {
  std::mt19937 rng(5);
  const uint32_t n = 400;
  const auto [xyz, nearRest] = test::randomParticles(rng, n, 1, 0.2f);  // a "rest shape" near the positions
  const Real radius = 0.15f;
  SpatialHash hash;
  hash.reserve(n);
  // The rest shape near the positions, and the positions themselves (every near pair then starts close too, so only
  // the groups keep the pairs of different groups).
  for (const std::vector<Real>* restShape : {&nearRest, &xyz})
  for (const Real cellsPerRadius : {1.0f, 2.0f}) {  // the world's particle collision uses cells of 2 query radii
    const std::vector<Real>& rest = *restShape;
    hash.build(xyz.data(), n, cellsPerRadius * radius, rest.data());
    SpatialHash grouped;  // the same with three groups: the rest test applies within a group only
    grouped.reserve(n);
    std::vector<uint32_t> group(n);
    for (uint32_t i = 0; i < n; ++i) group[i] = i % 3;
    grouped.build(xyz.data(), n, cellsPerRadius * radius, rest.data(), group.data());
    size_t visits = 0, nearVisits = 0, restVisits = 0, groupVisits = 0;
    for (uint32_t i = 0; i < n; ++i) {
      std::set<uint32_t> found, foundNear, foundRest;
      std::vector<uint32_t> order, nearOrder, restOrder;
      const Real* pi = &xyz[3 * i];
      hash.query(pi, radius, [&](uint32_t j) { found.insert(j), order.push_back(j); });
      hash.queryNear(pi, radius, [&](uint32_t j) { foundNear.insert(j), nearOrder.push_back(j); });
      hash.queryNear(pi, radius, [&](uint32_t j) { foundRest.insert(j), restOrder.push_back(j); }, &rest[3 * i], radius);
      std::set<uint32_t> foundGroup;
      std::vector<uint32_t> groupOrder;
      grouped.queryNear(pi, radius, [&](uint32_t j) { foundGroup.insert(j), groupOrder.push_back(j); }, &rest[3 * i],
                        radius, group[i]);
      for (uint32_t j = 0; j < n; ++j) {
        if (!(squaredDistance(pi, &xyz[3 * j]) < radius * radius)) continue;
        ASSERT_TRUE(found.count(j)) << i << " misses " << j << " with cells of " << cellsPerRadius << " radii";
        ASSERT_TRUE(foundNear.count(j)) << "queryNear: " << i << " misses " << j;
        if (squaredDistance(&rest[3 * i], &rest[3 * j]) >= radius * radius) {
          ASSERT_TRUE(foundRest.count(j)) << "queryNear with the rest shape: " << i << " misses " << j;
        }
        if (squaredDistance(&rest[3 * i], &rest[3 * j]) >= radius * radius || group[i] != group[j]) {
          ASSERT_TRUE(foundGroup.count(j)) << "queryNear with the rest shape in groups: " << i << " misses " << j;
        }
      }
      // queryNear visits a subsequence of query's visits: the same order, so callers find the same pairs in order.
      for (const std::vector<uint32_t>* sub : {&nearOrder, &restOrder, &groupOrder}) {
        size_t k = 0;
        for (uint32_t j : order) k += k < sub->size() && (*sub)[k] == j;
        ASSERT_EQ(k, sub->size()) << "particle " << i;
      }
      ASSERT_EQ(order.size(), found.size()) << "particle " << i << ": a particle visited twice";
      visits += order.size(), nearVisits += nearOrder.size(), restVisits += restOrder.size();
      groupVisits += groupOrder.size();
    }
    EXPECT_LT(nearVisits, visits) << "cells of " << cellsPerRadius << " radii";  // blocks are skipped
    EXPECT_LT(restVisits, nearVisits) << "cells of " << cellsPerRadius << " radii";
    EXPECT_GE(groupVisits, restVisits) << "cells of " << cellsPerRadius << " radii";  // fewer blocks skipped
  }
}

// Found by tests/fuzz/world_api_fuzz (corpus crash-self-collision-huge-radius): the hash's cell index
// floor(x / 2r) was converted to int64_t unchecked, undefined behaviour for a far particle (|x| / 2r >= 2^63),
// for a radius whose diameter overflows to +inf (x / inf, then (x +- inf) / inf = NaN) and for the non-finite
// predicted positions that the step's guard later rolls back.
TEST(SpatialHash, FarAndNonFiniteCoordinatesDoNotOverflowTheCellIndex) {
  const Real inf = std::numeric_limits<Real>::infinity();
  const std::vector<Real> xyz = {1e30f, 0, 0, -1e30f, 0, 0, std::numeric_limits<Real>::quiet_NaN(), inf, -inf,
                                 0, 0, 0, 1e30f, 0, 0};
  SpatialHash hash;
  hash.reserve(5);
  hash.build(xyz.data(), 5, 0.02f);
  std::set<uint32_t> found;
  hash.query(&xyz[0], 0.02f, [&](uint32_t j) { found.insert(j); });
  EXPECT_TRUE(found.count(0) && found.count(4));  // the two particles at the same far point share a cell
  hash.build(xyz.data(), 5, inf);
  hash.query(&xyz[9], inf, [&](uint32_t) {});
}

// A query cube whose end rounds to infinity (a reach of 6e32 m from z = -FLT_MAX: -FLT_MAX - 6e32 is -inf) spanned
// 2^62 cells along z, and the world_api_fuzz step that made it never ended (a particle self-collision radius of 3e32
// m; tests/fuzz/corpus/world_api_fuzz/timeout-self-collision-reach-past-float-max). Such a cube covers more cells
// than the table has buckets: every particle comes once, and the query ends at once.
TEST(SpatialHash, ACubeOfMoreCellsThanBucketsVisitsEveryParticleOnce) {
  const Real farZ = -std::numeric_limits<Real>::max(), reach = 6.2e32f;
  std::vector<Real> xyz = {-0.125f, 0, farZ};
  for (int k = 0; k < 16; ++k) xyz.insert(xyz.end(), {-1 + 0.1f * Real(k % 4), 1, -1 + 0.1f * Real(k / 4)});
  const uint32_t n = uint32_t(xyz.size() / 3);
  SpatialHash hash;
  hash.reserve(n);
  hash.build(xyz.data(), n, 2 * reach);
  ASSERT_EQ(farZ - reach, -std::numeric_limits<Real>::infinity());  // the premise
  for (uint32_t i : {0u, 5u}) {
    std::vector<int> visits(n, 0), nearVisits(n, 0);
    hash.query(&xyz[3 * i], reach, [&](uint32_t j) { ++visits[j]; });
    hash.queryNear(&xyz[3 * i], reach, [&](uint32_t j) { ++nearVisits[j]; });
    for (uint32_t j = 0; j < n; ++j) {
      const bool within = squaredDistance(&xyz[3 * i], &xyz[3 * j]) < reach * reach;
      // From the far particle the cube spans every cell: all come, once; from the others, those within reach.
      if (i == 0 || within) {
        EXPECT_EQ(visits[j], 1) << "query from " << i << ", particle " << j;
      }
      EXPECT_LE(nearVisits[j], 1) << "queryNear from " << i << ", particle " << j;
      if (within) {
        EXPECT_EQ(nearVisits[j], 1) << "queryNear from " << i << ", particle " << j;
      }
    }
  }
}

TEST(SelfCollision, FarParticlesAndAHugeRadiusStepWithoutOverflow) {
  for (Real radius : {0.01f, std::numeric_limits<Real>::max()}) {
    World world;
    world.setSelfCollision({true, radius});
    ClothDef c;
    c.columns = 4;
    c.origin = Vec3(0, 1, 0);
    world.addCloth(c);
    world.addParticle(Vec3(1e30f, 1, 0), 1);
    world.addParticle(Vec3(1e30f, 1, 0.001f), 1);
    world.step(1.0f / 60);
    for (uint32_t k = 0; k < 3 * world.particleCount(); ++k) {
      ASSERT_TRUE(std::isfinite(world.positions()[k]) && std::isfinite(world.velocities()[k]));
    }
  }
}

TEST(SelfCollision, TwoDroppedClothsStayApart) {
  const Real radius = 0.012f;
  const Real with = dropTwoCloths(true, radius);
  const Real without = dropTwoCloths(false, radius);
  std::printf("closest particles of the two cloths: with self-collision %.4f m, without %.4f m (2r = %.3f)\n", with,
              without, 2 * radius);
  EXPECT_GT(with, 0.85f * 2 * radius);
  EXPECT_LT(without, 0.5f * 2 * radius);  // the test can fail: without it the cloths pass into each other
}

TEST(SelfCollision, AFineClothLiesStillDespiteARadiusLargerThanItsSpacing) {
  World world;
  SolverSettings s;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.04f;  // 2r = 8 cm > the 5 cm spacing: neighbours start closer than 2r
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 10;
  c.spacing = 0.05f;
  world.addCloth(c);
  const std::vector<Real> rest(world.positions(), world.positions() + 3 * world.particleCount());
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  for (size_t k = 0; k < rest.size(); ++k) EXPECT_NEAR(world.positions()[k], rest[k], 1e-4f);
  EXPECT_EQ(world.selfCollisionPairCount(), 0u);
}

namespace {

/// Particle 1 dropped from `gap` straight above particle 0 (pinned), both in one body (addParticles) or in two
/// (addParticle each), self-collision radius 5 cm, no ground: where particle 1 comes to rest above particle 0 after
/// 2 s, or below it if the pair never collided.
Real restingGap(Real gap, bool oneBody) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.05f;
  s.ground.enabled = false;
  world.setSettings(s);
  const Real xyz[6] = {0, 0, 0, 0, gap, 0};
  const Real inverseMasses[2] = {0, 1};
  if (oneBody) {
    world.addParticles(xyz, inverseMasses, 2);
  } else {
    world.addParticle(Vec3(0, 0, 0), 0);
    world.addParticle(Vec3(0, gap, 0), 1);
  }
  for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
  return world.positions()[4];
}

}  // namespace

TEST(SelfCollision, ParticlesOfOneBodyThatStartCloseCollideAtHalfTheirStartingDistance) {
  const Real diameter = 0.1f;
  // Apart at the start by far more than 2r: kept 2r apart, as particles of two bodies are.
  EXPECT_NEAR(restingGap(1.0f, true), diameter, 1e-4f);
  EXPECT_NEAR(restingGap(1.0f, false), diameter, 1e-4f);
  // 1.5 × 2r apart at the start: one body's pair holds at half that, two bodies' at 2r.
  EXPECT_NEAR(restingGap(0.15f, true), 0.075f, 1e-4f);
  EXPECT_NEAR(restingGap(0.15f, false), diameter, 1e-4f);
  // Closer than 2r at the start: the body's own constraints hold such a pair, the collision leaves it out.
  EXPECT_LT(restingGap(0.09f, true), 0.0f);
}

TEST(SelfCollision, ASoftBodyRestingUnderItsWeightStaysStill) {
  // A soft cube of 6³ cells (5 cm edges) on the ground with 2r = 4.98 cm: every edge starts just over 2r long, and
  // the cube's weight compresses its lower edges by more than that margin. Colliding there at 2r fought the
  // compression: the resting cube kept particles swinging at 0.12 m/s.
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.linearDamping = 0.1f;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.0249f;
  world.setSettings(s);
  const int cells[3] = {6, 6, 6};
  SoftBodyDef cube = scenes::tetBox(cells, Vec3(0.3f, 0.3f, 0.3f), Vec3(0, 0, 0));
  cube.density = 300;
  cube.edges = Strength{1e-3f, 0.6f};
  world.addSoftBody(cube);
  Real fastest = 0, lowest = 1;
  for (int f = 0; f < 300; ++f) {
    world.step(1.0f / 60);
    if (f < 240) continue;
    const Real* v = world.velocities();
    for (uint32_t i = 0; i < world.particleCount(); ++i) {
      fastest = std::max(fastest, std::sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]));
    }
  }
  for (uint32_t i = 0; i < world.particleCount(); ++i) lowest = std::min(lowest, world.positions()[3 * i + 1]);
  std::printf("fastest particle over the last second: %.5f m/s\n", fastest);
  EXPECT_LT(fastest, 0.005f);
  EXPECT_GT(lowest, -0.01f);  // on the ground, not through it
}

TEST(SelfCollision, TwoBodiesCollideWhereverEachOfThemStarted) {
  // Body 0 starts at the origin and is moved (pinned) 1 m down; body 1 then starts at the origin too and falls onto
  // it. Their starting positions coincide, but that says nothing about two different bodies: they must collide.
  for (const bool oneBody : {false, true}) {
    World world;
    SolverSettings s;
    s.selfCollision.enabled = true;
    s.selfCollision.radius = 0.05f;
    s.ground.enabled = false;
    world.setSettings(s);
    if (oneBody) {  // the contrast: two particles of one body that start together are neighbours, left alone
      const Real xyz[6] = {0, 0, 0, 0, 0, 0};
      const Real inverseMasses[2] = {0, 1};
      world.addParticles(xyz, inverseMasses, 2);
      world.setPosition(0, Vec3(0, -1, 0));
    } else {
      world.addParticle(Vec3(0, 0, 0), 0);
      world.setPosition(0, Vec3(0, -1, 0));
      world.addParticle(Vec3(0, 0, 0), 1);
    }
    for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
    const Real gap = world.positions()[4] - world.positions()[1];
    if (oneBody) EXPECT_LT(gap, 0.0f);
    else EXPECT_NEAR(gap, 0.1f, 1e-4f);
  }
}

TEST(SelfCollision, AParticleItsBodyPullsIntoAContactRestsThere) {
  // Particle 1 rests exactly 2r from pinned particle 2 (another body); a rigid edge to pinned particle 0 wants it
  // 1 mm further, inside that distance. Pairs are found on the predicted positions, before the solve: kept only when
  // they overlap there, this pair would be left out whenever the particle starts a substep at 2r, the edge would pull
  // it in unopposed, the next substep would push it out, and so on, a substep in, a substep out (6 cm/s at these
  // substeps of 1/60 s). Kept within a margin, the contact meets the edge in every substep and wins, as the last
  // projection: the particle stays at 2r.
  World world;
  world.setSettings(oneSubstepWithoutGravity(0.01f));
  const Real xyz[6] = {0, 0, 0, 0.02f, 0, 0};
  const Real inverseMasses[2] = {0, 1};
  world.addParticles(xyz, inverseMasses, 2);
  world.addDistanceConstraint({.i = 0, .j = 1, .minLength = 0.021f, .maxLength = -1, .strength = {}});
  world.addParticle(Vec3(0.04f, 0, 0), 0);
  Real fastest = 0;
  for (int f = 0; f < 60; ++f) {
    world.step(1.0f / 60);
    const Real* v = world.velocities() + 3;
    fastest = std::max(fastest, std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  EXPECT_LT(fastest, 1e-4f);
  EXPECT_NEAR(0.04f - world.positions()[3], 0.02f, 1e-6f);
}

TEST(SelfCollision, APushedApartPairLeavesWithoutSeparatingSpeed) {
  // Two particles of two bodies start 1.2 cm apart at rest, inside their 2 cm collision distance. One substep pushes
  // them to 2 cm, equal and opposite by their masses (1 and 3 kg: 6 mm and 2 mm). The push corrects an overlap; it
  // is no collision, so v = Δp/h (0.36 and 0.12 m/s apart) must not stay: restitution 0 along the normal leaves them
  // at rest, with the momentum (zero) kept.
  World world;
  world.setSettings(oneSubstepWithoutGravity(0.01f));
  world.addParticle(Vec3(0, 0, 0), 1);
  world.addParticle(Vec3(0.012f, 0, 0), 1.0f / 3);
  world.step(1.0f / 60);
  const Real* x = world.positions();
  const Real* v = world.velocities();
  EXPECT_NEAR(x[3] - x[0], 0.02f, 1e-6f);
  EXPECT_NEAR(x[0], -0.006f, 1e-6f);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(v[k], 0.0f, 1e-5f) << "velocity component " << k;
}
