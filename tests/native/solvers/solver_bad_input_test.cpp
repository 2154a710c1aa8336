// Issue #4's bad input for the solver family: a hierarchy that cannot be built (too few particles) and a Projective
// Dynamics system that is not positive definite give clear errors from step(), with the world unchanged; and the
// cases that must NOT be errors (a partial hierarchy, a world without distances, a PD world whose every particle is
// pinned, extreme mass ratios) step as before.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "native/expect_error.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "solvers/projective_dynamics.h"

using namespace pbd;

namespace {

/// A chain of n particles along x, 0.1 m links, the first pinned, everything else default (rigid XPBD).
void chain(World& world, int n, Real otherInverseMass = 1) {
  for (int i = 0; i < n; ++i) world.addParticle(Vec3(Real(0.1f * i), 1, 0), i == 0 ? Real(0) : otherInverseMass);
  for (int i = 0; i + 1 < n; ++i) {
    DistanceConstraintDef d;
    d.i = uint32_t(i);
    d.j = uint32_t(i + 1);
    world.addDistanceConstraint(d);
  }
}

void useSolver(World& world, Solver solver, int hierarchyLevels = 3) {
  SolverSettings s = world.settings();
  s.solver = solver;
  s.hierarchyLevels = hierarchyLevels;
  world.setSettings(s);
}

}  // namespace

// --- Hierarchical PBD ---

TEST(SolverBadInput, AHierarchyThatCannotBeBuiltSaysWhyAndLeavesTheWorldUnchanged) {
  World world;
  chain(world, 3);  // level 1 would keep 2 of the 3 particles (the pin and the middle one): fewer than 4
  useSolver(world, Solver::ColouredGaussSeidel);
  world.step(1.0f / 60);  // not the first step: the error must not depend on a fresh world
  useSolver(world, Solver::Hierarchical, 3);
  const uint64_t before = scenes::stateHash(world);
  // Not the first step either after a failure: the hierarchy stays dirty and fails again, every time.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto e = expectError([&] { world.step(1.0f / 60); },
                               {"step: hierarchyLevels", "keep 2 of the 3 particles", "at least 4", "got 3"});
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(scenes::stateHash(world), before) << "the world must be unchanged";
  }
  // Fewer levels asked for: the coloured solve alone, and the chain falls.
  world.setHierarchy(1, 2, 2);
  world.step(1.0f / 60);
  EXPECT_NE(scenes::stateHash(world), before);
}

TEST(SolverBadInput, AHierarchyThatWouldNotShrinkSaysSo) {
  World world;
  chain(world, 6);
  for (uint32_t i = 0; i < 6; ++i) world.setInverseMass(i, 0);  // pinned particles are always kept: no shrinking
  useSolver(world, Solver::Hierarchical, 2);
  expectError([&] { world.step(1.0f / 60); }, {"step: hierarchyLevels", "keep 6 of the 6 particles",
                                                "fewer than the level below"});
}

TEST(SolverBadInput, PartialHierarchiesAndWorldsWithoutDistancesAreNoError) {
  World cloth;  // 64 particles: a few coarse levels, not 16 (settings.h: fewer are built silently)
  scenes::hangingCloth(cloth, 8);
  useSolver(cloth, Solver::Hierarchical, 16);
  const uint64_t before = scenes::stateHash(cloth);
  EXPECT_NO_THROW(cloth.step(1.0f / 60));
  EXPECT_NE(scenes::stateHash(cloth), before);

  World loose;  // particles only: nothing for a hierarchy to act on, HPBD is the coloured solve
  loose.addParticle(Vec3(0, 1, 0), 1);
  useSolver(loose, Solver::Hierarchical, 3);
  EXPECT_NO_THROW(loose.step(1.0f / 60));
  EXPECT_LT(loose.positions()[1], 1.0f);

  World empty;
  useSolver(empty, Solver::Hierarchical, 3);
  EXPECT_NO_THROW(empty.step(1.0f / 60));
}

// --- Projective Dynamics ---

TEST(SolverBadInput, ANonPositiveDefinitePdSystemThrowsAndNeverFactorsNaN) {
  // The World's builders cap every weight at 1e6 × the element's inertia (see ProjectiveSystem::prepare for why its
  // matrix is then always positive definite), so this builds an element by hand with an uncapped weight w = 1e30
  // on two free particles of 1 kg: the matrix (1/h²) [[1, 0], [0, 1]] + w [[1, -1], [-1, 1]] is positive definite
  // in exact arithmetic, but 3600 + 1e30 rounds to 1e30, so the second pivot 3600 + w - w²/(3600 + w) is 0.
  ProjectiveSystem system;
  const std::vector<Real> inverseMasses = {1, 1};
  DistanceConstraint d{};
  d.i = 0, d.j = 1, d.minLength = d.maxLength = 1, d.compliance = 1e-30f, d.stiffness = 1;
  PdElement e;
  ASSERT_TRUE(pdEdgeElement(d, 0, inverseMasses.data(), e));
  e.massScale = 1e200;  // lifts the cap (1e6 massScale/h²) out of the way
  EXPECT_DOUBLE_EQ(pdWeight(e, true, 3600), 1.0 / double(1e-30f));
  system.scratch().assign(1, e);
  system.update(inverseMasses);
  for (int attempt = 0; attempt < 2; ++attempt) {  // still not factored after the first failure: it throws again
    // Which pivot is named depends on the ordering and the libm: native reports pivot 1 = 0, wasm pivot 0.
    expectError([&] { system.prepare(true, 3600); }, {"step: the Projective Dynamics matrix", "not positive definite",
                                                       "pivot"});
  }
  // With the World's own weight (capped) the same element factors, and an iteration gives finite positions.
  ASSERT_TRUE(pdEdgeElement(d, 0, inverseMasses.data(), e));
  system.scratch().assign(1, e);
  system.update(inverseMasses);
  EXPECT_NO_THROW(system.prepare(true, 3600));
  Vec3 p[2] = {Vec3(0, 0, 0), Vec3(1.5f, 0, 0)};
  const Vec3 s[2] = {p[0], p[1]};
  SerialTaskSystem tasks;
  system.iterate(p, s, tasks);
  EXPECT_TRUE(p[0].allFinite() && p[1].allFinite());
  EXPECT_NEAR((p[1] - p[0]).norm(), 1.0f, 1e-3f) << "the rigid (capped) edge is restored";
}

TEST(SolverBadInput, APdWorldWhoseEveryParticleIsPinnedStepsWithoutAMatrix) {
  // "No inertia term" can only mean a particle without mass, i.e. pinned, and pinned particles are not in the
  // system: a fully pinned world has an empty matrix, nothing to factor, and stays exactly where it is.
  World world;
  chain(world, 5, 0);
  useSolver(world, Solver::ProjectiveDynamics);
  const uint64_t before = scenes::stateHash(world);
  for (int f = 0; f < 3; ++f) EXPECT_NO_THROW(world.step(1.0f / 60));
  EXPECT_EQ(scenes::stateHash(world), before);
  EXPECT_EQ(world.projectiveFactorizationCount(), 0u);
  EXPECT_FALSE(world.lastStepReport().rolledBack);
}

TEST(SolverBadInput, ExtremeMassRatiosStillGiveAPositiveDefinitePdSystem) {
  // Rigid links (capped weights) between particles of 1e-30 kg and 1e30 kg, alternating: the mass term is what the
  // proof in ProjectiveSystem::prepare rests on, and the cap keeps each element within 1e6 of its inertia.
  World world;
  for (int i = 0; i < 8; ++i) world.addParticle(Vec3(Real(0.1f * i), 1, 0), i == 0 ? 0.0f : i % 2 ? 1e30f : 1e-30f);
  for (int i = 0; i + 1 < 8; ++i) {
    DistanceConstraintDef d;
    d.i = uint32_t(i), d.j = uint32_t(i + 1);
    world.addDistanceConstraint(d);
  }
  useSolver(world, Solver::ProjectiveDynamics);
  world.setIterations(5);
  for (int f = 0; f < 10; ++f) ASSERT_NO_THROW(world.step(1.0f / 60)) << "frame " << f;
  EXPECT_FALSE(world.lastStepReport().rolledBack);
  for (uint32_t k = 0; k < 3 * world.particleCount(); ++k) EXPECT_TRUE(std::isfinite(world.positions()[k]));
  EXPECT_LT(world.positions()[3 * 7 + 1], 1.0f) << "the chain falls";
}
