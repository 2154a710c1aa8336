// Pin regions: a box or sphere pins exactly the particles inside it (as built), those particles stay put, and a
// malformed region is rejected naming its field.
#include <gtest/gtest.h>

#include <string>

#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/tet_cube.h"

using namespace pbd;

namespace {

ClothDef horizontalCloth() {
  ClothDef c;
  c.columns = 9;
  c.rows = 6;
  c.spacing = 0.1f;
  c.origin = Vec3(0, 1, 0);
  c.axisU = Vec3(1, 0, 0);
  c.axisV = Vec3(0, 0, 1);
  return c;
}

}  // namespace

TEST(PinRegion, BoxPinsTheParticlesInsideItAndTheyStayPut) {
  World world;
  ClothDef c = horizontalCloth();
  PinRegion firstRow;  // the row z = 0: a thin slab around it
  firstRow.centre = Vec3(0.4f, 1, 0);
  firstRow.halfExtents = Vec3(1, 0.01f, 0.01f);
  c.pinRegions = {firstRow};
  c.pinned = {53};  // plus one far corner by index
  const BodyRange r = world.addCloth(c);
  for (uint32_t i = 0; i < r.particleCount; ++i) {
    const bool expected = i < 9 || i == 53;
    EXPECT_EQ(world.inverseMasses()[r.firstParticle + i] == 0, expected) << "particle " << i;
  }
  for (int s = 0; s < 30; ++s) world.step(1.0f / 60);
  for (uint32_t i = 0; i < 9; ++i) EXPECT_EQ(world.positions()[3 * i + 1], 1.0f) << "pinned particle " << i << " moved";
  EXPECT_LT(world.positions()[3 * 30 + 1], 0.99f) << "a free particle should have fallen";
}

TEST(PinRegion, SpherePinsSoftBodyVertices) {
  World world;
  SoftBodyDef def = scenes::tetCube(2, 0.5f, Vec3(0, 1, 0));
  PinRegion ball;
  ball.shape = PinRegion::Shape::Sphere;
  ball.centre = Vec3(0, 1, 0);  // a corner of the cube
  ball.radius = 0.01f;
  def.pinRegions = {ball};
  const BodyRange r = world.addSoftBody(def);
  int pinned = 0;
  for (uint32_t i = 0; i < r.particleCount; ++i) {
    const Real* x = world.positions() + 3 * (r.firstParticle + i);
    const bool atCorner = Vec3(x[0], x[1] - 1, x[2]).norm() <= 0.01f;
    EXPECT_EQ(world.inverseMasses()[r.firstParticle + i] == 0, atCorner) << "vertex " << i;
    pinned += atCorner;
  }
  EXPECT_EQ(pinned, 1);
}

TEST(PinRegion, MalformedRegionsAreRejectedNamingTheField) {
  World world;
  const auto expectError = [&](PinRegion region, const std::string& field) {
    ClothDef c = horizontalCloth();
    c.pinRegions = {PinRegion{}, region};
    try {
      world.addCloth(c);
      ADD_FAILURE() << "accepted a bad " << field;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("pinRegions[1]." + field), std::string::npos) << e.what();
    }
  };
  PinRegion negativeRadius;
  negativeRadius.shape = PinRegion::Shape::Sphere;
  negativeRadius.radius = -1;
  expectError(negativeRadius, "radius");
  PinRegion nanCentre;
  nanCentre.centre.x() = std::nanf("");
  expectError(nanCentre, "centre.x");
  PinRegion negativeBox;
  negativeBox.halfExtents.y() = -0.5f;
  expectError(negativeBox, "halfExtents.y");
  EXPECT_EQ(world.particleCount(), 0u);
}
