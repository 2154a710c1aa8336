// Bodies from render meshes: a welded UV sphere (three.js layout) holds together at its seam and poles; as a balloon
// it keeps or inflates its volume; unwelded, the same mesh splits along its seam (so the weld is what holds it);
// bad meshes are rejected naming the argument, with the world unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/sphere_meshes.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

World fallingWorld() {
  World world;
  SolverSettings s;
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 2;
  s.linearDamping = 0.5f;
  world.setSettings(s);
  return world;
}

TriangleMeshDef sphereDef(const scenes::UvSphere& sphere, Real pressure) {
  TriangleMeshDef def;
  def.positions.assign(sphere.positions.begin(), sphere.positions.end());
  def.triangles = sphere.triangles;
  def.mass = 0.5f;
  // A stretchy, limp skin: the volume constraint alone must hold the shape (a convex shell of rigid triangles
  // could not lose volume at all: Cauchy's rigidity theorem).
  def.stretch = Strength{0.1f, 0.2f};
  def.bend = Strength{1, 0};
  def.pressure = pressure;
  return def;
}

using scenes::positionOf;

/// The largest distance between render vertices that started at the same point (seam and pole copies).
Real largestSeamGap(const World& world, const scenes::UvSphere& sphere, const std::vector<uint32_t>& renderToParticle) {
  Real gap = 0;
  const size_t rows = sphere.grid.size();
  for (size_t r = 0; r < rows; ++r) {
    const auto& row = sphere.grid[r];
    const Vec3 first = positionOf(world, renderToParticle[row.front()]);
    gap = std::max(gap, (first - positionOf(world, renderToParticle[row.back()])).norm());
    if (r == 0 || r + 1 == rows) {
      for (uint32_t v : row) {
        const Vec3 d = positionOf(world, renderToParticle[v]) - positionOf(world, renderToParticle[row[0]]);
        gap = std::max(gap, d.norm());
      }
    }
  }
  return gap;
}

}  // namespace

TEST(MeshBody, WeldedUvSphereBecomesOneClosedBody) {
  World world;
  const scenes::UvSphere sphere = scenes::uvSphere(16, 12);
  const MeshBody body = world.addTriangleMesh(sphereDef(sphere, 1));
  EXPECT_EQ(body.range.particleCount, 16u * 11u + 2u) << "seam column and pole copies welded";
  EXPECT_EQ(body.renderToParticle.size(), sphere.positions.size() / 3);
  EXPECT_EQ(body.renderToParticle[sphere.grid[5][0]], body.renderToParticle[sphere.grid[5][16]]);
  ASSERT_EQ(world.surfaceVolumeCount(), 1u);
  // A UV sphere of radius 1 with 16 x 12 facets encloses a little less than 4/3 π.
  EXPECT_LT(world.surfaceRestVolume(0), 4.0f / 3.0f * Real(M_PI));
  EXPECT_GT(world.surfaceRestVolume(0), 0.9f * 4.0f / 3.0f * Real(M_PI));
  EXPECT_EQ(world.surfaceVolume(0), world.surfaceRestVolume(0));
  // Every edge of a closed mesh has two triangles: one hinge per edge, E = 3F/2.
  EXPECT_EQ(body.range.dihedralCount, sphere.triangles.size() / 2);
}

TEST(MeshBody, BalloonDroppedOnTheGroundKeepsItsVolumeAndItsSeam) {
  World world = fallingWorld();
  const float centre[3] = {0, 0.6f, 0};
  const scenes::UvSphere sphere = scenes::uvSphere(24, 16, true, 0.5f, centre);
  const MeshBody body = world.addTriangleMesh(sphereDef(sphere, 1));
  for (int frame = 0; frame < 180; ++frame) world.step(1.0f / 60);
  EXPECT_NEAR(world.surfaceVolume(0), world.surfaceRestVolume(0), 0.02f * world.surfaceRestVolume(0));
  EXPECT_EQ(largestSeamGap(world, sphere, body.renderToParticle), 0);
  Real lowest = 1e9f;
  for (uint32_t i = 0; i < body.range.particleCount; ++i)
    lowest = std::min(lowest, positionOf(world, body.range.firstParticle + i).y());
  EXPECT_GT(lowest, -0.01f) << "the balloon should rest on the ground";
}

TEST(MeshBody, WithoutPressureTheSameShellLosesVolume) {
  // The control for the test above: the volume constraint is what keeps the balloon full. Here it is only measured
  // (an infinitely soft volume constraint does nothing).
  World world = fallingWorld();
  const float centre[3] = {0, 0.6f, 0};
  const scenes::UvSphere sphere = scenes::uvSphere(24, 16, true, 0.5f, centre);
  TriangleMeshDef def = sphereDef(sphere, 1);
  def.volume = Strength{1e30f, 0};
  world.addTriangleMesh(def);
  for (int frame = 0; frame < 180; ++frame) world.step(1.0f / 60);
  EXPECT_LT(world.surfaceVolume(0), 0.9f * world.surfaceRestVolume(0));
}

TEST(MeshBody, PressureInflatesTheBalloon) {
  World world;
  SolverSettings s = scenes::freeSpace();
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.linearDamping = 2;
  world.setSettings(s);
  const scenes::UvSphere sphere = scenes::uvSphere(16, 12, true, 0.5f);
  const TriangleMeshDef def = sphereDef(sphere, 1.5f);
  world.addTriangleMesh(def);
  for (int frame = 0; frame < 120; ++frame) world.step(1.0f / 60);
  EXPECT_NEAR(world.surfaceVolume(0), 1.5f * world.surfaceRestVolume(0), 0.03f * world.surfaceRestVolume(0));
}

TEST(MeshBody, UnweldedSphereSplitsAlongItsSeam) {
  // The control for the seam test: the same render mesh without welding is a pile of patches.
  World world = fallingWorld();
  const float centre[3] = {0, 0.6f, 0};
  const scenes::UvSphere sphere = scenes::uvSphere(24, 16, true, 0.5f, centre);
  TriangleMeshDef def = sphereDef(sphere, 0);
  def.weldTolerance = -1;
  const MeshBody body = world.addTriangleMesh(def);
  // Every render vertex is its own particle, except one copy of each pole that no triangle uses.
  EXPECT_EQ(body.range.particleCount, sphere.positions.size() / 3 - 2);
  for (int frame = 0; frame < 180; ++frame) world.step(1.0f / 60);
  EXPECT_GT(largestSeamGap(world, sphere, body.renderToParticle), 0.01f);
}

TEST(MeshBody, BadMeshesAreRejectedNamingTheArgument) {
  World world;
  const scenes::UvSphere sphere = scenes::uvSphere(8, 6);
  const auto expectError = [&](const TriangleMeshDef& def, const std::string& needle) {
    try {
      world.addTriangleMesh(def);
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  TriangleMeshDef def = sphereDef(sphere, 1);
  def.positions[7] = std::nanf("");
  expectError(def, "addTriangleMesh: positions");
  def = sphereDef(sphere, 1);
  def.triangles[5] = 9999;
  expectError(def, "addTriangleMesh: triangles[5]");
  def = sphereDef(sphere, 1);
  def.triangles.resize(def.triangles.size() - 3 * 8);  // a hole: open, so no volume
  expectError(def, "addTriangleMesh:");
  def = sphereDef(sphere, 1);
  def.weldTolerance = -0.5f;
  expectError(def, "addTriangleMesh: weldTolerance");
  def = sphereDef(sphere, 1);
  def.mass = 0;
  expectError(def, "addTriangleMesh: mass");
  def = sphereDef(sphere, 1);
  def.pressure = -1;
  expectError(def, "addTriangleMesh: pressure");
  def = sphereDef(sphere, 1);
  def.triangles.clear();
  expectError(def, "addTriangleMesh: triangles");
  def = sphereDef(sphere, 1);
  def.pinned = {100000};
  expectError(def, "addTriangleMesh: pinned[0]");
  EXPECT_EQ(world.particleCount(), 0u);
  EXPECT_EQ(world.surfaceVolumeCount(), 0u);
}

TEST(MeshBody, OnlyCompressionResistingBalloonMayGrowButNotShrink) {
  // Pull every particle outwards and then squeeze them inwards: the bilateral balloon returns to its rest volume both
  // times; the unilateral one keeps the extra volume but is pushed back up from the squeeze.
  for (bool unilateral : {false, true}) {
    World world;
    SolverSettings s = scenes::freeSpace();
    s.method = Method::Xpbd;
    world.setSettings(s);
    TriangleMeshDef def = sphereDef(scenes::uvSphere(16, 12, true, 0.5f), 1);
    def.volumeOnlyResistsCompression = unilateral;
    def.stretch = Strength{100, 0};  // a skin that hardly pulls back: the volume constraint alone decides
    const MeshBody body = world.addTriangleMesh(def);
    const Real rest = world.surfaceRestVolume(0);
    const auto scaleBy = [&](Real factor) {
      for (uint32_t i = 0; i < body.range.particleCount; ++i) world.setPosition(i, factor * positionOf(world, i));
    };
    scaleBy(1.1f);  // +33 % volume
    for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
    if (unilateral) EXPECT_GT(world.surfaceVolume(0), 1.2f * rest);
    else EXPECT_NEAR(world.surfaceVolume(0), rest, 0.02f * rest);
    scaleBy(0.7f);  // well below the rest volume either way
    for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
    EXPECT_GT(world.surfaceVolume(0), 0.98f * rest) << (unilateral ? "unilateral" : "bilateral");
  }
}

TEST(MeshBody, ADoubledFaceMakesNoHingeAndTheWorldRoundTripsThroughASnapshot) {
  // Triangles (0 1 2) and (1 0 2) share all three vertices: no dihedral between them (its wings would be one
  // particle, which loadSnapshot refuses); the real hinge along 1-2 with triangle (1 3 2) stays.
  World world;
  TriangleMeshDef def;
  def.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  def.triangles = {0, 1, 2, 1, 0, 2, 1, 3, 2};
  world.addTriangleMesh(def);
  EXPECT_EQ(world.dihedralConstraintCount(), 0u);  // 0-1 and 0-2 are doubled-face edges, 1-2 has three triangles
  const std::vector<uint8_t> blob = world.saveSnapshot();
  World copy;
  copy.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(copy.saveSnapshot(), blob);
  world.removeBody(0);
  EXPECT_EQ(world.particleCount(), 0u);
}
