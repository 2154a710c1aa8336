// The cloth builder: the right edges with the right rest lengths, emitted as independent sets, and a large rigid
// cloth built from it stays bounded (the ordering is what keeps it from exploding).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "pbd/world.h"
#include "scenes/scenes.h"
#include "bodies/body_builders.h"

using namespace pbd;

TEST(ClothBuilder, EdgeCountsAndRestLengths) {
  ClothDef c;
  c.columns = 7;
  c.rows = 5;
  c.spacing = 0.2f;
  const BodyBlueprint b = buildCloth(c);
  const size_t C = 7, R = 5;
  const size_t stretch = (C - 1) * R + C * (R - 1), shear = 2 * (C - 1) * (R - 1), bend = (C - 2) * R + C * (R - 2);
  ASSERT_EQ(b.constraints.size(), stretch + shear + bend);
  size_t nStretch = 0, nShear = 0, nBend = 0;
  for (const DistanceConstraintDef& d : b.constraints) {
    const Real len = d.minLength;
    EXPECT_EQ(d.minLength, d.maxLength);
    if (std::abs(len - 0.2f) < 1e-5f) ++nStretch;
    else if (std::abs(len - 0.2f * std::sqrt(2.0f)) < 1e-5f) ++nShear;
    else if (std::abs(len - 0.4f) < 1e-5f) ++nBend;
    else ADD_FAILURE() << "unexpected rest length " << len;
  }
  EXPECT_EQ(nStretch, stretch);
  EXPECT_EQ(nShear, shear);
  EXPECT_EQ(nBend, bend);
}

TEST(ClothBuilder, ConstraintsComeInIndependentSets) {
  // Split the sequence into maximal runs in which no particle repeats: there must be few of them (2 per family).
  ClothDef c;
  c.columns = c.rows = 16;
  const BodyBlueprint b = buildCloth(c);
  int runs = 1;
  std::set<uint32_t> used;
  for (const DistanceConstraintDef& d : b.constraints) {
    if (used.count(d.i) || used.count(d.j)) {
      ++runs;
      used.clear();
    }
    used.insert(d.i);
    used.insert(d.j);
  }
  EXPECT_LE(runs, 12);
}

TEST(ClothBuilder, LargeRigidHangingClothStaysBounded) {
  World world;
  scenes::hangingCloth(world, 64);
  for (int f = 0; f < 300; ++f) {
    world.step(1.0f / 60);
    float vmax = 0;
    for (uint32_t k = 0; k < 3 * world.particleCount(); ++k) {
      ASSERT_TRUE(std::isfinite(world.positions()[k])) << "frame " << f;
      vmax = std::max(vmax, std::abs(world.velocities()[k]));
    }
    // Free fall from the pins' height gives at most sqrt(2 g * 1.5 m) = 5.4 m/s; allow whip-like edges.
    ASSERT_LT(vmax, 20) << "frame " << f;
  }
}
