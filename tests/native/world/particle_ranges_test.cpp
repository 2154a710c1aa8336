// The ranges the per-particle passes run over (World::Impl::forEachParticleRange, world/world_state.h): every particle
// exactly once, each range starting on a run of kBoxParticles (the passes bound whole runs), on any thread count; on a
// banded cloth, slices of the band layout (math/band_layout.h) cut as the distance pass cuts its pad and unpad
// copies, so that a thread's particles are the ones its blocks project.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"
#include "native/world_internals.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

using Range = std::pair<size_t, size_t>;

/// The ranges forEachParticleRange hands its body, after each particle was checked to come up exactly once.
std::vector<Range> rangesOf(World& world, const std::string& what) {
  WorldImpl& impl = WorldInternals::of(world);
  const size_t n = impl.count();
  std::vector<std::atomic<int>> visits(n);
  std::vector<Range> ranges;
  std::mutex rangesMutex;
  impl.forEachParticleRange([&](size_t begin, size_t end) {
    for (size_t i = begin; i < end && i < n; ++i) visits[i].fetch_add(1);
    std::lock_guard<std::mutex> lock(rangesMutex);
    ranges.push_back({begin, end});
  });
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(visits[i].load(), 1) << what << ": particle " << i;
    if (visits[i].load() != 1) break;
  }
  for (const Range& r : ranges) {
    EXPECT_LT(r.first, r.second) << what;
    EXPECT_LE(r.second, n) << what;
    EXPECT_EQ(r.first % kBoxParticles, 0u) << what << ": a range from " << r.first;
  }
  return ranges;
}

void stepOnce(World& world, Solver solver) {
  SolverSettings s = world.settings();
  s.solver = solver;
  world.setSettings(s);
  world.step(1.0f / 60);  // the schedule is built at the start of a step
}

}  // namespace

TEST(ParticleRanges, EveryParticleOnceFromTheStartOfARunOnAnyThreadCount) {
  PBD_LONG_SCENE();
  for (unsigned workers : {0u, 1u, 2u, 3u}) {
    std::unique_ptr<ThreadPool> pool = workers ? std::make_unique<ThreadPool>(workers) : nullptr;
    const std::string threads = " on " + std::to_string(workers + 1) + " threads";
    for (int n : {128, 100, 48, 160}) {  // banded with m = 4096 and 6400; m = 2500 and 576: consecutive particles
      for (Solver solver : {Solver::ColouredGaussSeidel, Solver::Hierarchical, Solver::Jacobi}) {
        World world(pool.get());
        scenes::hangingCloth(world, n);
        stepOnce(world, solver);
        rangesOf(world, std::to_string(n) + "² cloth, solver " + std::to_string(int(solver)) + threads);
      }
    }
    World cube(pool.get());
    cube.addSoftBody(scenes::tetCube(16, 1.0f, Vec3(0, 1, 0)));
    stepOnce(cube, Solver::ColouredGaussSeidel);
    rangesOf(cube, "tet cube" + threads);
  }
}

TEST(ParticleRanges, ABandedClothsRangesAreSlicesOfTheBandLayout) {
  // 128² on 2 threads: four bands of m = 4,096 particles, and the distance pass copies the layout's 4,096 blocks in
  // and out in four ranges of kBandBlocksPerTask. So the particle passes run four tasks, slice s of each band
  // together: 16 ranges of kBandBlocksPerTask particles, each slice once in each band. (Ranges of consecutive
  // particles would be four of 4,096, one band each: thread 0 would take bands 0 and 1, whose second halves thread
  // 1's blocks project.) HPBD's level 0 is the same coloured pass: the same slices. Under Jacobi, with no band
  // layout, ranges of consecutive particles.
  ThreadPool pool(1);
  World world(&pool);
  scenes::hangingCloth(world, 128);
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::Hierarchical}) {
    const std::string what = "banded 128², solver " + std::to_string(int(solver));
    stepOnce(world, solver);
    const WorldImpl& impl = WorldInternals::of(world);
    ASSERT_TRUE(impl.solverData.schedule.blocks.banded) << what;
    const size_t m = impl.solverData.schedule.blocks.bandParticles;
    ASSERT_EQ(m, 4096u) << what;
    std::vector<int> slicesPerBlockRange(m / kBandBlocksPerTask, 0);
    const std::vector<Range> banded = rangesOf(world, what);
    EXPECT_EQ(banded.size(), 16u) << what;
    for (const Range& r : banded) {
      const size_t band = r.first / m, first = r.first % m;
      EXPECT_EQ(r.second - r.first, kBandBlocksPerTask) << what << ": " << r.first;
      EXPECT_EQ((r.second - 1) / m, band) << what << ": a range across a band's edge: " << r.first << " to "
                                          << r.second;
      EXPECT_EQ(first % kBandBlocksPerTask, 0u) << what << ": " << r.first;
      ++slicesPerBlockRange[first / kBandBlocksPerTask];
    }
    for (int bands : slicesPerBlockRange) EXPECT_EQ(bands, 4) << what;  // each slice once in each band
  }
  stepOnce(world, Solver::Jacobi);
  size_t next = 0;
  std::vector<Range> jacobi = rangesOf(world, "128² under Jacobi");
  std::sort(jacobi.begin(), jacobi.end());
  for (const Range& r : jacobi) {
    EXPECT_EQ(r.first, next);
    next = r.second;
  }
  EXPECT_EQ(next, 128u * 128u);
  EXPECT_LT(jacobi.size(), 8u);  // whole tasks of consecutive particles, not four bands' slices
}
