// The ground plane: nothing ends a step below it, friction stops sliding at the Coulomb distance, and restitution
// sets the bounce height.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

TEST(Ground, EveryBodyKeepsItsOwnMarginAcrossTheScansChunks) {
  // The ground scans skip chunks of 1,024 particles that are out of reach; bodies here start and end inside chunks,
  // have different margins (the largest sets the reach), and their particles are scattered over heights around the
  // surface. After a step every free one must sit at or above surface + its body's margin, and every one that
  // started above its reach with no velocity downward must not have moved.
  World world;
  SolverSettings s;
  s.gravity = Vec3::Zero();
  s.ground.height = -0.5f;
  s.ground.thickness = 0.02f;
  world.setSettings(s);
  const Real surface = s.ground.height + s.ground.thickness;
  const uint32_t sizes[] = {700, 1500, 333, 2100, 90};
  const Real margins[] = {0, 0.01f, 0.2f, 0.05f, 0};
  uint32_t seed = 12345;
  auto uniform = [&] { return Real((seed = seed * 1664525u + 1013904223u) >> 8) / Real(1 << 24); };
  std::vector<Real> start;
  for (int b = 0; b < 5; ++b) {
    std::vector<Real> xyz(3 * sizes[b]);
    std::vector<Real> w(sizes[b], 1);
    for (uint32_t i = 0; i < sizes[b]; ++i) {
      xyz[3 * i] = uniform(), xyz[3 * i + 2] = uniform();
      // Most far above; one in 25 near: below the surface for the bodies without a margin, within their margin
      // (above the surface) for the others, so that some chunks are within reach only through a margin.
      const Real near = margins[b] > 0 ? surface + 1.5f * margins[b] * uniform() : surface - 0.05f + 0.1f * uniform();
      xyz[3 * i + 1] = i % 25 == 7 ? near : surface + 1 + uniform();
      if (i % 97 == 3) w[i] = 0;  // pinned ones are never pushed
    }
    world.addParticles(xyz.data(), w.data(), sizes[b]);
    ContactMaterial m;
    m.thickness = margins[b];
    world.setBodyMaterial(uint32_t(b), m);  // the b-th body added
    start.insert(start.end(), xyz.begin(), xyz.end());
  }
  world.step(1.0f / 60);
  uint32_t pushed = 0, i = 0;
  for (int b = 0; b < 5; ++b) {
    for (uint32_t k = 0; k < sizes[b]; ++k, ++i) {
      const Real y = world.positions()[3 * i + 1], y0 = start[3 * i + 1];
      if (world.inverseMasses()[i] == 0) {
        EXPECT_EQ(y, y0) << "pinned particle " << i;
        continue;
      }
      EXPECT_GE(y, surface + margins[b] - 1e-5f) << "particle " << i << " of body " << b;
      if (y0 >= surface + margins[b]) {
        EXPECT_EQ(y, y0) << "particle " << i << " was out of reach";
      }
      pushed += y != y0;
    }
  }
  EXPECT_GT(pushed, 40u);  // the premise: many particles started within reach
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

TEST(Ground, EveryPredictionPathMarksTheChunksItsParticlesFallInto) {
  // Contact generation visits only the chunks of 1,024 particles that the prediction marked as within reach of the
  // ground, as it wrote p. Here particles start out of reach and fall into the ground within the first substep, so
  // the contacts that act during the iterations (with friction) exist only if the pass that moved them also marked
  // their chunks; a particle missed there is caught by the late pass instead, which only pushes it up, and ends
  // elsewhere. The reference world has the same moving particles plus a pinned particle under the ground in every
  // chunk (pinned particles get no contact), so every chunk is always marked: the worlds must agree bit for bit.
  // Paths: the one-pass Euler prediction (with linear damping and the speed clamp), Euler with rigid damping (two
  // passes around it), and BDF2 (the second step; the first falls back to Euler).
  struct Path {
    const char* name;
    Integrator integrator;
    Real rigidDamping;
  };
  for (const Path& path : {Path{"euler", Integrator::ImplicitEuler, 0}, Path{"euler+rigid damping", Integrator::ImplicitEuler, 0.1f},
                           Path{"bdf2", Integrator::Bdf2, 0}}) {
    const uint32_t count = 5000;  // 5 chunks
    std::vector<Real> positions[2];
    for (int reference = 0; reference < 2; ++reference) {
      World world;
      SolverSettings s;
      s.integrator = path.integrator;
      s.rigidDamping = path.rigidDamping;
      s.linearDamping = 0.5f;
      s.maxSpeed = 50;
      s.substeps = 4;
      s.ground.friction = 1;
      world.setSettings(s);
      std::vector<Real> xyz(3 * count);
      std::vector<Real> w(count, 1);
      for (uint32_t i = 0; i < count; ++i) {
        const bool anchor = i % 1000 == 500;  // one per chunk
        xyz[3 * i] = Real(i % 70) * 0.1f, xyz[3 * i + 2] = Real(i / 70) * 0.1f;
        xyz[3 * i + 1] = anchor ? (reference ? -0.1f : 5.0f) : 0.5f + Real(i % 7) * 0.01f;
        if (anchor) w[i] = 0;
      }
      world.addParticles(xyz.data(), w.data(), count);
      // Every tenth particle of chunks 1 and 3 moves sideways and down: it enters the ground in the first substep
      // of the second step (1/240 s at 40 m/s: 0.17 m), the BDF2 one.
      auto launch = [&] {
        for (uint32_t i = 0; i < count; ++i) {
          const uint32_t chunk = i / 1024;
          if (w[i] != 0 && (chunk == 1 || chunk == 3) && i % 10 == 0) world.setVelocity(i, Vec3(3, -40, 1));
        }
      };
      world.step(1.0f / 600);  // a short first step (BDF2's Euler start), nothing near the ground yet
      for (uint32_t i = 0; i < count; ++i) {
        if (w[i] != 0) {
          ASSERT_GT(world.positions()[3 * i + 1], 0.4f) << path.name;
        }
      }
      launch();
      world.step(1.0f / 60);
      positions[reference].assign(world.positions(), world.positions() + 3 * count);
      if (reference == 0) {
        uint32_t grounded = 0;  // the premise: many reached the ground
        for (uint32_t i = 0; i < count; ++i) grounded += w[i] != 0 && world.positions()[3 * i + 1] < 0.01f;
        EXPECT_GT(grounded, 150u) << path.name;
      }
    }
    for (uint32_t k = 0; k < 3 * count; ++k) {
      if (k / 3 % 1000 == 500) continue;  // the anchors, placed differently
      ASSERT_EQ(positions[0][k], positions[1][k]) << path.name << ": particle " << k / 3 << " axis " << k % 3;
    }
  }
}
