// The non-finite guard: a step that blows up to Inf/NaN is undone, the offending body is stopped and reported,
// the views keep their addresses, and ordinary steps are never flagged.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "native/long_scene.h"
#include "scenes/free_space.h"

using namespace pbd;

TEST(NonFiniteGuard, ABlowUpIsRolledBackReportedAndTheBodyStopped) {
  World world;
  SolverSettings s;
  s.ground.enabled = false;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 6;
  c.pinned = {0};
  world.addCloth(c);                                                    // body 0: particles 0..35
  const uint32_t ball = world.addParticle(Vec3(5, 5, 5), 1, Vec3(1, 0, 0));  // body 1
  for (int f = 0; f < 5; ++f) world.step(1.0f / 60);
  EXPECT_FALSE(world.lastStepReport().rolledBack);

  const Real* view = world.positions();
  const std::vector<Real> before(view, view + 3 * world.particleCount());
  const Vec3 ballVelocity(world.velocities()[3 * ball], world.velocities()[3 * ball + 1], world.velocities()[3 * ball + 2]);
  world.setExternalForce(20, Vec3(0, 3e38f, 0));  // finite, but h * w * f overflows to Inf
  world.step(1.0f / 60);

  const StepReport& r = world.lastStepReport();
  ASSERT_TRUE(r.rolledBack);
  EXPECT_EQ(r.body, 0u);
  EXPECT_LE(r.particle, 35u);
  EXPECT_GE(r.nonFiniteCount, 1u);
  EXPECT_EQ(world.positions(), view);  // the zero-copy view still points at the positions
  for (size_t k = 0; k < before.size(); ++k) ASSERT_EQ(world.positions()[k], before[k]) << k;  // undone exactly
  for (uint32_t i = 0; i < 36; ++i) {
    for (int a = 0; a < 3; ++a) EXPECT_EQ(world.velocities()[3 * i + a], 0) << "cloth particle " << i;
  }
  for (int a = 0; a < 3; ++a) EXPECT_EQ(world.velocities()[3 * ball + a], ballVelocity[a]);  // other body untouched

  // Removing the cause lets the world go on, finite.
  world.setExternalForce(20, Vec3::Zero());
  world.step(1.0f / 60);
  EXPECT_FALSE(world.lastStepReport().rolledBack);
  for (uint32_t k = 0; k < 3 * world.particleCount(); ++k) ASSERT_TRUE(std::isfinite(world.positions()[k]));
}

TEST(NonFiniteGuard, OrdinaryStepsAreNeverFlagged) {
  World world;
  scenes::hangingCloth(world, 32);
  for (int f = 0; f < 120; ++f) {
    world.step(1.0f / 60);
    ASSERT_FALSE(world.lastStepReport().rolledBack) << "frame " << f;
  }
}

TEST(NonFiniteGuard, OneNonFiniteParticleAnywhereIsFoundOnAnyThreadCount) {
  PBD_LONG_SCENE();
  // Lone particles, so that nothing spreads the overflow: one particle's x and v turn infinite, whichever it is and
  // whichever component (the check sums four floats at a time, with a scalar tail), on one or two threads.
  for (unsigned workers : {0u, 1u}) {
    ThreadPool pool(workers);
    for (uint32_t n : {37u, 5001u}) {
      for (uint32_t bad : {0u, n / 2, n - 1}) {
        for (int axis = 0; axis < 3; ++axis) {
          World world(&pool);
          SolverSettings s = scenes::freeSpace();
          s.maxSpeed = 0;  // off: the clamp would bring an infinite speed back to a finite one
          world.setSettings(s);
          for (uint32_t i = 0; i < n; ++i) world.addParticle(Vec3(Real(i), 0, 0), 1000);  // 1 g each
          Vec3 f = Vec3::Zero();
          f[axis] = 3e38f;  // finite, but h * w * f = 5e38 overflows to Inf
          world.setExternalForce(bad, f);
          world.step(1.0f / 60);
          const StepReport& r = world.lastStepReport();
          ASSERT_TRUE(r.rolledBack) << n << " particles, particle " << bad << ", axis " << axis;
          EXPECT_EQ(r.particle, bad);
          EXPECT_EQ(r.nonFiniteCount, 1u);
        }
      }
    }
  }
}
