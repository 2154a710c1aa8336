// World::removeDistanceConstraint (issue #4: "re-colouring is incremental when constraints are added or removed"):
// swap-with-last numbering, the greedy colouring kept valid without recolouring (checked against a brute-force
// colouring after random add/remove sequences), the removed constraint no longer acts, bit-identical results for
// any thread count and through a snapshot, and bad input refused with the world unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "native/expect_error.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "schedule/graph_colouring.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

using Pair = std::pair<uint32_t, uint32_t>;

/// A fixed pseudo-random sequence (64-bit LCG, top bits): the same on every platform.
struct Lcg {
  uint64_t s;
  uint32_t below(uint32_t n) { return s = s * 6364136223846793005ull + 1442695040888963407ull, uint32_t((s >> 33) % n); }
};

/// The brute-force greedy colour of a new constraint (i, j): the lowest colour no constraint at i or j has, or the
/// overflow group when all 32 are taken. Equal to what the world returns only if its particle masks are exact.
uint32_t bruteForceColour(const World& world, uint32_t i, uint32_t j, uint32_t skip) {
  uint64_t used = 0;
  for (uint32_t c = 0; c < world.distanceConstraintCount(); ++c) {
    const DistanceConstraintDef d = world.distanceConstraint(c);
    const uint32_t colour = world.distanceConstraintColour(c);
    if (c == skip || colour == GraphColouring::kOverflow) continue;
    if (d.i == i || d.j == i || d.i == j || d.j == j) used |= uint64_t(1) << colour;
  }
  for (uint32_t colour = 0; colour < GraphColouring::kColours; ++colour)
    if (!(used >> colour & 1)) return colour;
  return GraphColouring::kOverflow;
}

/// No two constraints of one parallel colour share a particle (every pair checked).
void expectProperColouring(const World& world) {
  const uint32_t n = world.distanceConstraintCount();
  for (uint32_t a = 0; a < n; ++a) {
    const uint32_t colour = world.distanceConstraintColour(a);
    ASSERT_LE(colour, GraphColouring::kOverflow);
    if (colour == GraphColouring::kOverflow) continue;
    const DistanceConstraintDef da = world.distanceConstraint(a);
    for (uint32_t b = a + 1; b < n; ++b) {
      if (world.distanceConstraintColour(b) != colour) continue;
      const DistanceConstraintDef db = world.distanceConstraint(b);
      ASSERT_FALSE(da.i == db.i || da.i == db.j || da.j == db.i || da.j == db.j)
          << "constraints " << a << " and " << b << " share a particle in colour " << colour;
    }
  }
}

DistanceConstraintDef spring(uint32_t i, uint32_t j, Real rest, Real compliance = 0) {
  DistanceConstraintDef d;
  d.i = i, d.j = j, d.minLength = d.maxLength = rest;
  d.strength = Strength{compliance, 1};
  return d;
}

/// Cuts a slit into a hanging n x n cloth: removes every constraint with a particle in column n/2, rows [n/4, 3n/4).
/// Walks the indices downwards, so a constraint swapped in from the end was already looked at.
int cutSlit(World& world, int n) {
  auto onSlit = [n](uint32_t p) { const int r = int(p) / n, c = int(p) % n; return c == n / 2 && r >= n / 4 && r < 3 * n / 4; };
  int removed = 0;
  for (uint32_t k = world.distanceConstraintCount(); k-- > 0;) {
    const DistanceConstraintDef d = world.distanceConstraint(k);
    if (onSlit(d.i) || onSlit(d.j)) world.removeDistanceConstraint(k), ++removed;
  }
  return removed;
}

}  // namespace

TEST(DistanceRemoval, ColouringStaysValidUnderRandomAddsAndRemoves) {
  // 40 particles; particle 0 is in half the constraints, so it runs out of its 32 colours and the overflow group is
  // used and emptied too. The model mirrors the swap-with-last numbering.
  World world;
  for (uint32_t k = 0; k < 40; ++k) world.addParticle(Vec3(Real(k), Real(k % 7), 0), 1);
  std::vector<Pair> model;
  Lcg rng{12345};
  int overflowAdds = 0, removals = 0;
  for (int op = 0; op < 3000; ++op) {
    if (model.size() > 20 && rng.below(100) < 45) {
      const uint32_t k = rng.below(uint32_t(model.size()));
      world.removeDistanceConstraint(k);
      model[k] = model.back();
      model.pop_back();
      ++removals;
    } else {
      const uint32_t i = rng.below(2) ? 0 : 1 + rng.below(39);
      uint32_t j = 1 + rng.below(39);
      if (j == i) j = j % 39 + 1;
      const uint32_t expected = bruteForceColour(world, i, j, ~0u);
      const uint32_t k = world.addDistanceConstraint(spring(i, j, 1));
      ASSERT_EQ(k, model.size());
      ASSERT_EQ(world.distanceConstraintColour(k), expected) << "op " << op << ": the masks drifted from the colours";
      overflowAdds += expected == GraphColouring::kOverflow;
      model.push_back({i, j});
    }
    ASSERT_EQ(world.distanceConstraintCount(), model.size());
    if (op % 50 == 0) {
      for (uint32_t k = 0; k < model.size(); ++k) {
        const DistanceConstraintDef d = world.distanceConstraint(k);
        ASSERT_EQ(Pair(d.i, d.j), model[k]) << "op " << op << " constraint " << k;
      }
      expectProperColouring(world);
    }
  }
  expectProperColouring(world);
  EXPECT_GT(overflowAdds, 0);  // the overflow path was exercised
  EXPECT_GT(removals, 500);
  world.step(1.0f / 60);  // the regrouped schedule steps (and stays finite)
  EXPECT_FALSE(world.lastStepReport().rolledBack);
}

TEST(DistanceRemoval, RemovedSpringNoLongerPulls) {
  // Two identical stretched springs (rest 1 m, 2 m apart, no gravity). Removing the first moves the second into
  // index 0. After a step the pair that lost its spring is exactly at rest, the other pair is pulled together.
  for (Solver solver : scenes::everySolver()) {
    for (bool remove : {false, true}) {
      World world;
      SolverSettings s;
      s.gravity = Vec3::Zero();
      s.solver = solver;
      s.hierarchyLevels = 1;  // four particles cannot make a coarse level
      world.setSettings(s);
      for (Real y : {Real(0), Real(5)}) {
        world.addParticle(Vec3(0, y, 0), 1);
        world.addParticle(Vec3(2, y, 0), 1);
      }
      world.addDistanceConstraint(spring(0, 1, 1, 1e-3f));
      world.addDistanceConstraint(spring(2, 3, 1, 1e-3f));
      if (remove) {
        world.removeDistanceConstraint(0);
        ASSERT_EQ(world.distanceConstraintCount(), 1u);
        EXPECT_EQ(world.distanceConstraint(0).i, 2u);
        EXPECT_EQ(world.distanceConstraint(0).j, 3u);
      }
      world.step(1.0f / 60);
      const Real* x = world.positions();
      const Real gap01 = x[3] - x[0], gap23 = x[9] - x[6];
      EXPECT_LT(gap23, Real(1.99)) << "solver " << int(solver);  // the remaining spring pulls
      if (remove) {
        EXPECT_EQ(gap01, Real(2)) << "solver " << int(solver);
        for (int k = 0; k < 6; ++k) EXPECT_EQ(world.velocities()[k], Real(0)) << "solver " << int(solver);
      } else {
        EXPECT_LT(gap01, Real(1.99)) << "solver " << int(solver);
      }
    }
  }
}

TEST(DistanceRemoval, StateHashIsIdenticalForAnyThreadCountAfterRemovals) {
  PBD_LONG_SCENE();
  // A 64² hanging cloth (more constraints than one task range) slit open after 5 frames, then 20 more frames.
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::Jacobi, Solver::Hierarchical}) {
    auto run = [solver](TaskSystem* tasks) {
      World world(tasks);
      scenes::hangingCloth(world, 64);
      world.setSolver(solver);
      for (int f = 0; f < 5; ++f) world.step(1.0f / 60);
      EXPECT_GT(cutSlit(world, 64), 100);
      for (int f = 0; f < 20; ++f) world.step(1.0f / 60);
      EXPECT_FALSE(world.lastStepReport().rolledBack);
      return scenes::stateHash(world);
    };
    const uint64_t serial = run(nullptr);
    EXPECT_EQ(run(nullptr), serial);
    for (unsigned workers : {1u, 3u}) {  // 2 and 4 threads with the caller
      ThreadPool pool(workers);
      EXPECT_EQ(run(&pool), serial) << "solver " << int(solver) << " workers " << workers;
    }
  }
}

TEST(DistanceRemoval, ACutOffHalfFallsFreely) {
  // Physics of a cut: removing every constraint that crosses the middle row line of a pinned cloth leaves its far
  // half unattached, so that half's centre of mass falls at g exactly (its internal constraints exert equal and
  // opposite impulses); uncut, the same half is held by the pins and falls much less.
  auto halfVelocity = [](bool cut) {
    const int n = 32;
    World world;
    scenes::hangingCloth(world, n);
    world.setSolver(Solver::ColouredGaussSeidel);
    auto far = [](uint32_t p) { return int(p) / n >= n / 2; };
    int removed = 0;
    for (uint32_t k = world.distanceConstraintCount(); cut && k-- > 0;) {
      const DistanceConstraintDef d = world.distanceConstraint(k);
      if (far(d.i) != far(d.j)) world.removeDistanceConstraint(k), ++removed;
    }
    if (cut) {
      EXPECT_GT(removed, 3 * n);
    }
    for (int f = 0; f < 20; ++f) world.step(1.0f / 60);
    double vy = 0;
    for (uint32_t i = 0; i < world.particleCount(); ++i) vy += far(i) ? world.velocities()[3 * i + 1] : 0;
    return vy / (n * n / 2);
  };
  const double freeFall = -9.81 * 20 / 60.0;
  const double cut = halfVelocity(true), whole = halfVelocity(false);
  EXPECT_NEAR(cut, freeFall, 1e-3 * std::abs(freeFall));
  EXPECT_GT(whole, 0.9 * freeFall);  // held by the pins: measured 19% slower than free fall
}

TEST(DistanceRemoval, SnapshotKeepsTheColoursAfterRemovals) {
  // After removals the live colours differ from a greedy replay; the snapshot saves them, so the loaded world
  // continues bit for bit.
  World original;
  scenes::hangingCloth(original, 24);
  original.setSolver(Solver::ColouredGaussSeidel);
  for (int f = 0; f < 3; ++f) original.step(1.0f / 60);
  cutSlit(original, 24);
  for (uint32_t k = 0; k < 200; ++k) original.removeDistanceConstraint(k * 7 % original.distanceConstraintCount());
  original.addDistanceConstraint(spring(0, 5, -1));  // an add after removals reuses a freed colour
  const std::vector<uint8_t> blob = original.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  ASSERT_EQ(loaded.distanceConstraintCount(), original.distanceConstraintCount());
  // The replayed greedy colouring would differ somewhere: the saved colours are what makes the continuation exact.
  World replayed;
  for (uint32_t i = 0; i < original.particleCount(); ++i) replayed.addParticle(Vec3(Real(i), 0, 0), 1);
  int differ = 0;
  for (uint32_t k = 0; k < original.distanceConstraintCount(); ++k) {
    EXPECT_EQ(loaded.distanceConstraintColour(k), original.distanceConstraintColour(k)) << k;
    const DistanceConstraintDef d = original.distanceConstraint(k);
    replayed.addDistanceConstraint(spring(d.i, d.j, 1));
    differ += replayed.distanceConstraintColour(k) != original.distanceConstraintColour(k);
  }
  EXPECT_GT(differ, 0);
  for (int f = 0; f < 10; ++f) original.step(1.0f / 60), loaded.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(original));
  EXPECT_FALSE(original.lastStepReport().rolledBack);
}

TEST(DistanceRemoval, SnapshotWithConflictingColoursIsRefused) {
  World world;
  for (int k = 0; k < 3; ++k) world.addParticle(Vec3(Real(k), 0, 0), 1);
  world.addDistanceConstraint(spring(0, 1, 1));  // colour 0
  world.addDistanceConstraint(spring(1, 2, 1));  // colour 1
  std::vector<uint8_t> blob = world.saveSnapshot();
  // Walk the sections (header: 20 bytes; each section: u32 tag, u64 length) to DCOL's body: u64 count, u32 colours.
  size_t at = 20, body = 0;
  while (at + 12 <= blob.size() - 8) {
    uint64_t length;
    std::memcpy(&length, &blob[at + 4], 8);
    if (std::memcmp(&blob[at], "DCOL", 4) == 0) body = at + 12;
    at += 12 + size_t(length);
  }
  ASSERT_NE(body, 0u);
  const uint32_t clash = 0;  // the second constraint in colour 0 as well: both touch particle 1
  std::memcpy(&blob[body + 8 + 4], &clash, 4);
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64 over everything before the trailer, as saveSnapshot wrote it
  for (size_t k = 0; k + 8 < blob.size(); ++k) h = (h ^ blob[k]) * 1099511628211ull;
  std::memcpy(&blob[blob.size() - 8], &h, 8);
  World target;
  target.addParticle(Vec3(1, 2, 3), 1);
  expectError<SnapshotError>([&] { target.loadSnapshot(blob.data(), blob.size()); },
                             {"loadSnapshot", "distanceColours[1]", "free colour"});
  EXPECT_EQ(target.particleCount(), 1u);  // unchanged
}

TEST(DistanceRemoval, BadIndexIsRefusedAndChangesNothing) {
  World world;
  scenes::hangingCloth(world, 8);
  const uint32_t count = world.distanceConstraintCount();
  const uint64_t before = scenes::stateHash(world);
  expectError([&] { world.removeDistanceConstraint(count); }, {"removeDistanceConstraint", "constraint"});
  expectError([&] { world.removeDistanceConstraint(~0u); }, {"removeDistanceConstraint", "constraint"});
  EXPECT_EQ(world.distanceConstraintCount(), count);
  for (uint32_t k = 0; k < count; ++k) EXPECT_LE(world.distanceConstraintColour(k), GraphColouring::kOverflow);
  World empty;
  expectError([&] { empty.removeDistanceConstraint(0); }, {"removeDistanceConstraint", "constraint"});
  world.step(1.0f / 60);
  World twin;
  scenes::hangingCloth(twin, 8);
  twin.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(world), scenes::stateHash(twin));  // the refused calls left no trace
  EXPECT_NE(scenes::stateHash(world), before);
}
