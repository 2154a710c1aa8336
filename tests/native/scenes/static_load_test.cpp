// XPBD's static answer to a known load, for the tet volume and the dihedral bending constraints (the distance
// constraint's is the spring test): at rest, the load balances the constraint force ∇C · C/α, so
//   tet volume, apex pushed down by F onto a pinned base of area A:   V - V0 = -3 F α / A   (∂V/∂h = A/3)
//   dihedral hinge, free wing at distance r from the axis, torque F r:   φ - φ0 = F r α       (|∂φ/∂x| = 1/r)
// both to first order in the deflection. The mean over an undamped tail is the equilibrium (see the spring test).
// The loaded particles are light, so that a substep's displacement h² w F stays far above a float ulp of the
// position (with a 0.1 kg apex it is ~5e-9 m at 10 substeps, below ulp(0.2 m), and the answer came out 6 % off).
#include <gtest/gtest.h>

#include <cmath>

#include "constraints/dihedral.h"
#include "constraints/tet_volume.h"
#include "pbd/world.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

World quietWorld() {
  World world;
  SolverSettings s = scenes::freeSpace();
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.linearDamping = 5;
  world.setSettings(s);
  return world;
}

using scenes::positionOf;

/// Settles with damping, then averages `measure` over an undamped tail.
template <class F>
double settledMean(World& world, F measure) {
  for (int f = 0; f < 240; ++f) world.step(1.0f / 60);
  world.setLinearDamping(0);
  double sum = 0;
  for (int f = 0; f < 120; ++f) {
    world.step(1.0f / 60);
    sum += measure();
  }
  return sum / 120;
}

}  // namespace

TEST(StaticLoad, TetVolumeUnderAnApexLoad) {
  const Real xyz[12] = {0, 0, 0, 0.2f, 0, 0, 0, 0, 0.2f, 0.05f, 0.2f, 0.05f};  // base in y = 0, apex above
  SoftBodyDef def;  // the volume constraint alone: no edge constraints
  def.positions.assign(xyz, xyz + 12);
  def.tets = {0, 2, 1, 3};
  const Real alpha = 1e-4f, force = 2e-3f;
  def.volume = Strength{alpha, 1};
  def.edgeConstraints = false;
  def.pinned = {0, 1, 2};
  World world = quietWorld();
  const BodyRange r = world.addSoftBody(def);
  world.setInverseMass(r.firstParticle + 3, 1e4f);
  world.setExternalForce(r.firstParticle + 3, Vec3(0, -force, 0));
  const Real area = 0.2f * 0.2f / 2;
  const double rest = tetVolume(positionOf(world, 0), positionOf(world, 2), positionOf(world, 1), positionOf(world, 3));
  const double change = settledMean(world, [&] {
    return tetVolume(positionOf(world, 0), positionOf(world, 2), positionOf(world, 1), positionOf(world, 3)) - rest;
  });
  const double expected = -3.0 * force * alpha / area;
  ASSERT_LT(std::abs(expected), 0.05 * rest) << "the load must be small for the first-order answer";
  EXPECT_NEAR(change, expected, 0.02 * std::abs(expected));
}

TEST(StaticLoad, DihedralHingeUnderATorque) {
  World world = quietWorld();
  // The edge p2-p3 along z, wing p0 pinned in the x-y plane, free wing p1 at distance r from the axis.
  const Real r = 0.3f;
  const Real xyz[12] = {-0.3f, 0, 0.1f, r, 0, 0.1f, 0, 0, 0, 0, 0, 0.2f};
  const Real w[4] = {0, 50, 0, 0};  // no edge holds the wing at r: much lighter and it drifts outwards
  world.addParticles(xyz, w, 4);
  DihedralConstraintDef d;
  d.p0 = 0, d.p1 = 1, d.p2 = 2, d.p3 = 3;
  const Real alpha = 0.5f, force = 0.02f;
  d.strength = Strength{alpha, 1};
  world.addDihedralConstraint(d);
  Real phi0;
  Vec3 grad[4];
  ASSERT_TRUE(
      evalDihedral(positionOf(world, 0), positionOf(world, 1), positionOf(world, 2), positionOf(world, 3), phi0, grad));
  world.setExternalForce(1, Vec3(0, force, 0));  // perpendicular to the flat hinge: a torque F r about the edge
  const double change = settledMean(world, [&] {
    Real phi;
    evalDihedral(positionOf(world, 0), positionOf(world, 1), positionOf(world, 2), positionOf(world, 3), phi, grad);
    return double(wrapAngle(phi - phi0));
  });
  const double expected = force * r * alpha;
  ASSERT_LT(expected, 0.05) << "radians: small, for the first-order answer";
  EXPECT_NEAR(std::abs(change), expected, 0.03 * expected);
}

TEST(StaticLoad, ClosedSurfaceVolumeUnderAnApexLoad) {
  // The closed surface of a tet, as a triangle mesh with a surface volume constraint and nothing else (edges off):
  // it encloses the tet's volume, so the answer is the tet's, V - V0 = -3 F α / A.
  World world = quietWorld();
  TriangleMeshDef def;
  def.positions = {0, 0, 0, 0.2f, 0, 0, 0, 0, 0.2f, 0.05f, 0.2f, 0.05f};
  def.triangles = {0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0};  // outward
  def.stretch = Strength{1e30f, 0};  // no edge resistance
  def.bending = false;
  def.pressure = 1;
  const Real alpha = 1e-4f, force = 2e-3f;
  def.volume = Strength{alpha, 1};
  def.pinned = {0, 1, 2};
  const MeshBody body = world.addTriangleMesh(def);
  const uint32_t apex = body.renderToParticle[3];
  world.setInverseMass(apex, 1e4f);
  world.setExternalForce(apex, Vec3(0, -force, 0));
  const double rest = world.surfaceRestVolume(0);
  EXPECT_NEAR(rest, 0.2 * 0.2 / 2 * 0.2 / 3, 1e-7);
  const double change = settledMean(world, [&] { return world.surfaceVolume(0) - rest; });
  const double expected = -3.0 * force * alpha / (0.2 * 0.2 / 2);
  EXPECT_NEAR(change, expected, 0.02 * std::abs(expected));
}
