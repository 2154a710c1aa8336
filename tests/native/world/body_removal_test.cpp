// World::removeBody: a world with a body removed steps bit for bit as the world built without it, every kind of
// body and constraint included; what stays keeps its state; what touched the body goes (cross-body constraints,
// attachments, whose handles are handed out again); later indices move down as BodyRemoval says; a bad index changes
// nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/icosphere.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"

using namespace pbd;

namespace {

constexpr int kBodies = 6;

/// Six bodies of every builder and constraint kind, 3 m apart so that none touches another (each has the ground and
/// a sphere collider of its own under it, and a mesh collider far off keeps its per-particle inside flags), with
/// particle self-collision on: body k is left out when include[k] is false.
void buildScene(World& world, const bool (&include)[kBodies]) {
  SolverSettings s;
  s.substeps = 4;
  s.iterations = 2;
  s.linearDamping = 0.05f;
  s.selfCollision.enabled = true;
  s.selfCollision.radius = 0.02f;
  world.setSettings(s);
  for (int k = 0; k < kBodies; ++k) {
    ColliderDef sphere;
    sphere.position = Vec3(3.0f * k, 0.3f, 0);
    sphere.radius = 0.3f;
    world.addCollider(sphere);
  }
  const scenes::IcosphereMesh rock = scenes::icosphere(1, 0.5);
  ColliderDef mesh;
  mesh.shape = ColliderShape::TriangleMesh;
  mesh.position = Vec3(-5, 0.5f, 0);
  std::vector<Real> rockPositions(rock.positions.begin(), rock.positions.end());
  mesh.meshPositions = rockPositions;
  mesh.meshTriangles = rock.triangles;
  world.addCollider(mesh);

  auto at = [](int k) { return Vec3(3.0f * k, 0, 0); };
  if (include[0]) {
    ClothDef cloth;
    cloth.columns = cloth.rows = 6;
    cloth.spacing = 0.1f;
    cloth.origin = at(0) + Vec3(-0.25f, 0.9f, -0.25f);
    cloth.pinned = {0, 5};
    cloth.bendModel = BendModel::Dihedral;
    cloth.tethers = TetherMode::Euclidean;
    world.addCloth(cloth);
  }
  if (include[1]) {
    RopeDef rope;
    rope.segments = 6;
    rope.start = at(1) + Vec3(-0.3f, 1.0f, 0);
    rope.end = at(1) + Vec3(0.3f, 1.0f, 0);
    rope.pinned = {0};
    world.addRope(rope);
  }
  if (include[2]) {
    SoftBodyDef volume = scenes::tetCube(1, 0.2f, at(2) + Vec3(-0.1f, 0.8f, -0.1f));
    volume.volume = Strength{1e-6f, 0.9f};
    world.addSoftBody(volume);
  }
  if (include[3]) {
    SoftBodyDef neo = scenes::tetCube(1, 0.2f, at(3) + Vec3(-0.1f, 0.8f, -0.1f));
    neo.material = SoftMaterial::NeoHookean;
    neo.youngsModulus = 2e4f;
    neo.edgeConstraints = false;
    neo.shapeMatching = true;
    world.addSoftBody(neo);
  }
  if (include[4]) {
    const scenes::IcosphereMesh ball = scenes::icosphere(1, 0.15);
    TriangleMeshDef balloon;
    balloon.positions.assign(ball.positions.begin(), ball.positions.end());
    for (size_t i = 0; i < balloon.positions.size(); i += 3) {
      balloon.positions[i] += at(4).x();
      balloon.positions[i + 1] += 0.9f;
    }
    balloon.triangles = ball.triangles;
    balloon.pressure = 1.2f;
    world.addTriangleMesh(balloon);
  }
  if (include[5]) {
    ClothDef strain;
    strain.columns = strain.rows = 4;
    strain.spacing = 0.08f;
    strain.origin = at(5) + Vec3(-0.12f, 0.9f, -0.12f);
    strain.model = ClothModel::StrainTriangles;
    strain.stretch = Strength{1e-3f, 0.9f};
    world.addCloth(strain);
  }
}

std::vector<Real> positionsOf(const World& world) {
  return std::vector<Real>(world.positions(), world.positions() + 3 * size_t(world.particleCount()));
}

void step(World& world, int frames) {
  for (int f = 0; f < frames; ++f) world.step(1.0f / 60);
}

}  // namespace

TEST(BodyRemoval, TheWorldStepsBitForBitAsTheWorldBuiltWithoutTheBody) {
  for (int k = 0; k < kBodies; ++k) {
    bool all[kBodies], without[kBodies];
    for (int b = 0; b < kBodies; ++b) all[b] = true, without[b] = b != k;
    World removed, built;
    buildScene(removed, all);
    buildScene(built, without);
    removed.removeBody(uint32_t(k));
    ASSERT_EQ(removed.particleCount(), built.particleCount()) << "body " << k;
    EXPECT_EQ(removed.bodyCount(), built.bodyCount());
    EXPECT_EQ(removed.distanceConstraintCount(), built.distanceConstraintCount());
    EXPECT_EQ(removed.dihedralConstraintCount(), built.dihedralConstraintCount());
    EXPECT_EQ(removed.tetVolumeCount(), built.tetVolumeCount());
    EXPECT_EQ(removed.neoHookeanCount(), built.neoHookeanCount());
    EXPECT_EQ(removed.shapeMatchingCount(), built.shapeMatchingCount());
    EXPECT_EQ(removed.surfaceVolumeCount(), built.surfaceVolumeCount());
    EXPECT_EQ(removed.triangleStrainCount(), built.triangleStrainCount());
    EXPECT_EQ(removed.tetherCount(), built.tetherCount());
    EXPECT_TRUE(removed.saveSnapshot() == built.saveSnapshot()) << "body " << k;
    step(removed, 40);
    step(built, 40);
    EXPECT_EQ(scenes::stateHash(removed), scenes::stateHash(built)) << "body " << k;
  }
}

TEST(BodyRemoval, WhatStaysKeepsItsStateAndStepsOn) {
  const bool all[kBodies] = {true, true, true, true, true, true};
  World world;
  buildScene(world, all);
  step(world, 30);
  const std::vector<Real> before = positionsOf(world);
  const uint32_t n = world.particleCount();
  const BodyRemoval r = world.removeBody(2);  // the volume cube, in the middle
  EXPECT_EQ(r.body, 2u);
  ASSERT_EQ(world.particleCount(), n - r.particleCount);
  const std::vector<Real> after = positionsOf(world);
  for (uint32_t i = 0; i < world.particleCount(); ++i) {
    const uint32_t old = i < r.firstParticle ? i : i + r.particleCount;
    ASSERT_EQ(std::memcmp(&after[3 * i], &before[3 * old], 3 * sizeof(Real)), 0) << "particle " << i;
  }
  step(world, 60);
  for (Real c : positionsOf(world)) ASSERT_TRUE(std::isfinite(c));
  // Everything rests on its sphere or the ground, nothing fell through.
  for (uint32_t i = 0; i < world.particleCount(); ++i) EXPECT_GT(world.positions()[3 * i + 1], -1e-3f) << i;
}

TEST(BodyRemoval, ConstraintsAndAttachmentsTouchingTheBodyGoAndTheRestMoveDown) {
  World world;
  ClothDef cloth;
  cloth.columns = cloth.rows = 3;
  cloth.spacing = 0.1f;
  const BodyRange a = world.addCloth(cloth);
  cloth.origin = Vec3(1, 0, 0);
  const BodyRange b = world.addCloth(cloth);
  cloth.origin = Vec3(2, 0, 0);
  const BodyRange c = world.addCloth(cloth);
  // One constraint from a to b, one from a to c (added after the bodies: the last two indices).
  const uint32_t ab = world.addDistanceConstraint({a.firstParticle, b.firstParticle, 1, 1, {}});
  const uint32_t ac = world.addDistanceConstraint({a.firstParticle + 8, c.firstParticle + 8, 2, 2, {}});
  const uint32_t onB = world.addAttachment({b.firstParticle + 4, Vec3(1, 1, 0), {}});
  const uint32_t onC = world.addAttachment({c.firstParticle + 4, Vec3(2.1f, 0.5f, 0.1f), {}});
  const uint32_t distances = world.distanceConstraintCount();

  const BodyRemoval r = world.removeBody(b.body);
  EXPECT_EQ(r.firstParticle, b.firstParticle);
  EXPECT_EQ(r.particleCount, b.particleCount);
  // b's own constraints and a–b go; as runs of old indices.
  EXPECT_EQ(r.distanceRuns, (std::vector<uint32_t>{b.firstConstraint, b.firstConstraint + b.constraintCount, ab, ab + 1}));
  EXPECT_EQ(world.distanceConstraintCount(), distances - b.constraintCount - 1);
  EXPECT_TRUE(r.dihedralRuns.empty());
  // a–c moved down past both runs, and joins the same particles (c's moved down by b's particle count).
  const uint32_t acNow = ac - b.constraintCount - 1;
  const DistanceConstraintDef kept = world.distanceConstraint(acNow);
  EXPECT_EQ(kept.i, a.firstParticle + 8);
  EXPECT_EQ(kept.j, c.firstParticle + 8 - b.particleCount);
  EXPECT_EQ(kept.minLength, 2);
  // The attachment on b freed its handle (handed out again); the one on c follows its particle to its target.
  const uint32_t again = world.addAttachment({0, Vec3(0, 0, 0), {}});
  EXPECT_EQ(again, onB);
  world.removeAttachment(again);
  step(world, 120);
  const uint32_t pulled = c.firstParticle + 4 - b.particleCount;
  EXPECT_NEAR(world.positions()[3 * pulled + 1], 0.5f, 1e-3f);
  world.removeAttachment(onC);
}

TEST(BodyRemoval, ABadIndexIsRefusedAndChangesNothing) {
  const bool all[kBodies] = {true, true, true, true, true, true};
  World world;
  buildScene(world, all);
  step(world, 5);
  const std::vector<uint8_t> before = world.saveSnapshot();
  expectError([&] { world.removeBody(kBodies); }, {"removeBody", "body", "6"});
  EXPECT_TRUE(world.saveSnapshot() == before);
}

TEST(BodyRemoval, RemovingEveryBodyLeavesAnEmptyWorldThatStillSteps) {
  const bool all[kBodies] = {true, true, true, true, true, true};
  World world;
  buildScene(world, all);
  world.addAttachment({0, Vec3(0, 1, 0), {}});
  step(world, 3);
  while (world.bodyCount() > 0) world.removeBody(world.bodyCount() - 1);
  EXPECT_EQ(world.particleCount(), 0u);
  EXPECT_EQ(world.distanceConstraintCount(), 0u);
  EXPECT_EQ(world.constraintCount(), 0u);
  step(world, 3);
  ClothDef cloth;  // and takes new bodies
  EXPECT_EQ(world.addCloth(cloth).firstParticle, 0u);
  step(world, 3);
}
