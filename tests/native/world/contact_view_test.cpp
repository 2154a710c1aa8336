// World::contacts: the debug view of the last substep's contacts. A particle resting on a sphere has its contact
// point on the sphere's surface with a radial normal; one on the ground, its foot on the plane with +Y.
#include <gtest/gtest.h>

#include <cmath>

#include "pbd/world.h"

using namespace pbd;

TEST(ContactView, AParticleRestingOnASphereHasItsContactOnTheSurfaceWithARadialNormal) {
  const Vec3 centre(0.2f, 0.1f, -0.3f);
  const Real radius = 0.5f, thickness = 0.02f;
  World world;
  SolverSettings s;
  s.ground.enabled = false;
  world.setSettings(s);
  ColliderDef ball;
  ball.position = centre;
  ball.radius = radius;
  ball.thickness = thickness;
  ball.friction = 1;  // holds it a little off the top (slope 0.1)
  world.addCollider(ball);
  world.addParticle(centre + Vec3(0.05f, radius + 0.2f, 0.02f), 1);
  for (int f = 0; f < 120; ++f) world.step(1.0f / 60);
  ASSERT_GE(world.contactCount(), 1u);
  const std::span<const Real> view = world.contacts();
  ASSERT_EQ(view.size(), 6 * size_t(world.contactCount()));
  const Vec3 x(world.positions()[0], world.positions()[1], world.positions()[2]);
  for (uint32_t k = 0; k < world.contactCount(); ++k) {
    const Vec3 point(view[6 * k], view[6 * k + 1], view[6 * k + 2]);
    const Vec3 normal(view[6 * k + 3], view[6 * k + 4], view[6 * k + 5]);
    EXPECT_NEAR((point - centre).norm(), radius, 1e-5f);                      // on the surface
    EXPECT_NEAR((normal - (point - centre).normalized()).norm(), 0, 1e-5f);  // radial, unit
    EXPECT_NEAR((x - point).norm(), thickness, 1e-4f);                       // the particle rests a thickness out
    EXPECT_NEAR((x - point).normalized().dot(normal), 1, 1e-5f);             // along the normal
  }
}

TEST(ContactView, AParticleOnTheGroundHasItsFootOnThePlane) {
  World world;
  SolverSettings s;
  s.ground.height = -0.3f;
  s.ground.thickness = 0.05f;
  world.setSettings(s);
  world.addParticle(Vec3(0.4f, 0.5f, 0.7f), 1);
  world.addParticle(Vec3(2, 5, 0), 1);  // still falling: no contact
  for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
  ASSERT_EQ(world.contactCount(), 1u);
  const std::span<const Real> view = world.contacts();
  ASSERT_EQ(view.size(), 6u);
  EXPECT_EQ(view[0], world.positions()[0]);
  EXPECT_EQ(view[1], -0.3f);
  EXPECT_EQ(view[2], world.positions()[2]);
  EXPECT_EQ(view[3], 0);
  EXPECT_EQ(view[4], 1);
  EXPECT_EQ(view[5], 0);
  EXPECT_NEAR(world.positions()[1], -0.3f + 0.05f, 1e-6f);
}
