// The tet volumes sweep one way where every tet's six edges are held by rigid distance constraints, else forward and
// back (src/world/volume_sweep.h, symmetric_sweep.h says why both are stable): the choice, and that a free block so
// swept gains no energy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "pbd/world.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"
#include "scenes/tet_cube.h"
#include "native/world_internals.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

/// A 4 x 4 x 4 block of 0.1 m cells, rigid edges and volumes (addSoftBody's defaults) but for `adjust`.
template <class Adjust>
SoftBodyDef tetBlock(Adjust adjust) {
  const int cells[3] = {4, 4, 4};
  SoftBodyDef body = scenes::tetBox(cells, Vec3(0.4f, 0.4f, 0.4f), Vec3::Zero());
  adjust(body);
  return body;
}

/// The sweep the world's volumes took at its last step, under its method and solver.
ElementSweep volumeSweep(const World& world) {
  const SolverSettings& s = world.settings();
  return WorldInternals::of(world).solverData.volumeSweep.sweep(s.method == Method::Xpbd, s.solver);
}

ElementSweep sweepAfterAStep(World& world) {
  world.step(1.0f / 60);
  return volumeSweep(world);
}

}  // namespace

TEST(VolumeSweep, TetsWhoseEdgesAreAllRigidSweepOneWayTheOthersBothWays) {
  constexpr ElementSweep kForward = ElementSweep::Forward, kSymmetric = ElementSweep::Symmetric;
  auto sweepOf = [](Method method, auto adjust) {
    World world;
    world.setSettings(scenes::freeSpace(method));
    world.addSoftBody(tetBlock(adjust));
    return sweepAfterAStep(world);
  };
  auto defaults = [](SoftBodyDef&) {};
  EXPECT_EQ(sweepOf(Method::Xpbd, defaults), kForward);
  EXPECT_EQ(sweepOf(Method::Pbd, defaults), kForward);
  auto softEdges = [](SoftBodyDef& b) { b.edges = Strength{1e-6f, 0.9f}; };
  EXPECT_EQ(sweepOf(Method::Xpbd, softEdges), kSymmetric);
  EXPECT_EQ(sweepOf(Method::Pbd, softEdges), kSymmetric);
  EXPECT_EQ(sweepOf(Method::Xpbd, [](SoftBodyDef& b) { b.edgeConstraints = false; }), kSymmetric);
  // PBD's k' of a volume of stiffness below 1 is corrected for two projections an iteration: it keeps both ways.
  auto softVolumes = [](SoftBodyDef& b) { b.volume = Strength{1e-9f, 0.5f}; };
  EXPECT_EQ(sweepOf(Method::Xpbd, softVolumes), kForward);
  EXPECT_EQ(sweepOf(Method::Pbd, softVolumes), kSymmetric);

  // What changes the edges changes the sweep at the next step: a strength, a removal, a body of volumes alone.
  World world;
  world.setSettings(scenes::freeSpace());
  const BodyRange block = world.addSoftBody(tetBlock(defaults));
  ASSERT_EQ(sweepAfterAStep(world), kForward);
  world.setDistanceStrength(block.firstConstraint + 7, 1, Strength{1e-4f, 1});
  EXPECT_EQ(sweepAfterAStep(world), kSymmetric);
  world.setDistanceStrength(block.firstConstraint + 7, 1, Strength{0, 1});
  EXPECT_EQ(sweepAfterAStep(world), kForward);
  world.removeDistanceConstraint(block.firstConstraint + block.constraintCount - 1);  // the last edge added
  EXPECT_EQ(sweepAfterAStep(world), kSymmetric);

  World mixed;
  mixed.setSettings(scenes::freeSpace());
  mixed.addSoftBody(tetBlock(defaults));
  ASSERT_EQ(sweepAfterAStep(mixed), kForward);
  mixed.addSoftBody(tetBlock([](SoftBodyDef& b) {
    b.edgeConstraints = false;
    for (size_t k = 0; k < b.positions.size(); k += 3) b.positions[k] += 1;
  }));
  EXPECT_EQ(sweepAfterAStep(mixed), kSymmetric);
}

// The check that one way is safe where the rule takes it: a free block of rigid edges and volumes, disturbed at 0.1
// and 1 m/s, never above its starting mechanical energy in 5 s, under Euler and BDF2 at 10 and 64 substeps. (Its
// volumes alone, swept one way, gain: SymmetricSweep.RigidTetVolumesAloneDoNotAmplifyADisturbance.)
TEST(VolumeSweep, AFreeBlockHeldByRigidEdgesGainsNoEnergySweptOneWay) {
  PBD_LONG_SCENE();
  for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
    for (int substeps : {10, 64}) {
      for (Real speed : {0.1f, 1.0f}) {
        World world;
        SolverSettings s = scenes::freeSpace(Method::Xpbd, substeps);
        s.integrator = integrator;
        world.setSettings(s);
        world.addSoftBody(tetBlock([](SoftBodyDef&) {}));
        scenes::randomVelocities(world, 7, speed, Vec3::Zero(), Vec3::Zero());
        const double start = scenes::mechanicalEnergy(world);
        const double peak = scenes::peakEnergyOver(world, 300);
        EXPECT_EQ(volumeSweep(world), ElementSweep::Forward);
        EXPECT_LE(peak, start * 1.0001) << "integrator " << int(integrator) << ", " << substeps << " substeps, "
                                        << speed << " m/s";
      }
    }
  }
}

// A block of rigid edges and volumes whose every particle was moved to a random point of its bounding box (issue 53's
// scrambled start, no gravity) must come back to its shape at the defaults (10 substeps x 1 iteration) under every
// Gauss-Seidel solver: after 3 s no tet inverted and every edge within 5 % of its rest length. Swept one way after
// the serial Gauss-Seidel pass or HPBD's, about 170 of its 384 tets stayed inverted and its edges 2 to 17 times their
// length; the coloured pass untangled it either way.
TEST(VolumeSweep, AScrambledBlockUntanglesUnderEveryGaussSeidelSolver) {
  for (Solver solver : {Solver::GaussSeidel, Solver::ColouredGaussSeidel, Solver::Hierarchical}) {
    for (unsigned seed : {3u, 53u}) {
      World world;
      SolverSettings s = scenes::freeSpace(Method::Xpbd);
      s.solver = solver;
      world.setSettings(s);
      const SoftBodyDef block = tetBlock([](SoftBodyDef&) {});
      world.addSoftBody(block);
      std::mt19937 rng(seed);
      std::uniform_real_distribution<Real> u(0, 0.4f);
      for (uint32_t i = 0; i < world.particleCount(); ++i) world.setPosition(i, Vec3(u(rng), u(rng), u(rng)));
      for (int f = 0; f < 180; ++f) world.step(1.0f / 60);
      const Real* p = world.positions();
      auto at = [&](const Real* x, uint32_t i) { return Vec3(x[3 * i], x[3 * i + 1], x[3 * i + 2]); };
      int inverted = 0;
      double worst = 0;
      for (size_t t = 0; t < block.tets.size(); t += 4) {
        const uint32_t* q = &block.tets[t];
        const Vec3 a = at(p, q[0]);
        inverted += !((at(p, q[1]) - a).dot((at(p, q[2]) - a).cross(at(p, q[3]) - a)) > 0);
        for (int e = 0; e < 4; ++e) {
          for (int f = e + 1; f < 4; ++f) {
            const Real rest = (at(block.positions.data(), q[e]) - at(block.positions.data(), q[f])).norm();
            worst = std::max(worst, std::abs(double((at(p, q[e]) - at(p, q[f])).norm() / rest) - 1));
          }
        }
      }
      EXPECT_EQ(volumeSweep(world), solver == Solver::ColouredGaussSeidel ? ElementSweep::Forward
                                                                          : ElementSweep::Symmetric);
      EXPECT_EQ(inverted, 0) << "solver " << int(solver) << ", seed " << seed;
      EXPECT_LT(worst, 0.05) << "solver " << int(solver) << ", seed " << seed;
    }
  }
}
