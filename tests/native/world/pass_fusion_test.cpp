// The step's fused passes over the particles (world/pass_fusion.cpp) change no bit: every scene below gives the same
// state hash with every fusion on and with all of them off (World::Impl::fusePasses), serially and on a pool of two
// workers. The scenes between them take every fused path and every reason not to: a pinned cloth in free space
// (unbanded at one and three iterations, banded at one), the same over a raised ground it falls onto (also with the
// distances swept symmetrically: their pass back starts from the padded positions), the mixed scene and the
// every-kind scene (all constraint kinds, colliders, attachments, self-collision), a free soft cube (the momentum
// guard's islands), a cloth folding onto itself (continuous self-collision), and native twins of the demo gallery's
// scenes (addGalleryTwins).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/every_kind.h"
#include "scenes/falling_fold.h"
#include "scenes/icosphere.h"
#include "scenes/mixed_scene.h"
#include "scenes/numbered_cloth.h"
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

/// The demo gallery's scenes (web/demo/scenes/) in small native twins, each with the bodies, constraint kinds,
/// colliders, solver and drive that make its steps take or refuse fusions: ropes over a bar, a stack of soft cubes
/// with self-collision, pressure balloons on a post, a bending curtain in a wind that follows the state, a cloth
/// draped on a ball with self-collision, the solver comparison's five solvers, and the playground's trampoline.
void addGalleryTwins(std::vector<Scene>& out) {
  out.push_back({"gallery ropes", 40, [](World& w) {
                   ColliderDef bar;
                   bar.shape = ColliderShape::Capsule;
                   bar.position = Vec3(0.2f, 1.2f, 0);
                   bar.rotation = Quat(Eigen::AngleAxisf(Real(M_PI / 2), Vec3::UnitX()));
                   bar.radius = 0.03f;
                   w.addCollider(bar);
                   for (int k = 0; k < 3; ++k) {
                     RopeDef r;
                     r.segments = 24;
                     r.start = Vec3(-0.6f, 1.6f, -0.2f + 0.2f * Real(k));
                     r.end = Vec3(1.0f, 1.6f, -0.2f + 0.2f * Real(k));
                     r.mass = 0.2f;
                     r.pinned = {0};
                     r.bend = Strength{k == 0 ? 1.0f : 1e-4f, k == 0 ? 0.0f : 0.5f};
                     w.addRope(r);
                   }
                   return still(w);
                 }});
  out.push_back({"gallery stack", 40, [](World& w) {
                   SolverSettings s = w.settings();
                   s.selfCollision.enabled = true;
                   s.selfCollision.radius = 0.012f;
                   w.setSettings(s);
                   for (int k = 0; k < 3; ++k) {
                     SoftBodyDef cube = scenes::tetCube(2, 0.2f, Vec3(0.03f * Real(k), 0.05f + 0.25f * Real(k), 0));
                     cube.edges = Strength{1e-5f, 0.6f};
                     w.addSoftBody(cube);
                   }
                   return still(w);
                 }});
  out.push_back({"gallery balloons", 50, [](World& w) {
                   ColliderDef post;
                   post.shape = ColliderShape::Box;
                   post.position = Vec3(0, 0.3f, 0);
                   post.halfExtents = Vec3(0.05f, 0.3f, 0.05f);
                   w.addCollider(post);
                   const scenes::IcosphereMesh sphere = scenes::icosphere(2, 0.2);
                   const Real pressures[] = {1.0f, 1.4f, 1.0f};
                   for (int k = 0; k < 3; ++k) {
                     TriangleMeshDef b;
                     for (size_t i = 0; i < sphere.positions.size(); ++i) {
                       b.positions.push_back(sphere.positions[i] + (i % 3 == 0 ? -0.4f + 0.4f * Real(k) : 0) +
                                             (i % 3 == 1 ? 0.9f : 0));
                     }
                     b.triangles = sphere.triangles;
                     b.mass = 0.2f;
                     b.pressure = pressures[k];
                     b.volumeOnlyResistsCompression = k == 2;
                     w.addTriangleMesh(b);
                   }
                   return still(w);
                 }});
  out.push_back({"gallery curtain in the wind", 40, [](World& w) {
                   ClothDef c = scenes::dihedralCloth(16, 0.05f, Vec3(-0.4f, 1.5f, 0));
                   c.axisU = Vec3(1, 0, 0);
                   c.axisV = Vec3(0, -1, 0);
                   for (uint32_t i = 0; i < 16; ++i) c.pinned.push_back(i);
                   const BodyRange curtain = w.addCloth(c);
                   // Wind along +z on the air's speed relative to each particle: a force that follows the state.
                   return std::function<void(int)>([&w, curtain](int f) {
                     const Real gust = 2 + std::sin(Real(f) * 0.2f);
                     for (uint32_t i = curtain.firstParticle; i < curtain.firstParticle + curtain.particleCount; ++i) {
                       const Real u = gust - w.velocities()[3 * size_t(i) + 2];
                       w.setExternalForce(i, Vec3(0, 0, 0.002f * u * std::abs(u)));
                     }
                   });
                 }});
  out.push_back({"gallery drape", 40, [](World& w) {
                   SolverSettings s = w.settings();
                   s.selfCollision.enabled = true;
                   s.selfCollision.radius = 0.006f;
                   w.setSettings(s);
                   ColliderDef ball;
                   ball.position = Vec3(0, 0.4f, 0);
                   ball.radius = 0.25f;
                   w.addCollider(ball);
                   ClothDef c = scenes::dihedralCloth(24, 0.03f, Vec3(-0.35f, 0.8f, -0.35f));
                   w.addCloth(c);
                   return still(w);
                 }});
  for (const Solver solver : scenes::everySolver()) {
    out.push_back({"gallery solvers, solver " + std::to_string(int(solver)), 20, [solver](World& w) {
                     scenes::hangingCloth(w, 24);
                     SolverSettings s = w.settings();
                     s.solver = solver;
                     w.setSettings(s);
                     return still(w);
                   }});
  }
  out.push_back({"gallery playground", 40, [](World& w) {
                   ClothDef trampoline = scenes::pinnedSquareCloth(16, Vec3(-0.5f, 0.8f, -0.5f), Vec3(0, 0, 1));
                   trampoline.pinned = {0, 15, 240, 255};
                   w.addCloth(trampoline);
                   SoftBodyDef cube = scenes::tetCube(2, 0.2f, Vec3(-0.1f, 1.1f, -0.1f));
                   cube.density = 200;
                   w.addSoftBody(cube);
                   RopeDef r;
                   r.segments = 20;
                   r.start = Vec3(-0.7f, 1.8f, -0.6f);
                   r.end = Vec3(0.5f, 1.8f, -0.6f);
                   r.mass = 0.1f;
                   r.pinned = {0};
                   w.addRope(r);
                   return still(w);
                 }});
}

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
  // A cloth numbered at random, banded on its grid's row-major order: its particle pass and bounds go by particles,
  // in the coloured pass's job.
  for (const float groundHeight : {-1.0f, 0.4f}) {
    out.push_back({std::string("shuffled cloth ") + (groundHeight > 0 ? "onto a raised ground" : "in free space"), 60,
                   [=](World& w) {
                     scenes::addNumberedCloth(w, 64, scenes::randomNumbering(64 * 64, 52));
                     SolverSettings s = w.settings();
                     s.ground.height = groundHeight;
                     w.setSettings(s);
                     return still(w);
                   }});
  }
  // The distances swept there and back: neither the particle pass nor the bounds may join the forward pass.
  out.push_back({"cloth onto a raised ground, symmetric distances", 60, [](World& w) {
                   scenes::hangingCloth(w, 32);
                   SolverSettings s = w.settings();
                   s.distanceSweep = DistanceSweep::Symmetric;
                   s.ground.height = 0.4f;
                   w.setSettings(s);
                   return still(w);
                 }});
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
  addGalleryTwins(out);
  return out;
}

uint64_t runHash(const Scene& scene, bool fused, TaskSystem* tasks) {
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
      EXPECT_EQ(runHash(scene, true, tasks), runHash(scene, false, tasks))
          << scene.name << (tasks ? ", 2 threads" : "");
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
  EXPECT_FALSE(plan().sweepBackPadded);  // no pass back
  world.setDistanceSweep(DistanceSweep::Symmetric);  // a pass back after each forward one
  EXPECT_FALSE(plan().particlePassInSolve);
  EXPECT_FALSE(plan().blocksAlone);
  EXPECT_TRUE(plan().sweepBackPadded);  // every distance in a batch: the pass back starts from paddedP
  impl.fusePasses = false;
  EXPECT_FALSE(plan().sweepBackPadded);
  impl.fusePasses = true;
  world.setDistanceSweep(DistanceSweep::Forward);
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
  // A cloth numbered at random takes them too (its pass and bounds by particles, its copy in by places).
  World shuffled;
  scenes::addNumberedCloth(shuffled, 64, scenes::randomNumbering(64 * 64, 52));
  shuffled.step(1.0f / 60);
  WorldImpl& shuffledImpl = WorldInternals::of(shuffled);
  ASSERT_TRUE(shuffledImpl.solverData.schedule.blocks.latticeOrdered);
  const SubstepPlan shuffledPlan = shuffledImpl.planSubstep(false, WorldImpl::kNoResiduals, true);
  EXPECT_TRUE(shuffledPlan.particlePassInSolve);
  EXPECT_TRUE(shuffledPlan.copyOutBounds);
  // The last copy out bounded the particles as the solve left them, for the late contact scan.
  ASSERT_TRUE(shuffledImpl.collision.solveBoundParticles);
  const Real* p = shuffledImpl.particles.p.data();
  for (uint32_t i = 0; i < shuffled.particleCount(); ++i) {
    const ParticleBox& box = shuffledImpl.collision.particleBoxes[i / kBoxParticles];
    for (int a = 0; a < 3; ++a)
      ASSERT_TRUE(box.lo[a] <= p[3 * i + a] && p[3 * i + a] <= box.hi[a]) << "particle " << i << " axis " << a;
  }
}
