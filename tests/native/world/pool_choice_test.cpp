// PoolUse::Measured (World::setPoolUse; src/world/pool_choice.h): after a change of scene the world steps alternately
// on its pool and on the calling thread, keeps the faster by the median of each, measures again kFirstProbeAfter
// steps later, then less and less often up to every kProbeEvery steps, and after any change of scene; whichever it runs on, the state is the same bits as on the pool alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "native/expect_error.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/mixed_scene.h"
#include "scenes/scenes.h"
#include "world/pool_choice.h"

using namespace pbd;

namespace {

/// Feeds `choice` steps whose time is `poolMs` on the pool and `serialMs` on one thread; returns what it ran on.
std::vector<bool> runSteps(PoolChoice& choice, int steps, double poolMs, double serialMs, uint64_t scene = 7) {
  std::vector<bool> used;
  for (int s = 0; s < steps; ++s) {
    used.push_back(choice.usePool());
    choice.record(used.back() ? poolMs : serialMs, scene);
  }
  return used;
}

}  // namespace

TEST(PoolChoice, MeasuresBothAndKeepsTheFaster) {
  PoolChoice slowPool, fastPool;
  // The first step is the change of scene, then one warm-up step, then three steps on each side, alternating.
  const std::vector<bool> probe = {true, true, true, false, true, false, true, false};
  EXPECT_EQ(runSteps(slowPool, 8, 2.0, 1.5), probe);
  EXPECT_EQ(runSteps(fastPool, 8, 1.0, 1.5), probe);
  // Until the next measurement, kFirstProbeAfter steps later.
  const size_t until = PoolChoice::kFirstProbeAfter;
  EXPECT_EQ(runSteps(slowPool, until, 2.0, 1.5), std::vector<bool>(until, false));
  EXPECT_EQ(runSteps(fastPool, until, 1.0, 1.5), std::vector<bool>(until, true));
  EXPECT_EQ(runSteps(fastPool, 2, 1.0, 1.5), (std::vector<bool>{true, false}));   // and it measures
}

TEST(PoolChoice, TakesTheMedianSoThatOneSlowStepDoesNotDecide) {
  PoolChoice choice;
  runSteps(choice, 2, 1, 1);
  for (double ms : {1.0, 3.0, 50.0, 3.0, 1.0, 3.0}) choice.record(ms, 7);   // pool 1, 50, 1; one thread 3, 3, 3
  EXPECT_TRUE(choice.usePool());
}

TEST(PoolChoice, MeasuresAgainAfterAChangeOfSceneAndEveryProbePeriod) {
  PoolChoice choice;
  runSteps(choice, 8, 2.0, 1.5);
  EXPECT_FALSE(choice.usePool());
  // The scene changes and the pool is now the faster: measured again at once.
  runSteps(choice, 8, 1.0, 1.5, 8);
  EXPECT_TRUE(choice.usePool());
  // The pace changes without a change of scene: seen at the next measurement, within kProbeEvery steps and a probe.
  const std::vector<bool> used = runSteps(choice, PoolChoice::kProbeEvery + 10, 2.0, 1.5, 8);
  EXPECT_FALSE(used.back());
}

TEST(PoolChoice, AFirstMeasurementIsCheckedSoonThenLessOftenWhileItHolds) {
  // A busy moment of the machine makes the pool look slower at the first measurement: the next one, kFirstProbeAfter
  // steps later, sees the pool's true pace and takes it back.
  PoolChoice choice;
  runSteps(choice, 8, 2.0, 1.5);
  EXPECT_FALSE(choice.usePool());
  EXPECT_EQ(choice.probeAfter(), PoolChoice::kFirstProbeAfter);
  std::vector<bool> used = runSteps(choice, PoolChoice::kFirstProbeAfter + 2 * PoolChoice::kSamples, 1.0, 1.5);
  EXPECT_TRUE(choice.usePool());
  // While the choice holds, the period doubles up to kProbeEvery: probes (steps on one thread) grow rare.
  used = runSteps(choice, 20 * PoolChoice::kProbeEvery, 1.0, 1.5);
  EXPECT_EQ(choice.probeAfter(), PoolChoice::kProbeEvery);
  const long serialSteps = std::count(used.begin(), used.end(), false);
  EXPECT_LE(serialSteps, PoolChoice::kSamples * (20 + 5));   // about one probe per kProbeEvery steps
  EXPECT_GE(serialSteps, PoolChoice::kSamples * 19);
}

// The same bits as on the pool alone, whichever the world ran each step on (the mixed scene: every constraint kind,
// > 8192 particles, so the loops and colours split across the threads).
TEST(PoolChoice, AMeasuredWorldComputesTheSameBitsAsOnThePool) {
  ThreadPool pool(1);   // one worker and the calling thread
  auto run = [&](PoolUse use, std::vector<bool>* used) {
    World world(&pool);
    world.setPoolUse(use);
    const scenes::MixedScene scene = scenes::mixedScene(world, 91);
    for (int f = 0; f < 12; ++f) {
      scenes::driveMixedScene(world, scene, f);
      world.step(1.0f / 60);
      if (used) used->push_back(world.lastStepUsedPool());
    }
    return scenes::stateHash(world);
  };
  std::vector<bool> used;
  EXPECT_EQ(run(PoolUse::Measured, &used), run(PoolUse::Always, nullptr));
  EXPECT_FALSE(used[3]);   // the probe ran steps on one thread
  EXPECT_TRUE(used[4]);    // and on the pool
}

TEST(PoolChoice, PoolUseOutlivesLoadSnapshotAndRemoveBody) {
  ThreadPool pool(1);
  World world(&pool);
  world.setPoolUse(PoolUse::Measured);
  ClothDef c;
  c.columns = c.rows = 4;
  world.addCloth(c);
  world.addCloth(c);
  const std::vector<uint8_t> blob = world.saveSnapshot();
  world.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(world.poolUse(), PoolUse::Measured);
  world.removeBody(1);
  EXPECT_EQ(world.poolUse(), PoolUse::Measured);
  world.step(1.0f / 60);
  EXPECT_TRUE(world.lastStepUsedPool());   // still on the pool it was given
}

TEST(PoolChoice, BadPoolUseIsRefused) {
  World world;
  expectError([&] { world.setPoolUse(PoolUse(5)); }, {"setPoolUse", "use"});
  EXPECT_EQ(world.poolUse(), PoolUse::Always);
  world.setPoolUse(PoolUse::Measured);
  EXPECT_EQ(world.poolUse(), PoolUse::Measured);
  world.step(1.0f / 60);
  EXPECT_FALSE(world.lastStepUsedPool());   // a serial world has no pool to use
}
