// The continuous self-collision thickness bound: thickness < (shortest rest edge) / √2 whenever self-collision is
// enabled (src/world/cloth_self_collision.cpp checkSelfCollisionThickness). On a grid cloth of spacing s that is the
// distance s/√2 from a vertex to the nearest non-adjacent triangle: a thicker layer pushes the flat cloth apart at
// rest. Checked at body creation, in setContinuousSelfCollision and when loading a snapshot; refused calls change
// nothing; a disabled surface is not checked (the default thickness on a fine cloth stays legal until switched on).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/scenes.h"

using namespace pbd;

namespace {

/// A flat 5x5 grid cloth of spacing 0.01 m: shortest rest edge 0.01, bound 0.01/√2 = 0.00707 m.
ClothDef fineCloth(bool enabled, Real thickness) {
  ClothDef c;
  c.columns = c.rows = 5;
  c.spacing = 0.01f;
  c.origin = Vec3(0, 0.5f, 0);
  c.continuousSelfCollision = {enabled, thickness};
  return c;
}

const Real kBound = Real(0.01 / std::sqrt(2.0));

}  // namespace

TEST(SelfCollisionThickness, BodyCreationRefusesAThicknessAtOrAboveTheBound) {
  World world;
  for (Real bad : {kBound * 1.01f, 0.01f, 0.05f}) {
    expectError([&] { world.addCloth(fineCloth(true, bad)); },
                {"addCloth: continuousSelfCollision.thickness must be < the shortest rest edge / sqrt(2) = 0.00707"});
  }
  // A mesh body: a right triangle with legs 1 and 2: shortest edge 1, bound 0.707.
  TriangleMeshDef mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 0, 0, 2};
  mesh.triangles = {0, 1, 2};
  mesh.continuousSelfCollision = {true, 0.75f};
  expectError([&] { world.addTriangleMesh(mesh); }, {"addTriangleMesh: continuousSelfCollision.thickness", "0.707"});
  EXPECT_EQ(world.bodyCount(), 0u);
  EXPECT_EQ(world.particleCount(), 0u);
  mesh.continuousSelfCollision.thickness = 0.7f;
  world.addTriangleMesh(mesh);
  world.addCloth(fineCloth(true, kBound * 0.99f));  // just below: accepted
  world.addCloth(fineCloth(false, 0.05f));          // disabled: not checked
  EXPECT_EQ(world.bodyCount(), 3u);
}

TEST(SelfCollisionThickness, TheSetterRefusesItAndChangesNothing) {
  World world;
  const BodyRange cloth = world.addCloth(fineCloth(false, 0.005f));
  const uint64_t before = scenes::stateHash(world);
  expectError([&] { world.setContinuousSelfCollision(cloth.body, {true, 0.008f}); },
              {"setContinuousSelfCollision: thickness must be < the shortest rest edge / sqrt(2) = 0.00707", "0.008"});
  EXPECT_FALSE(world.continuousSelfCollision(cloth.body).enabled);
  EXPECT_EQ(world.continuousSelfCollision(cloth.body).thickness, 0.005f);
  EXPECT_EQ(scenes::stateHash(world), before);
  world.setContinuousSelfCollision(cloth.body, {false, 0.008f});  // off: any positive thickness
  world.setContinuousSelfCollision(cloth.body, {true, 0.007f});
  EXPECT_TRUE(world.continuousSelfCollision(cloth.body).enabled);
  EXPECT_EQ(world.continuousSelfCollision(cloth.body).thickness, 0.007f);
}

TEST(SelfCollisionThickness, AFlatClothJustBelowTheBoundStaysFlat) {
  // Why the bound: below it, a flat cloth at rest has no self-contact pushing it apart.
  World world;
  SolverSettings s;
  s.gravity = Vec3::Zero();
  world.setSettings(s);
  world.addCloth(fineCloth(true, kBound * 0.95f));
  const std::vector<Real> x0(world.positions(), world.positions() + 3 * world.particleCount());
  for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
  for (size_t k = 0; k < x0.size(); ++k) EXPECT_NEAR(world.positions()[k], x0[k], 1e-6f) << k;
}
