// The coloured solver's rigid batches (BatchMethod::RigidXpbd): within a colour the rigid constraints (compliance 0)
// come after the compliant ones and run without strengths or multipliers. That must change the schedule's layout
// only, never a result.
#include <gtest/gtest.h>

#include <memory>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "native/world_internals.h"

using namespace pbd;

namespace {

/// The Foundation cloth with compliant stretch and shear edges and rigid bend edges, so that colours hold both.
void mixedCloth(World& world, int n, Solver solver) {
  scenes::hangingCloth(world, n);
  SolverSettings s = world.settings();
  s.solver = solver;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = 1.0f / Real(n - 1);
  c.origin = Vec3(0.8f, 1.0f, 0);
  c.axisU = Vec3(1, 0, 0);
  c.axisV = Vec3(0, 0, 1);
  c.pinned = {0, uint32_t(n - 1)};
  c.stretch = Strength{1e-6f, 1};
  c.shear = Strength{1e-5f, 1};
  c.bend = Strength{0, 1};
  world.addCloth(c);
}

}  // namespace

TEST(RigidBatches, EachSegmentListsItsCompliantConstraintsFirstAndItsRigidBatchesAfter) {
  // Two 20² cloths: bands of 200 particles, under kMinBandParticles, so batches (a banded unit is rigid only when
  // all four of its lanes are).
  World world;
  mixedCloth(world, 20, Solver::ColouredGaussSeidel);
  world.step(1.0f / 60);
  const WorldImpl& impl = WorldInternals::of(world);
  const BlockSchedule& s = impl.solverData.schedule.blocks;
  ASSERT_FALSE(s.banded);
  int mixedSegments = 0;
  for (const BlockSchedule::Segment& seg : s.segments) {
    uint32_t compliant = 0, rigid = 0;
    for (uint32_t k = seg.begin; k < seg.end; ++k) {
      for (int lane = 0; lane < 4; ++lane) {
        if (s.batches[k].i[lane] >= impl.count()) continue;  // a padding lane
        const bool isRigid = s.strengths[k].compliance[lane] == 0;
        // Compliant lanes only before rigidBegin; rigid lanes only in the last compliant batch or after it.
        if (isRigid) EXPECT_GE(k + 1, seg.rigidBegin) << "batch " << k;
        else EXPECT_LT(k, seg.rigidBegin) << "batch " << k;
        (isRigid ? rigid : compliant) += 1;
      }
    }
    EXPECT_EQ(seg.rigidBegin, seg.begin + (compliant + 3) / 4);
    mixedSegments += compliant > 0 && rigid > 0;
  }
  EXPECT_GE(mixedSegments, 2);  // the premise: segments with both kinds, split at the boundary
}

TEST(RigidBatches, RigidXpbdMovesTheClothExactlyAsPbdAtFullStiffness) {
  // With α = 0 the XPBD step is PBD's with k' = 1, λ or no λ: the rigid batches (XPBD) and the PBD batches reading
  // k' = 1 must give the same bits, frame after frame, on one thread and on two.
  for (unsigned workers : {0u, 1u}) {
    std::unique_ptr<ThreadPool> pool = workers ? std::make_unique<ThreadPool>(workers) : nullptr;
    auto run = [&](Method method) {
      World world(pool.get());
      scenes::hangingCloth(world, 40);
      SolverSettings s = world.settings();
      s.method = method;
      s.solver = Solver::ColouredGaussSeidel;
      world.setSettings(s);
      for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
      return scenes::stateHash(world);
    };
    EXPECT_EQ(run(Method::Xpbd), run(Method::Pbd)) << workers + 1 << " threads";
  }
}

TEST(RigidBatches, AMixedClothGivesTheSameBitsOnAnyThreadCount) {
  // The pool splits a colour into ranges; a range may straddle the compliant/rigid boundary and run both kernels.
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::Hierarchical}) {
    auto run = [solver](TaskSystem* tasks) {
      World world(tasks);
      mixedCloth(world, 64, solver);
      for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
      return scenes::stateHash(world);
    };
    const uint64_t serial = run(nullptr);
    for (unsigned workers : {1u, 3u}) {
      ThreadPool pool(workers);
      EXPECT_EQ(run(&pool), serial) << int(solver) << " on " << workers + 1 << " threads";
    }
  }
}
