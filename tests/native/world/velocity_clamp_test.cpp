// The velocity clamp (SolverSettings::maxSpeed): free flight moves a particle at most maxSpeed·h per substep, a
// clamp never reached changes nothing bit for bit, it stops a particle tunnelling through a thin box, and bad values
// are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/every_kind.h"
#include "scenes/scenes.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

using scenes::positionOf;

}  // namespace

TEST(VelocityClamp, AFastParticleMovesAtMostMaxSpeedTimesHPerSubstep) {
  const Real dt = 1.0f / 60, limit = 5;
  for (int substeps : {1, 4}) {
    for (bool gravity : {false, true}) {
      World world;
      SolverSettings s;
      s.substeps = substeps;
      s.ground.enabled = false;
      if (!gravity) s.gravity = Vec3::Zero();
      s.maxSpeed = limit;
      world.setSettings(s);
      const uint32_t p = world.addParticle(Vec3(0, 0, 0), 1, Vec3(60, 80, 0));  // 100 m/s
      for (int f = 0; f < 30; ++f) {
        const Vec3 before = positionOf(world, p);
        world.step(dt);
        const Real moved = (positionOf(world, p) - before).norm();
        // A step is `substeps` substeps of h = dt / substeps, each at most limit·h.
        ASSERT_LE(moved, limit * dt * (1 + 1e-5f)) << "substeps " << substeps << " frame " << f;
        if (!gravity) {
          ASSERT_NEAR(moved, limit * dt, 1e-5f * limit * dt);  // clamped, not stopped
        }
      }
      if (!gravity) {  // the direction is kept: still along (0.6, 0.8)
        const Vec3 x = positionOf(world, p);
        EXPECT_NEAR(x.x() / x.norm(), 0.6f, 1e-5f);
      }
    }
  }
}

TEST(VelocityClamp, ALimitNeverReachedIsBitIdenticalToOff) {
  World off, unreached;
  const scenes::EveryKind a = scenes::buildEveryKind(off);
  const scenes::EveryKind b = scenes::buildEveryKind(unreached);
  unreached.setMaxSpeed(1e6f);
  for (int f = 0; f < 30; ++f) {
    scenes::driveEveryKind(off, a, f), off.step(1.0f / 60);
    scenes::driveEveryKind(unreached, b, f), unreached.step(1.0f / 60);
  }
  EXPECT_EQ(scenes::stateHash(off), scenes::stateHash(unreached));
  // And a limit that is reached does change the motion (the comparison can fail).
  World clamped;
  const scenes::EveryKind c = scenes::buildEveryKind(clamped);
  clamped.setMaxSpeed(0.5f);
  for (int f = 0; f < 30; ++f) scenes::driveEveryKind(clamped, c, f), clamped.step(1.0f / 60);
  EXPECT_NE(scenes::stateHash(off), scenes::stateHash(clamped));
}

TEST(VelocityClamp, StopsTunnellingThroughAThinWall) {
  // A particle at 100 m/s, one substep of 1/60 s (1.67 m), at a box wall 1 cm thick: without the clamp the discrete
  // test never sees it inside; with maxSpeed = width / (3 h) it enters at most a third of the wall and is pushed back.
  const Real dt = 1.0f / 60, width = 0.01f;
  for (bool clamp : {false, true}) {
    World world;
    SolverSettings s = scenes::freeSpace();
    s.substeps = 1;
    s.maxSpeed = clamp ? width / (3 * dt) : 0;
    world.setSettings(s);
    ColliderDef wall;
    wall.shape = ColliderShape::Box;
    wall.position = Vec3(1, 0, 0);
    wall.halfExtents = Vec3(width / 2, 1, 1);
    world.addCollider(wall);
    const uint32_t p = world.addParticle(Vec3(0.0013f, 0, 0), 1, Vec3(100, 0, 0));
    for (int f = 0; f < 600; ++f) world.step(dt);
    if (clamp) EXPECT_LE(positionOf(world, p).x(), 1 - width / 2 + 1e-6f);
    else EXPECT_GT(positionOf(world, p).x(), 1 + width / 2);  // the failure the clamp guards against
  }
}

TEST(VelocityClamp, BadValuesAreRefusedAndTheWorldIsUnchanged) {
  World world;
  world.setMaxSpeed(2);
  for (float bad : {-1.0f, NAN, INFINITY}) {
    EXPECT_THROW(world.setMaxSpeed(bad), InvalidArgument);
    SolverSettings s = world.settings();
    s.maxSpeed = bad;
    try {
      world.setSettings(s);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("setSettings: maxSpeed must be"), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.settings().maxSpeed, 2.0f);
  }
  world.setMaxSpeed(0);  // off
  EXPECT_EQ(world.settings().maxSpeed, 0.0f);
}
