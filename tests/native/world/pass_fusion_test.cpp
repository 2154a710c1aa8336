// The step's fused passes over the particles (world/pass_fusion.cpp) change no bit: every scene below gives the same
// state hash with every fusion on and with all of them off (World::Impl::fusePasses), serially and on a pool of two
// workers. The scenes between them take every fused path and every reason not to: a pinned cloth in free space
// (unbanded at one and three iterations, banded at one), the same over a raised ground it falls onto, the mixed scene and
// the every-kind scene (all constraint kinds, colliders, attachments, self-collision), a free soft cube (the momentum
// guard's islands), and a cloth folding onto itself (continuous self-collision).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/every_kind.h"
#include "scenes/falling_fold.h"
#include "scenes/mixed_scene.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"
#include "native/long_scene.h"
#include "native/world_internals.h"

using namespace pbd;

namespace {

struct Scene {
  std::string name;
  int frames;
  std::function<std::function<void(int)>(World&)> build;  // fills the world; returns the per-frame drive
};

std::function<void(int)> still(World&) { return [](int) {}; }

std::vector<Scene> scenesToCompare() {
  std::vector<Scene> out;
  for (int n : {32, 64}) {
    for (int iterations : {1, 3}) {
      if (n == 64 && iterations == 3) continue;  // the banded layout once is enough (the suite runs under sanitizers)
      const std::string suffix = std::to_string(n) + "² × " + std::to_string(iterations);
      out.push_back({"hanging cloth " + suffix, 40, [=](World& w) {
                       scenes::hangingCloth(w, n);
                       SolverSettings s = w.settings();
                       s.iterations = iterations;
                       s.ground.enabled = false;
                       w.setSettings(s);
                       return still(w);
                     }});
      out.push_back({"cloth onto a raised ground " + suffix, 60, [=](World& w) {
                       scenes::hangingCloth(w, n);
                       SolverSettings s = w.settings();
                       s.iterations = iterations;
                       s.ground.height = 0.4f;
                       w.setSettings(s);
                       return still(w);
                     }});
    }
  }
  out.push_back({"mixed scene", 40, [](World& w) {
                   const auto scene = std::make_shared<scenes::MixedScene>(scenes::mixedScene(w, 16));
                   return std::function<void(int)>([&w, scene](int f) { scenes::driveMixedScene(w, *scene, f); });
                 }});
  out.push_back({"every kind", 40, [](World& w) {
                   const scenes::EveryKind kinds = scenes::buildEveryKind(w);
                   return std::function<void(int)>([&w, kinds](int f) { scenes::driveEveryKind(w, kinds, f); });
                 }});
  out.push_back({"free soft cube", 30, [](World& w) {
                   SolverSettings s = w.settings();
                   s.gravity = Vec3::Zero();
                   s.ground.enabled = false;
                   w.setSettings(s);
                   const BodyRange cube = w.addSoftBody(scenes::tetCube(3, 0.3f, Vec3(0, 1, 0)));
                   for (uint32_t i = cube.firstParticle; i < cube.firstParticle + cube.particleCount; ++i) {
                     const Real* x = w.positions() + 3 * size_t(i);
                     w.setVelocity(i, Vec3(1 - 2 * (x[1] - 1.15f), 0, 2 * x[0]));  // drifting and spinning
                   }
                   return still(w);
                 }});
  out.push_back({"falling fold", 60, [](World& w) {
                   scenes::fallingFold(w, 16);
                   return still(w);
                 }});
  return out;
}

uint64_t run(const Scene& scene, bool fused, TaskSystem* tasks) {
  World world(tasks);
  const std::function<void(int)> drive = scene.build(world);
  WorldInternals::of(world).fusePasses = fused;
  for (int f = 0; f < scene.frames; ++f) {
    drive(f);
    world.step(1.0f / 60);
  }
  return scenes::stateHash(world);
}

}  // namespace

TEST(PassFusion, TheFusedAndTheUnfusedStepGiveTheSameBitsOnEveryScene) {
  PBD_LONG_SCENE();  // 12 s under the sanitizers
  ThreadPool pool(1);  // a pool of two: the calling thread and one worker
  for (const Scene& scene : scenesToCompare()) {
    for (TaskSystem* tasks : {static_cast<TaskSystem*>(nullptr), static_cast<TaskSystem*>(&pool)}) {
      EXPECT_EQ(run(scene, true, tasks), run(scene, false, tasks)) << scene.name << (tasks ? ", 2 threads" : "");
    }
  }
}

TEST(PassFusion, TheFusionsAreTakenWhereTheyMayBe) {
  // The premise of the test above: in free space, a pinned cloth's substeps take every fused path; switched off,
  // none; on a cloth lying on the ground (contacts), the commit and the blocks' padding are not fused.
  World world;
  scenes::hangingCloth(world, 32);
  SolverSettings s = world.settings();
  s.ground.enabled = false;
  world.setSettings(s);
  world.step(1.0f / 60);
  WorldImpl& impl = WorldInternals::of(world);
  // A substep with a next one, under implicit Euler, not recording residuals.
  auto plan = [&] { return impl.planSubstep(false, WorldImpl::kNoResiduals, true); };
  EXPECT_TRUE(plan().particlePassInSolve);
  EXPECT_TRUE(plan().copyOutBounds);
  EXPECT_TRUE(impl.blocksAloneMoveParticles(plan()));
  EXPECT_TRUE(impl.commitJoinsNextPass(plan()));
  EXPECT_FALSE(impl.commitJoinsNextPass(impl.planSubstep(false, WorldImpl::kNoResiduals, false)));  // the last
                                                                                                   // commits itself
  EXPECT_FALSE(impl.blocksAloneMoveParticles(impl.planSubstep(false, 0, true)));  // the record reads p every pass
  impl.fusePasses = false;
  EXPECT_FALSE(plan().particlePassInSolve);
  EXPECT_FALSE(impl.blocksAloneMoveParticles(plan()));
  EXPECT_FALSE(impl.commitJoinsNextPass(plan()));
  EXPECT_FALSE(plan().copyOutBounds);
  impl.fusePasses = true;
  s.ground.enabled = true;
  s.ground.height = 1;  // the cloth's plane: it lies on the ground
  world.setSettings(s);
  for (int f = 0; f < 60 && impl.collision.contacts.empty(); ++f)
    world.step(1.0f / 60);  // it bounces off, then lies there
  ASSERT_FALSE(impl.collision.contacts.empty());
  EXPECT_TRUE(plan().blocksAlone);  // the stages allow it; the contacts found veto it
  EXPECT_FALSE(impl.blocksAloneMoveParticles(plan()));
  EXPECT_FALSE(impl.commitJoinsNextPass(plan()));
  EXPECT_FALSE(plan().particlePassInSolve);  // the last substep had contacts
}
