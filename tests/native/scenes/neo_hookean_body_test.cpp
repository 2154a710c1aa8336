// Neo-Hookean soft bodies in a world: a bar under a small axial load stretches by F L / (E A) (linear elasticity,
// the analytic answer), a squashed or inverted block recovers its volume without inverting, and bad material
// values are rejected naming the field.
#include <gtest/gtest.h>

#include <string>

#include "constraints/tet_volume.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/tet_cube.h"
#include "native/long_scene.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

constexpr Real kLength = 1, kSide = 0.1f;

/// A bar along x, pinned at x = 0, with E and ν = 0 (so uniaxial stress is uniaxial strain: no lateral contraction
/// for the pinned end to resist). Returns the mean x displacement of the end face under a total axial `force`.
double barElongation(Real youngsModulus, Real force) {
  World world;
  SolverSettings s = scenes::freeSpace();
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 5;
  // XPBD's pre-stressed Neo-Hookean pair converges when α̃_D = 1/(μ V0 h²) stays above ~1.5 Σ w |∇C_D|² (see
  // constraints/neo_hookean.h); at 10 substeps this stiff a bar is at that edge (measured: 2 % too stiff).
  s.substeps = 20;
  s.linearDamping = 5;
  world.setSettings(s);
  const int cells[3] = {10, 1, 1};
  SoftBodyDef bar = scenes::tetBox(cells, Vec3(kLength, kSide, kSide), Vec3::Zero());
  bar.material = SoftMaterial::NeoHookean;
  bar.youngsModulus = youngsModulus;
  bar.poissonRatio = 0;
  bar.edgeConstraints = false;  // the material alone
  bar.density = 100;
  PinRegion start;
  start.centre = Vec3::Zero();
  start.halfExtents = Vec3(1e-4f, 1, 1);
  bar.pinRegions = {start};
  const BodyRange r = world.addSoftBody(bar);
  // Consistent nodal loads of a uniform traction: each end-face triangle gives a third of its share to each corner.
  const Real traction = force / (kSide * kSide);
  std::vector<Vec3> load(r.particleCount, Vec3::Zero());
  auto at = [&](uint32_t i) { return Vec3(bar.positions[3 * i], bar.positions[3 * i + 1], bar.positions[3 * i + 2]); };
  for (size_t t = 0; t < bar.tets.size(); t += 4) {
    for (int skip = 0; skip < 4; ++skip) {
      uint32_t f[3], n = 0;
      for (int k = 0; k < 4; ++k) if (k != skip) f[n++] = bar.tets[t + k];
      if (at(f[0]).x() < kLength || at(f[1]).x() < kLength || at(f[2]).x() < kLength) continue;
      const Real area = (at(f[1]) - at(f[0])).cross(at(f[2]) - at(f[0])).norm() / 2;
      for (uint32_t v : f) load[v].x() += traction * area / 3;
    }
  }
  for (uint32_t i = 0; i < r.particleCount; ++i) world.setExternalForce(r.firstParticle + i, load[i]);
  // Damping settles the bar, but it also scales the load by (1 - c h) at rest; so it is switched off before the
  // mean is taken over the last frames (what is left of the oscillation averages out).
  for (int frame = 0; frame < 300; ++frame) world.step(1.0f / 60);
  world.setLinearDamping(0);
  double sum = 0;
  int count = 0;
  for (int frame = 0; frame < 120; ++frame) {
    world.step(1.0f / 60);
    for (uint32_t i = 0; i < r.particleCount; ++i) {
      if (at(i).x() < kLength) continue;
      sum += world.positions()[3 * (r.firstParticle + i)] - kLength;
      ++count;
    }
  }
  return sum / count;
}

SoftBodyDef neoHookeanBlock(const Vec3& origin) {
  SoftBodyDef block = scenes::tetCube(3, 0.3f, origin);
  block.material = SoftMaterial::NeoHookean;
  block.youngsModulus = 2e4f;
  block.poissonRatio = 0.4f;
  block.edgeConstraints = false;
  return block;
}

double minTetVolume(const World& world, const SoftBodyDef& def, uint32_t first) {
  double lowest = 1e30;
  for (size_t t = 0; t < def.tets.size(); t += 4) {
    Vec3 q[4];
    for (int k = 0; k < 4; ++k) {
      const Real* x = world.positions() + 3 * size_t(first + def.tets[t + k]);
      q[k] = Vec3(x[0], x[1], x[2]);
    }
    lowest = std::min(lowest, double(tetVolume(q[0], q[1], q[2], q[3])));
  }
  return lowest;
}

}  // namespace

TEST(NeoHookeanBody, BarStretchesByForceLengthOverYoungsModulusArea) {
  PBD_LONG_SCENE();
  const Real E = 1e5f;
  for (Real force : {2.0f, 5.0f}) {  // strains of 0.2 % and 0.5 %
    const double expected = force * kLength / (E * kSide * kSide);
    const double measured = barElongation(E, force);
    EXPECT_NEAR(measured, expected, 0.02 * expected) << "force " << force << " N";
  }
}

TEST(NeoHookeanBody, SquashedBlockRecoversWithoutInverting) {
  World world;
  SolverSettings s = scenes::freeSpace();
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 2;
  world.setSettings(s);
  const SoftBodyDef block = neoHookeanBlock(Vec3(0, 0, 0));
  const BodyRange r = world.addSoftBody(block);
  const double rest = scenes::meshVolume(world, block, r.firstParticle);
  for (uint32_t i = 0; i < r.particleCount; ++i) {  // squash to 5 % of the height
    const Real* x = world.positions() + 3 * (r.firstParticle + i);
    world.setPosition(r.firstParticle + i, Vec3(x[0], 0.05f * x[1], x[2]));
  }
  ASSERT_LT(scenes::meshVolume(world, block, r.firstParticle), 0.06 * rest);
  double lowest = 1e30;
  for (int frame = 0; frame < 120; ++frame) {
    world.step(1.0f / 60);
    ASSERT_FALSE(world.lastStepReport().rolledBack);
    if (frame > 30) lowest = std::min(lowest, minTetVolume(world, block, r.firstParticle));
  }
  EXPECT_GT(lowest, 0) << "a tet inverted after the block had recovered";
  EXPECT_NEAR(scenes::meshVolume(world, block, r.firstParticle), rest, 0.05 * rest);
}

TEST(NeoHookeanBody, InvertedTetIsDrivenBack) {
  World world;
  SolverSettings s = scenes::freeSpace();
  s.method = Method::Xpbd;
  s.substeps = 10;
  world.setSettings(s);
  SoftBodyDef tet;
  tet.positions = {0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0, 0, 0, 0.1f};
  tet.tets = {0, 1, 2, 3};
  tet.material = SoftMaterial::NeoHookean;
  tet.youngsModulus = 1e4f;
  tet.poissonRatio = 0.3f;
  tet.edgeConstraints = false;
  const BodyRange r = world.addSoftBody(tet);
  world.setPosition(r.firstParticle + 3, Vec3(0.02f, 0.02f, -0.05f));  // pushed through the opposite face
  ASSERT_LT(minTetVolume(world, tet, r.firstParticle), 0);
  for (int frame = 0; frame < 60; ++frame) world.step(1.0f / 60);
  const double restVolume = 0.1 * 0.1 * 0.1 / 6;
  EXPECT_NEAR(minTetVolume(world, tet, r.firstParticle), restVolume, 0.05 * restVolume);
}

TEST(NeoHookeanBody, BadMaterialIsRejectedAndTheWorldIsUnchanged) {
  World world;
  const auto expectError = [&](SoftBodyDef def, const std::string& field) {
    try {
      world.addSoftBody(def);
      ADD_FAILURE() << "accepted a bad " << field;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("addSoftBody: " + field), std::string::npos) << e.what();
    }
  };
  for (Real nu : {0.5f, 0.7f, -1.0f, -2.0f}) {
    SoftBodyDef def = neoHookeanBlock(Vec3::Zero());
    def.poissonRatio = nu;
    expectError(def, "poissonRatio");
  }
  for (Real E : {0.0f, -1e4f, std::nanf("")}) {
    SoftBodyDef def = neoHookeanBlock(Vec3::Zero());
    def.youngsModulus = E;
    expectError(def, "youngsModulus");
  }
  SoftBodyDef def = neoHookeanBlock(Vec3::Zero());
  def.density = 0;
  expectError(def, "density");
  EXPECT_EQ(world.particleCount(), 0u);
  EXPECT_EQ(world.neoHookeanCount(), 0u);
}
