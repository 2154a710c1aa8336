// The end-to-end soft body: the Stanford bunny's surface, tetrahedralized inside the library, dropped on the
// ground as a soft body; it comes to rest and keeps its volume within 2 % after 10 s of simulated time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "pbd/tetrahedralize.h"
#include "pbd/world.h"
#include "scenes/bunny.h"
#include "scenes/tet_cube.h"
#include "native/long_scene.h"

using namespace pbd;

TEST(SoftBunny, DroppedOnTheGroundComesToRestAndKeepsItsVolume) {
  PBD_LONG_SCENE();
  const SurfaceMesh surface = scenes::bunny(0.05f, 0.3f);  // about 0.5 m tall, 0.3 m above the ground
  const TetrahedralizeResult mesh = tetrahedralize(surface.positions, surface.triangles, {.resolution = 10});
  World world;
  SolverSettings s;
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 1;
  s.linearDamping = 0.5f;
  world.setSettings(s);
  SoftBodyDef def;
  def.positions = mesh.positions;
  def.tets = mesh.tets;
  def.density = 500;
  def.edges = Strength{1e-6f, 1};
  def.volume = Strength{0, 1};
  const BodyRange r = world.addSoftBody(def);
  const double rest = scenes::meshVolume(world, def, r.firstParticle);
  double fastest = 0;
  // 13 s, the last one checked: since static friction holds at position level its feet stick instead of slipping, so
  // the soft body's elastic wobble is damped by the linear damping alone. It decays steadily (largest speed per
  // second: 0.041 m/s in the 10th, 0.021 in the 12th, 0.010 in the 14th, 0.002 in the 20th), just later.
  for (int frame = 0; frame < 780; ++frame) {
    world.step(1.0f / 60);
    ASSERT_FALSE(world.lastStepReport().rolledBack) << "frame " << frame;
    if (frame < 720) continue;
    for (uint32_t i = 0; i < r.particleCount; ++i) {
      const Real* v = world.velocities() + 3 * size_t(r.firstParticle + i);
      fastest = std::max(fastest, double(Vec3(v[0], v[1], v[2]).norm()));
    }
  }
  EXPECT_NEAR(scenes::meshVolume(world, def, r.firstParticle), rest, 0.02 * rest);
  EXPECT_LT(fastest, 0.02) << "m/s over the last second: the bunny should be at rest";
  Real lowest = 1e9f;
  for (uint32_t i = 0; i < r.particleCount; ++i) lowest = std::min(lowest, world.positions()[3 * size_t(r.firstParticle + i) + 1]);
  EXPECT_GT(lowest, -0.005f);
  EXPECT_LT(lowest, 0.01f) << "it should lie on the ground";
}

TEST(SoftBunny, NeoHookeanBunnyAlsoSettles) {
  PBD_LONG_SCENE();
  const SurfaceMesh surface = scenes::bunny(0.05f, 0.1f);
  const TetrahedralizeResult mesh = tetrahedralize(surface.positions, surface.triangles, {.resolution = 8});
  World world;
  SolverSettings s;
  s.method = Method::Xpbd;
  s.substeps = 20;
  s.linearDamping = 1;
  world.setSettings(s);
  SoftBodyDef def;
  def.positions = mesh.positions;
  def.tets = mesh.tets;
  def.density = 500;
  def.material = SoftMaterial::NeoHookean;
  def.youngsModulus = 1e5f;
  def.poissonRatio = 0.45f;
  def.edgeConstraints = false;
  const BodyRange r = world.addSoftBody(def);
  const double rest = scenes::meshVolume(world, def, r.firstParticle);
  for (int frame = 0; frame < 180; ++frame) {
    world.step(1.0f / 60);
    ASSERT_FALSE(world.lastStepReport().rolledBack) << "frame " << frame;
  }
  // ν = 0.45 is nearly incompressible: a resting bunny loses little volume under its own weight.
  EXPECT_NEAR(scenes::meshVolume(world, def, r.firstParticle), rest, 0.03 * rest);
}
