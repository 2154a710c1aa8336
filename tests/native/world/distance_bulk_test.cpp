// World::addDistanceConstraints: a mesh's edges in one call are the constraints added one by one (the same snapshot
// bytes, so the same colours and steps), at given rest lengths or the current ones; a bad element is named and adds
// nothing.
#include <gtest/gtest.h>

#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"

using namespace pbd;

namespace {

/// A 20 x 20 grid of particles in the XZ plane at 1 m height, two corners pinned, and its grid edges as pairs.
std::vector<uint32_t> gridWorld(World& world) {
  constexpr int n = 20;
  std::vector<Real> xyz;
  std::vector<Real> w;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) xyz.insert(xyz.end(), {Real(c) * 0.05f, 1, Real(r) * 0.05f}), w.push_back(1);
  w[0] = w[n - 1] = 0;
  world.addParticles(xyz.data(), w.data(), n * n);
  std::vector<uint32_t> pairs;
  for (uint32_t r = 0; r < n; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      if (c + 1 < n) pairs.insert(pairs.end(), {r * n + c, r * n + c + 1});
      if (r + 1 < n) pairs.insert(pairs.end(), {r * n + c, (r + 1) * n + c});
    }
  }
  return pairs;
}

}  // namespace

TEST(DistanceBulk, OneCallEqualsOneCallPerConstraint) {
  for (bool givenLengths : {false, true}) {
    World bulk, single;
    const std::vector<uint32_t> pairs = gridWorld(bulk);
    gridWorld(single);
    std::vector<Real> rest;
    if (givenLengths) rest.assign(pairs.size() / 2, 0.04f);  // shorter than the spacing: the grid contracts
    const Strength strength{1e-6f, 1};
    single.addDistanceConstraint({0, 1, -1, -1, strength});  // one before, so the bulk's first index is 1
    bulk.addDistanceConstraint({0, 1, -1, -1, strength});
    EXPECT_EQ(bulk.addDistanceConstraints(pairs, rest, strength), 1u);
    for (size_t k = 0; k < pairs.size() / 2; ++k) {
      const Real length = givenLengths ? 0.04f : Real(-1);
      single.addDistanceConstraint({pairs[2 * k], pairs[2 * k + 1], length, length, strength});
    }
    EXPECT_TRUE(bulk.saveSnapshot() == single.saveSnapshot()) << givenLengths;
    for (int f = 0; f < 30; ++f) bulk.step(1.0f / 60), single.step(1.0f / 60);
    EXPECT_TRUE(bulk.saveSnapshot() == single.saveSnapshot()) << givenLengths;
    EXPECT_FLOAT_EQ(bulk.distanceConstraint(5).minLength, givenLengths ? 0.04f : 0.05f);
  }
}

TEST(DistanceBulk, ABadElementIsNamedAndAddsNothing) {
  World world;
  std::vector<uint32_t> pairs = gridWorld(world);
  const std::vector<uint8_t> before = world.saveSnapshot();
  auto refuse = [&](std::vector<uint32_t> p, std::vector<Real> rest, Strength s,
                    std::initializer_list<const char*> fragments) {
    expectError([&] { world.addDistanceConstraints(p, rest, s); }, fragments);
    EXPECT_TRUE(world.saveSnapshot() == before);
  };
  std::vector<uint32_t> bad = pairs;
  bad[41] = 400;
  refuse(bad, {}, {}, {"addDistanceConstraints: pairs[41] is out of range [0, 400) (got 400)"});
  bad = pairs;
  bad[7] = bad[6];
  refuse(bad, {}, {}, {"pairs[7] must differ from the particle before it"});
  refuse({0, 1, 2}, {}, {}, {"pairs length must be even", "(got 3)"});
  refuse(pairs, {0.1f}, {}, {"restLengths length must equal the pair count 760", "(got 1)"});
  std::vector<Real> rest(pairs.size() / 2, 0.05f);
  rest[9] = -1;
  refuse(pairs, rest, {}, {"restLengths[9] must be >= 0 (got -1)"});
  refuse(pairs, {}, {-1, 1}, {"addDistanceConstraints", "compliance"});
}
