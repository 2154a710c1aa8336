// Colliders: the shape distances against finite differences, nothing ends inside a collider, moving colliders
// drag particles along by friction, restitution off a collider, and the plane collider as a tilted, moving ground.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision/shape_distance.h"
#include "pbd/world.h"
#include "scenes/finite_difference.h"

using namespace pbd;

namespace {

ColliderDef shape(ColliderShape kind) {
  ColliderDef d;
  d.shape = kind;
  d.radius = 0.4f;
  d.halfHeight = 0.3f;
  d.halfExtents = Vec3(0.5f, 0.2f, 0.3f);
  return d;
}

}  // namespace

TEST(ShapeDistance, NormalIsTheGradientOfTheSignedDistance) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<Real> u(-1, 1);
  const Real eps = 1e-3f;
  for (ColliderShape kind : {ColliderShape::Sphere, ColliderShape::Capsule, ColliderShape::Box, ColliderShape::Plane}) {
    const ColliderDef d = shape(kind);
    int checked = 0;
    for (int trial = 0; trial < 300; ++trial) {
      const Vec3 q(u(rng), u(rng), u(rng));
      const ShapeDistance sd = shapeDistance(d, q);
      const Vec3 fd = scenes::centralDifference([&](const Vec3& y) { return shapeDistance(d, y).phi; }, q, eps);
      // Skip the ridges where the distance is not differentiable (box edges and medial planes).
      if (std::abs(fd.norm() - 1) > 1e-2f) continue;
      ++checked;
      EXPECT_LT((fd - sd.n).norm(), 5e-3f) << "shape " << int(kind) << " q " << q.transpose();
      EXPECT_NEAR(sd.n.norm(), 1, 1e-5f);
    }
    EXPECT_GT(checked, 200) << "shape " << int(kind);
  }
  EXPECT_NEAR(sphereDistance(Vec3(0, 2, 0), 0.5f).phi, 1.5f, 1e-6f);
  EXPECT_NEAR(capsuleDistance(Vec3(0, 2, 0), 0.5f, 1).phi, 0.5f, 1e-6f);
  EXPECT_NEAR(capsuleDistance(Vec3(0.25f, 0.7f, 0), 0.5f, 1).phi, -0.25f, 1e-6f);
  EXPECT_NEAR(boxDistance(Vec3(0, 0.05f, 0), Vec3(1, 0.2f, 1)).phi, -0.15f, 1e-6f);
  EXPECT_NEAR(boxDistance(Vec3(1.3f, 0.6f, 0), Vec3(1, 0.2f, 1)).phi, 0.5f, 1e-6f);
  EXPECT_EQ(planeDistance(Vec3(7, -0.25f, -3)).phi, -0.25f);
}

TEST(Colliders, ADrapedClothNeverEndsInsideAnyShape) {
  for (ColliderShape kind : {ColliderShape::Sphere, ColliderShape::Capsule, ColliderShape::Box, ColliderShape::Plane}) {
    World world;
    SolverSettings s;
    s.substeps = 5;
    s.ground.height = -2;
    world.setSettings(s);
    ColliderDef d = shape(kind);
    d.rotation = Quat(Eigen::AngleAxis<Real>(0.6f, Vec3(0.3f, 0.2f, 1).normalized()));
    d.thickness = 0.01f;
    const uint32_t k = world.addCollider(d);
    EXPECT_EQ(k, 0u);
    ClothDef c;
    c.columns = c.rows = 24;
    c.spacing = 0.05f;
    c.origin = Vec3(-0.6f, 0.8f, -0.6f);
    world.addCloth(c);
    world.addParticle(Vec3(0.05f, 3, 0.02f), 1, Vec3(0, -40, 0));  // a fast one
    for (int f = 0; f < 90; ++f) {
      world.step(1.0f / 60);
      for (uint32_t i = 0; i < world.particleCount(); ++i) {
        const Vec3 p(world.positions()[3 * i], world.positions()[3 * i + 1], world.positions()[3 * i + 2]);
        const Vec3 q = d.rotation.conjugate() * (p - d.position);
        ASSERT_GE(shapeDistance(d, q).phi, d.thickness - 1e-5f) << "shape " << int(kind) << " frame " << f;
      }
    }
    // The cloth rests on the shape: it did not fall past it to the ground (the tilted plane it slides down).
    if (kind != ColliderShape::Plane) EXPECT_GT(world.positions()[3 * (12 * 24 + 12) + 1], -0.5f);
  }
}

TEST(Colliders, AMovingPlatformDragsAParticleAlongByFriction) {
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.ground.enabled = false;
  world.setSettings(s);
  ColliderDef platform;
  platform.shape = ColliderShape::Box;
  platform.halfExtents = Vec3(5, 0.1f, 5);
  platform.friction = 1;
  const uint32_t k = world.addCollider(platform);
  const uint32_t p = world.addParticle(Vec3(0, 0.1f, 0), 1);
  const Real speed = 1.2f, dt = 1.0f / 60;
  for (int f = 1; f <= 60; ++f) {
    world.setColliderPose(k, Vec3(speed * dt * f, 0, 0), Quat::Identity());
    world.step(dt);
  }
  // Static friction: the particle moves with the platform, at its speed, still on its top face.
  EXPECT_NEAR(world.velocities()[3 * p], speed, 0.02f);
  EXPECT_NEAR(world.positions()[3 * p + 1], 0.1f, 1e-3f);
  EXPECT_GT(world.positions()[3 * p], 0.9f * speed);
}

TEST(Colliders, RestitutionOffASphereBouncesToESquaredTimesTheHeight) {
  const Real e = 0.5f, drop = 1.5f;
  World world;
  SolverSettings s;
  s.substeps = 40;
  s.ground.enabled = false;
  world.setSettings(s);
  ColliderDef ball;
  ball.radius = 0.5f;
  ball.restitution = e;
  ball.friction = 0;
  world.addCollider(ball);
  world.addParticle(Vec3(0, 0.5f + drop, 0), 1);
  Real apex = 0;
  bool bounced = false;
  for (int f = 0; f < 100; ++f) {
    world.step(1.0f / 60);
    if (world.velocities()[1] > 0) bounced = true;
    if (bounced) apex = std::max(apex, world.positions()[1] - 0.5f);
  }
  ASSERT_TRUE(bounced);
  EXPECT_NEAR(apex, e * e * drop, 0.05f * e * e * drop);
}

namespace {

/// A 4x4 patch (5 cm spacing) resting on a plane collider tilted by `theta` about z (ground off): its slope runs
/// down along (cos θ, −sin θ, 0).
struct PlaneIncline {
  World world;
  Vec3 down;
  PlaneIncline(Real theta, Real muStatic, Real muDynamic) {
    SolverSettings s;
    s.substeps = 20;
    s.ground.enabled = false;
    world.setSettings(s);
    ColliderDef plane;
    plane.shape = ColliderShape::Plane;
    plane.position = Vec3(0, 1, 0);
    plane.rotation = Quat(Eigen::AngleAxis<Real>(-theta, Vec3::UnitZ()));
    plane.friction = muDynamic;
    plane.staticFriction = muStatic;
    world.addCollider(plane);
    down = Vec3(std::cos(theta), -std::sin(theta), 0);
    ClothDef c;
    c.columns = c.rows = 4;
    c.spacing = 0.05f;
    c.origin = Vec3(0, 1, -0.075f);
    c.axisU = down;
    c.axisV = Vec3(0, 0, 1);
    world.addCloth(c);
  }
  Real meanAlong(const Vec3& axis, bool velocities) const {
    const Real* a = velocities ? world.velocities() : world.positions();
    double sum = 0;
    for (uint32_t i = 0; i < world.particleCount(); ++i) sum += Vec3(a[3 * i], a[3 * i + 1], a[3 * i + 2]).dot(axis);
    return Real(sum / world.particleCount());
  }
};

}  // namespace

TEST(Colliders, APlaneColliderIsATiltedGround) {
  const Real theta = Real(M_PI / 6), g = 9.81f;  // tan θ = 0.577
  // μ_s = 0.8 > tan θ: held (the rotation is exact across substeps, so the surface does not creep under it).
  PlaneIncline held(theta, 0.8f, 0.3f);
  const Real start = held.meanAlong(held.down, false);
  for (int f = 0; f < 120; ++f) held.world.step(1.0f / 60);
  EXPECT_LT(std::abs(held.meanAlong(held.down, false) - start), 1e-4f);
  // μ_s = μ_d = 0.3 < tan θ: slides at g (sin θ − μ_d cos θ), within 5%.
  PlaneIncline sliding(theta, 0.3f, 0.3f);
  for (int f = 0; f < 15; ++f) sliding.world.step(1.0f / 60);
  const Real v0 = sliding.meanAlong(sliding.down, true);
  for (int f = 0; f < 60; ++f) sliding.world.step(1.0f / 60);
  const Real expected = g * (std::sin(theta) - 0.3f * std::cos(theta));
  EXPECT_NEAR(sliding.meanAlong(sliding.down, true) - v0, expected, 0.05f * expected);
  // A snapshot keeps the plane: the loaded world steps on bit for bit.
  const std::vector<uint8_t> blob = sliding.world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  for (int f = 0; f < 10; ++f) sliding.world.step(1.0f / 60), loaded.step(1.0f / 60);
  EXPECT_TRUE(loaded.saveSnapshot() == sliding.world.saveSnapshot());
  // Nothing below it: every particle stays on the plane's outer side.
  const Vec3 normal(std::sin(theta), std::cos(theta), 0);
  for (uint32_t i = 0; i < sliding.world.particleCount(); ++i) {
    const Real* x = sliding.world.positions();
    EXPECT_GE((Vec3(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - Vec3(0, 1, 0)).dot(normal), -1e-5f);
  }
}

TEST(Colliders, ARisingPlaneLiftsWhatRestsOnIt) {
  // A kinematic plane moved up at 0.5 m/s by its pose each frame carries a particle with it, at its speed.
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.ground.enabled = false;
  world.setSettings(s);
  ColliderDef plane;
  plane.shape = ColliderShape::Plane;
  const uint32_t k = world.addCollider(plane);
  const uint32_t p = world.addParticle(Vec3(0.3f, 0, -0.2f), 1);
  const Real speed = 0.5f, dt = 1.0f / 60;
  for (int f = 1; f <= 60; ++f) {
    world.setColliderPose(k, Vec3(0, speed * dt * Real(f), 0), Quat::Identity());
    world.step(dt);
    ASSERT_GE(world.positions()[3 * p + 1], speed * dt * Real(f) - 1e-5f) << "frame " << f;
  }
  EXPECT_NEAR(world.positions()[3 * p + 1], speed, 2e-3f);
  EXPECT_NEAR(world.velocities()[3 * p + 1], speed, 0.02f);
  EXPECT_NEAR(world.positions()[3 * p], 0.3f, 1e-6f);  // straight up: nothing pushed it sideways
}
