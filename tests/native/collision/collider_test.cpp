// Colliders: the shape distances against finite differences, nothing ends inside a collider, moving colliders
// drag particles along by friction (a plane lifts them), and restitution off a collider. Friction on a tilted
// plane: friction_coefficients_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "collision/shape_distance.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/finite_difference.h"
#include "scenes/free_space.h"

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
    if (kind != ColliderShape::Plane) {
      EXPECT_GT(world.positions()[3 * (12 * 24 + 12) + 1], -0.5f);
    }
  }
}

namespace {

/// A particle at `start` resting on collider `def` (ground off, 10 substeps) while the collider is moved at
/// `velocity` by its pose, set every frame for 1 s. Returns the particle's index (0).
uint32_t rideForOneSecond(World& world, const ColliderDef& def, const Vec3& start, const Vec3& velocity) {
  SolverSettings s;
  s.substeps = 10;
  s.ground.enabled = false;
  world.setSettings(s);
  const uint32_t k = world.addCollider(def);
  const uint32_t p = world.addParticle(start, 1);
  const Real dt = 1.0f / 60;
  for (int f = 1; f <= 60; ++f) {
    world.setColliderPose(k, def.position + velocity * (dt * Real(f)), def.rotation);
    world.step(dt);
  }
  return p;
}

}  // namespace

TEST(Colliders, AMovingPlatformDragsAParticleAlongByFriction) {
  World world;
  ColliderDef platform;
  platform.shape = ColliderShape::Box;
  platform.halfExtents = Vec3(5, 0.1f, 5);
  platform.friction = 1;
  const Real speed = 1.2f;
  const uint32_t p = rideForOneSecond(world, platform, Vec3(0, 0.1f, 0), Vec3(speed, 0, 0));
  // Static friction: the particle moves with the platform, at its speed, still on its top face.
  EXPECT_NEAR(world.velocities()[3 * p], speed, 0.02f);
  EXPECT_NEAR(world.positions()[3 * p + 1], 0.1f, 1e-3f);
  EXPECT_GT(world.positions()[3 * p], 0.9f * speed);
}

TEST(Colliders, AKinematicBoxMovingSidewaysDragsAClothLyingOnIt) {
  // An 8x8 cloth settles on a box, which then moves along +x at 0.5 m/s for 1 s: friction carries the whole cloth
  // along at the box's speed, still lying on its top face.
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.ground.enabled = false;
  world.setSettings(s);
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.halfExtents = Vec3(1, 0.1f, 1);
  box.friction = 1;
  const uint32_t k = world.addCollider(box);
  ClothDef c;
  c.columns = c.rows = 8;
  c.spacing = 0.05f;
  c.origin = Vec3(-0.175f, 0.12f, -0.175f);
  world.addCloth(c);
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);  // settles onto the top face
  auto meanX = [&](const Real* a) {
    double sum = 0;
    for (uint32_t i = 0; i < world.particleCount(); ++i) sum += a[3 * i];
    return Real(sum / world.particleCount());
  };
  const Real x0 = meanX(world.positions()), speed = 0.5f, dt = 1.0f / 60;
  for (int f = 1; f <= 60; ++f) {
    world.setColliderPose(k, Vec3(speed * dt * Real(f), 0, 0), Quat::Identity());
    world.step(dt);
  }
  EXPECT_NEAR(meanX(world.velocities()), speed, 0.05f * speed);
  EXPECT_NEAR(meanX(world.positions()) - x0, speed * 1, 0.05f * speed);
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    ASSERT_NEAR(world.positions()[3 * i + 1], 0.1f, 2e-3f) << "particle " << i << " left the top face";
  }
}

TEST(Colliders, ARisingPlaneLiftsWhatRestsOnItAndSnapshotsKeepIt) {
  // A plane collider moved up at 0.5 m/s carries a particle with it, at its speed and straight up.
  World world;
  ColliderDef plane;
  plane.shape = ColliderShape::Plane;
  const uint32_t p = rideForOneSecond(world, plane, Vec3(0.3f, 0, -0.2f), Vec3(0, 0.5f, 0));
  EXPECT_NEAR(world.positions()[3 * p + 1], 0.5f, 2e-3f);
  EXPECT_NEAR(world.velocities()[3 * p + 1], 0.5f, 0.02f);
  EXPECT_NEAR(world.positions()[3 * p], 0.3f, 1e-6f);
  // A snapshot keeps the plane and its pose: the loaded world steps on bit for bit.
  const std::vector<uint8_t> blob = world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  for (int f = 0; f < 10; ++f) world.step(1.0f / 60), loaded.step(1.0f / 60);
  EXPECT_TRUE(loaded.saveSnapshot() == world.saveSnapshot());
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


TEST(Colliders, RemovingOneShiftsTheLaterOnesDownAndTheRestStillCollide) {
  // Three shelves side by side (a sphere, a triangle-mesh floor, a box), a particle resting on each. Removing the
  // mesh drops its particle; the box becomes collider 1 and still holds its particle, the sphere too.
  World world;
  SolverSettings s;
  s.substeps = 10;
  s.ground.height = -5;
  world.setSettings(s);
  ColliderDef sphere;
  sphere.position = Vec3(-2, 0, 0);
  const std::vector<Real> floor = {-0.5f, 0, -0.5f, 0.5f, 0, -0.5f, 0.5f, 0, 0.5f, -0.5f, 0, 0.5f};
  const std::vector<uint32_t> floorTriangles = {0, 2, 1, 0, 3, 2};
  ColliderDef mesh;
  mesh.shape = ColliderShape::TriangleMesh;
  mesh.meshPositions = floor;
  mesh.meshTriangles = floorTriangles;
  ColliderDef box;
  box.shape = ColliderShape::Box;
  box.position = Vec3(2, -0.5f, 0);
  for (const ColliderDef& d : {sphere, mesh, box}) world.addCollider(d);
  for (Real x : {-2.0f, 0.0f, 2.0f}) world.addParticle(Vec3(x, 0.6f, 0), 1);
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  const Real* y = world.positions();
  EXPECT_NEAR(y[1], 0.5f, 1e-4f);
  EXPECT_NEAR(y[4], 0, 1e-4f);
  EXPECT_NEAR(y[7], 0, 1e-4f);
  ASSERT_GT(world.contacts().size(), 0u);
  world.removeCollider(1);
  EXPECT_EQ(world.colliderCount(), 2u);
  EXPECT_EQ(world.contacts().size(), 0u) << "the last step's contacts named the removed collider";
  for (int f = 1; f <= 90; ++f) {  // the box, now collider 1, rises 10 cm over a second and stops
    world.setColliderPose(1, Vec3(2, -0.5f + 0.1f * std::min(Real(f) / 60, Real(1)), 0), Quat::Identity());
    world.step(1.0f / 60);
  }
  EXPECT_NEAR(y[1], 0.5f, 1e-4f);
  EXPECT_LT(y[4], -1) << "the mesh is gone: its particle fell";
  EXPECT_NEAR(y[7], 0.1f, 1e-4f);
  // A mesh removed before another mesh: the later one keeps its own triangles.
  World two;
  two.setSettings(s);
  mesh.position = Vec3(-1, 0, 0);
  two.addCollider(mesh);
  mesh.position = Vec3(1, 0, 0);
  two.addCollider(mesh);
  two.addParticle(Vec3(1, 0.3f, 0), 1);
  two.removeCollider(0);
  std::vector<Real> raised = floor;
  for (size_t k = 1; k < raised.size(); k += 3) raised[k] = 0.2f;
  two.setColliderMeshVertices(0, raised);
  for (int f = 0; f < 60; ++f) two.step(1.0f / 60);
  EXPECT_NEAR(two.positions()[1], 0.2f, 1e-4f);
  // Bad index: named, nothing changes; a snapshot after a removal loads and steps on bit for bit.
  const uint64_t before = two.saveSnapshot().size();
  try {
    two.removeCollider(1);
    ADD_FAILURE() << "accepted collider 1 of 1";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("removeCollider: collider is out of range"), std::string::npos) << e.what();
  }
  EXPECT_EQ(two.colliderCount(), 1u);
  EXPECT_EQ(two.saveSnapshot().size(), before);
  const std::vector<uint8_t> blob = world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  for (int f = 0; f < 10; ++f) world.step(1.0f / 60), loaded.step(1.0f / 60);
  EXPECT_TRUE(loaded.saveSnapshot() == world.saveSnapshot());
}

TEST(Colliders, ALatePushIntoAnotherColliderIsPushedOutOfItToo) {
  // The late pass scans each collider only where the particles' boxes reach it, and the boxes were made before it
  // pushed anything. A particle far below sphere B is pulled deep into sphere A by an attachment during the solve
  // (no contact yet: it was predicted outside both); the late pass pushes it out of A along +y, onto A's top, which
  // is inside B. B's scan must see it there and push it out of B as well.
  World world;
  SolverSettings s = scenes::freeSpace();
  s.substeps = 1;
  world.setSettings(s);
  const uint32_t i = world.addParticle(Vec3(0, -3, 0), 1);
  ColliderDef a, b;
  a.position = Vec3(0, 0, 0), a.radius = 1;
  b.position = Vec3(0, 1, 0), b.radius = 0.5f;
  world.addCollider(a);
  world.addCollider(b);
  AttachmentDef pull;
  pull.particle = i;
  pull.target = Vec3(0, 0.1f, 0);  // pulled straight there (stiffness 1, rigid)
  world.addAttachment(pull);
  world.step(1.0f / 60);
  const Vec3 x(world.positions()[0], world.positions()[1], world.positions()[2]);
  EXPECT_GE((x - a.position).norm(), a.radius * 0.999f) << x.transpose();  // out of A
  EXPECT_GE((x - b.position).norm(), b.radius * 0.999f) << x.transpose();  // and out of B
}
