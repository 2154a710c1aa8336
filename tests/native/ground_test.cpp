// The ground plane: nothing ends a step below it, friction stops sliding at the Coulomb distance, and restitution
// sets the bounce height.
#include <gtest/gtest.h>

#include <algorithm>

#include "pbd/world.h"

using namespace pbd;

namespace {

Real lowestFreeParticle(const World& w) {
  Real lowest = 1e30f;
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    if (w.inverseMasses()[i] != 0) lowest = std::min(lowest, w.positions()[3 * i + 1]);
  }
  return lowest;
}

}  // namespace

TEST(Ground, NothingEverEndsBelowTheGround) {
  for (Method method : {Method::Xpbd, Method::Pbd}) {
    for (int substeps : {1, 3}) {
      World world;
      SolverSettings s;
      s.method = method;
      s.substeps = substeps;
      s.iterations = 2;
      s.ground.height = -0.25f;
      s.ground.thickness = 0.01f;
      world.setSettings(s);
      ClothDef c;
      c.columns = c.rows = 16;
      c.spacing = 0.05f;
      c.origin = Vec3(-0.4f, 0.5f, -0.4f);
      c.axisV = Vec3(0, 0.3f, 1);  // tilted, so it lands on one edge first
      world.addCloth(c);
      world.addParticle(Vec3(0, 3, 0), 1, Vec3(0, -200, 0));  // a fast one: 3.3 m per frame
      for (int f = 0; f < 120; ++f) {
        world.step(1.0f / 60);
        ASSERT_GE(lowestFreeParticle(world), -0.25f + 0.01f) << "frame " << f;
      }
      EXPECT_GT(world.contactCount(), 0u);
    }
  }
}

TEST(Ground, CoulombFrictionStopsASlidingParticleAtVSquaredOverTwoMuG) {
  const Real mu = 0.4f, v0 = 3, g = 9.81f;
  World world;
  SolverSettings s;
  s.substeps = 20;
  s.ground.friction = mu;
  world.setSettings(s);
  world.addParticle(Vec3(0, 0, 0), 1, Vec3(v0, 0, 0));
  for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
  EXPECT_NEAR(world.velocities()[0], 0, 1e-6f);
  EXPECT_NEAR(world.positions()[0], v0 * v0 / (2 * mu * g), 0.03f * v0 * v0 / (2 * mu * g));
}

TEST(Ground, RestitutionBouncesToESquaredTimesTheDropHeight) {
  const Real e = 0.6f, h0 = 2;
  World world;
  SolverSettings s;
  s.substeps = 40;
  s.ground.restitution = e;
  s.ground.friction = 0;
  world.setSettings(s);
  world.addParticle(Vec3(0, h0, 0), 1);
  Real apex = 0;
  bool bounced = false;
  for (int f = 0; f < 60 * 2; ++f) {
    world.step(1.0f / 60);
    const Real vy = world.velocities()[1];
    if (vy > 0) bounced = true;
    if (bounced) apex = std::max(apex, world.positions()[1]);
  }
  ASSERT_TRUE(bounced);
  EXPECT_NEAR(apex, e * e * h0, 0.05f * e * e * h0);
}

TEST(Ground, ARestingClothStaysAtRest) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  world.setSettings(s);
  ClothDef c;
  c.columns = c.rows = 10;
  c.spacing = 0.1f;
  world.addCloth(c);  // lies flat on the ground at rest length
  for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    EXPECT_NEAR(world.positions()[3 * i + 1], 0, 1e-4f);
    EXPECT_NEAR(world.velocities()[3 * i], 0, 1e-3f);
    EXPECT_NEAR(world.velocities()[3 * i + 2], 0, 1e-3f);
  }
}
