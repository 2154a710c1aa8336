// World::addTetVolumeConstraints: a soft body of one's own topology (addParticles, addDistanceConstraints for the tet
// edges, addTetVolumeConstraints for the tets) is the body addSoftBody builds from the same tets (the same bits after
// a fall onto the ground), and a bad tet is named and adds nothing.
#include <gtest/gtest.h>

#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"

using namespace pbd;

TEST(TetVolumeBulk, YourOwnTetsAreTheSoftBodyAddSoftBodyBuilds) {
  for (const Strength volume : {Strength{0, 1}, Strength{1e-6f, 1}}) {
    SoftBodyDef def = scenes::tetCube(3, 0.3f, Vec3(0, 0.5f, 0));
    def.volume = volume;
    def.edges = {1e-4f, 1};  // soft edges: the volumes carry the shape, so the test sees them
    World built, own, edgesOnly;
    const BodyRange body = built.addSoftBody(def);
    ASSERT_EQ(built.tetVolumeCount(), def.tets.size() / 4);
    // The same particles with the masses addSoftBody gave them, its edges in its order, and the tets.
    const uint32_t n = built.particleCount();
    own.addParticles(built.positions(), built.inverseMasses(), n);
    std::vector<uint32_t> pairs;
    std::vector<Real> rest;
    for (uint32_t k = 0; k < built.distanceConstraintCount(); ++k) {
      const DistanceConstraintDef d = built.distanceConstraint(k);
      pairs.insert(pairs.end(), {d.i, d.j});
      rest.push_back(d.minLength);
    }
    for (World* w : {&own, &edgesOnly}) {
      if (w == &edgesOnly) w->addParticles(built.positions(), built.inverseMasses(), n);
      w->addDistanceConstraints(pairs, rest, def.edges);
    }
    EXPECT_EQ(own.addTetVolumeConstraints(def.tets, volume), 0u);
    EXPECT_EQ(own.tetVolumeCount(), built.tetVolumeCount());
    EXPECT_EQ(body.particleCount, n);
    for (int f = 0; f < 60; ++f) built.step(1.0f / 60), own.step(1.0f / 60), edgesOnly.step(1.0f / 60);
    EXPECT_EQ(scenes::stateHash(own), scenes::stateHash(built)) << "volume compliance " << volume.compliance;
    EXPECT_NE(scenes::stateHash(edgesOnly), scenes::stateHash(built));  // the tets did act
    // And the tets held it: the cube fell onto the ground and stands there (not squashed flat).
    Real top = -1;
    for (uint32_t i = 0; i < n; ++i) top = std::max(top, own.positions()[3 * i + 1]);
    EXPECT_GT(top, 0.25f);
  }
}

TEST(TetVolumeBulk, ABadTetIsNamedAndAddsNothing) {
  World world;
  const SoftBodyDef def = scenes::tetCube(1, 0.3f, Vec3(0, 1, 0));
  std::vector<Real> w(def.positions.size() / 3, 1);
  world.addParticles(def.positions.data(), w.data(), w.size());
  const uint32_t n = world.particleCount();
  auto refuse = [&](std::vector<uint32_t> tets, Strength s, std::initializer_list<const char*> fragments) {
    expectError([&] { world.addTetVolumeConstraints(tets, s); }, fragments);
    EXPECT_EQ(world.tetVolumeCount(), 0u);
  };
  std::vector<uint32_t> good(def.tets.begin(), def.tets.end());
  std::vector<uint32_t> inverted = good;
  std::swap(inverted[4 * 2 + 2], inverted[4 * 2 + 3]);  // tet 2 turned inside out
  refuse(inverted, {0, 1}, {"addTetVolumeConstraints: tets[2] is inverted"});
  std::vector<uint32_t> outside = good;
  outside[4 * 1 + 3] = n;
  refuse(outside, {0, 1}, {"addTetVolumeConstraints: tets[1][3] is out of range [0, 8) (got 8)"});
  refuse({0, 1, 2}, {0, 1}, {"addTetVolumeConstraints: tets length must be a multiple of 4"});
  refuse({0, 1, 2, 0}, {0, 1}, {"addTetVolumeConstraints: tets[0] repeats a vertex"});
  refuse(good, {-1, 1}, {"addTetVolumeConstraints", "compliance"});
  EXPECT_EQ(world.addTetVolumeConstraints(good, {0, 1}), 0u);
  EXPECT_EQ(world.tetVolumeCount(), def.tets.size() / 4);
  EXPECT_EQ(world.addTetVolumeConstraints(good, {0, 1}), def.tets.size() / 4);  // the next call's first index
}
