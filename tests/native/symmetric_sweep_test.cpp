// The element constraints projected serially (dihedrals, tet volumes, Neo-Hookean tets) sweep forward then backward
// (src/world/symmetric_sweep.h). A one-way sweep made XPBD amplify a tiny disturbance of a free body with stiff
// elements without bound; these tests would catch it coming back. (Dihedrals: tests/native/dihedral_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>

#include "pbd/world.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"
#include "scenes/tet_cube.h"
#include "world/symmetric_sweep.h"

using namespace pbd;

namespace {

/// The largest mechanical energy over 2 s of a free body given random velocities of 0.1 m/s, over the energy at the
/// start (<= 1: the constraints may only take energy out).
double worstEnergyGain(const SoftBodyDef& body, int substeps) {
  World world;
  world.setSettings(scenes::freeSpace(Method::Xpbd, substeps));
  world.addSoftBody(body);
  scenes::randomVelocities(world, 7, 0.1f, Vec3::Zero(), Vec3::Zero());
  const double start = scenes::mechanicalEnergy(world);
  return scenes::peakEnergyOver(world, 120) / start;
}

SoftBodyDef tetBlock() {
  const int cells[3] = {6, 6, 6};
  return scenes::tetBox(cells, Vec3(0.6f, 0.6f, 0.6f), Vec3::Zero());
}

}  // namespace

// Before: x381 at 10 substeps and x17,000 at 40 in 2 s.
TEST(SymmetricSweep, RigidTetVolumesAloneDoNotAmplifyADisturbance) {
  SoftBodyDef body = tetBlock();
  body.edgeConstraints = false;
  body.volume = Strength{0, 1};
  for (int substeps : {10, 40}) EXPECT_LE(worstEnergyGain(body, substeps), 1.02) << substeps << " substeps";
}

TEST(SymmetricSweep, NeoHookeanTetsDoNotAmplifyADisturbance) {
  SoftBodyDef body = tetBlock();
  body.edgeConstraints = false;
  body.material = SoftMaterial::NeoHookean;  // 1e5 Pa; 1e7 Pa still gains at 10 substeps (see the closing notes)
  for (int substeps : {10, 40}) EXPECT_LE(worstEnergyGain(body, substeps), 1.02) << substeps << " substeps";
}

TEST(SymmetricSweep, VisitsEveryIndexForwardThenBackward) {
  std::vector<size_t> order;
  symmetricSweep(4, [&](size_t k) { order.push_back(k); });
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 3, 2, 1, 0}));
  order.clear();
  symmetricSweep(0, [&](size_t k) { order.push_back(k); });
  EXPECT_TRUE(order.empty());
}

// PBD's k' counts both sweeps: after one iteration (two projections) the error shrinks by (1 - k), as for any kind.
TEST(SymmetricSweep, PbdStiffnessCountsBothSweeps) {
  for (Real k : {0.1f, 0.5f, 0.9f}) {
    for (int iterations : {1, 3}) {
      const Real kPrime = symmetricSweepKPrime(k, iterations);
      EXPECT_NEAR(std::pow(1 - kPrime, 2 * iterations), 1 - k, 1e-5f) << k << ", " << iterations;
    }
  }
}

// Under BDF2 the distances sweep back too: before, a 20×20 rigid cloth hung by two corners at 10 substeps × 1
// iteration went from 9.6 J to 72 J in 4 s (skip-one bending, no dihedrals); implicit Euler stayed at 8.9 J.
TEST(SymmetricSweep, Bdf2KeepsALargeRigidClothFromGainingEnergy) {
  for (Solver solver : {Solver::GaussSeidel, Solver::ColouredGaussSeidel, Solver::Hierarchical}) {
    World world;
    SolverSettings s;
    s.ground.enabled = false;
    s.integrator = Integrator::Bdf2;
    s.solver = solver;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 20;
    c.spacing = 0.1f;
    c.origin = Vec3(0, 1, 0);
    c.pinned = {0, 19};
    c.bend = Strength{1e-2f, 1};
    world.addCloth(c);
    const double start = scenes::mechanicalEnergy(world);
    EXPECT_LE(scenes::peakEnergyOver(world, 240), 1.02 * start) << "solver " << int(solver);
  }
}
