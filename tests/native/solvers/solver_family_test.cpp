// The three solvers (Gauss-Seidel, Jacobi, coloured Gauss-Seidel): each reaches the analytic XPBD equilibrium,
// keeps momentum, and is deterministic; the colouring is valid on every scene, and the coloured solver gives the
// same bits on any number of threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "constraints/distance.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/measures.h"
#include "scenes/scenes.h"
#include "schedule/graph_colouring.h"
#include "scenes/free_space.h"

using namespace pbd;

namespace {

const Solver kSolvers[] = {Solver::GaussSeidel, Solver::Jacobi, Solver::ColouredGaussSeidel};

const char* name(Solver s) {
  return s == Solver::GaussSeidel ? "gauss-seidel" : s == Solver::Jacobi ? "jacobi" : "coloured";
}

/// No two distance constraints of one (parallel) colour share a particle; returns how many overflowed.
uint32_t expectValidColouring(const World& world) {
  std::map<uint32_t, std::set<uint32_t>> used;
  uint32_t overflow = 0;
  for (uint32_t c = 0; c < world.distanceConstraintCount(); ++c) {
    const uint32_t colour = world.distanceConstraintColour(c);
    if (colour == GraphColouring::kOverflow) {
      ++overflow;
      continue;
    }
    EXPECT_LT(colour, GraphColouring::kColours);
    const DistanceConstraintDef d = world.distanceConstraint(c);
    EXPECT_TRUE(used[colour].insert(d.i).second) << "colour " << colour << " constraint " << c;
    EXPECT_TRUE(used[colour].insert(d.j).second) << "colour " << colour << " constraint " << c;
  }
  return overflow;
}

}  // namespace

TEST(SolverFamily, EverySolverReachesTheXpbdSpringEquilibrium) {
  for (Solver solver : kSolvers) {
    World world;
    SolverSettings s;
    s.solver = solver;
    s.substeps = 4;
    s.iterations = 4;
    s.ground.enabled = false;
    world.setSettings(s);
    scenes::pinnedBob(world, Vec3(0, -1, 0), 0.5f, Strength{1e-3f, 1});
    double sum = 0;
    int samples = 0;
    for (int f = 0; f < 1200; ++f) {
      world.step(1.0f / 60);
      if (f >= 600) sum += -world.positions()[4] - 1, ++samples;
    }
    const double expected = 2 * 9.81 * 1e-3;  // m g α
    EXPECT_NEAR(sum / samples, expected, 0.01 * expected) << name(solver);
  }
}

TEST(SolverFamily, EverySolverKeepsAFreeClothsMomentum) {
  for (Solver solver : kSolvers) {
    World world;
    SolverSettings s = scenes::freeSpace();
    s.solver = solver;
    s.substeps = 10;
    s.iterations = 2;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 10;
    c.spacing = 0.1f;
    c.stretch = Strength{1e-6f, 1};
    world.addCloth(c);
    std::mt19937 rng(9);
    std::uniform_real_distribution<Real> u(-1, 1);
    for (uint32_t i = 0; i < world.particleCount(); ++i) {
      world.setInverseMass(i, 50 + 40 * u(rng));
      world.setVelocity(i, Vec3(0.3f, 0.1f, -0.2f) + 0.3f * Vec3(u(rng), u(rng), u(rng)));
    }
    const Eigen::Vector3d before = scenes::momenta(world).linear;
    for (int f = 0; f < 60; ++f) world.step(1.0f / 60);
    EXPECT_LT((scenes::momenta(world).linear - before).norm(), 2e-3 * before.norm()) << name(solver);
  }
}

TEST(SolverFamily, EverySolverIsDeterministicRunToRun) {
  for (Solver solver : kSolvers) {
    auto run = [solver] {
      World world;
      scenes::hangingCloth(world, 24);
      world.setSolver(solver);
      for (int f = 0; f < 30; ++f) world.step(1.0f / 60);
      return scenes::stateHash(world);
    };
    EXPECT_EQ(run(), run()) << name(solver);
  }
}

TEST(SolverFamily, ColouredAndJacobiGiveTheSameBitsOnAnyThreadCount) {
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::Jacobi}) {
    auto run = [solver](TaskSystem* tasks) {
      World world(tasks);
      scenes::hangingCloth(world, 80);  // 6400 particles, 37,000 constraints: colours split into many ranges
      world.setSolver(solver);
      for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
      return scenes::stateHash(world);
    };
    const uint64_t serial = run(nullptr);
    for (unsigned workers : {1u, 3u}) {
      ThreadPool pool(workers);
      EXPECT_EQ(run(&pool), serial) << name(solver) << " on " << workers + 1 << " threads";
    }
  }
}

TEST(GraphColouring, NoTwoConstraintsOfAColourShareAParticle) {
  // Every scene: a cloth, a rope, and random extra constraints, all in one world.
  World world;
  ClothDef c;
  c.columns = 9;
  c.rows = 7;
  world.addCloth(c);
  EXPECT_EQ(expectValidColouring(world), 0u);
  RopeDef r;
  r.segments = 12;
  world.addRope(r);
  EXPECT_EQ(expectValidColouring(world), 0u);
  std::mt19937 rng(4);
  std::uniform_int_distribution<uint32_t> pick(0, world.particleCount() - 1);
  for (int k = 0; k < 300; ++k) {
    DistanceConstraintDef d;
    d.i = pick(rng);
    do d.j = pick(rng); while (d.j == d.i);
    world.addDistanceConstraint(d);
  }
  expectValidColouring(world);
}

TEST(GraphColouring, AHubBeyondTheColourCountOverflowsAndIsStillSolved) {
  // 40 spokes on one hub particle: only 32 colours exist, so 8 spokes go to the serial overflow group.
  World world;
  SolverSettings s = scenes::freeSpace();
  s.iterations = 20;
  world.setSettings(s);
  const uint32_t hub = world.addParticle(Vec3(0, 0, 0), 0);
  for (int k = 0; k < 40; ++k) {
    const float a = 2 * float(M_PI) * float(k) / 40;
    const uint32_t tip = world.addParticle(Vec3(std::cos(a), 0, std::sin(a)), 1);
    DistanceConstraintDef d;
    d.i = hub;
    d.j = tip;
    world.addDistanceConstraint(d);
    world.setVelocity(tip, Vec3(std::cos(a), 0.5f, std::sin(a)));  // pulled outwards: the spokes must hold
  }
  EXPECT_EQ(expectValidColouring(world), 8u);
  for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
  for (uint32_t k = 1; k <= 40; ++k) {
    const Vec3 tip(world.positions()[3 * k], world.positions()[3 * k + 1], world.positions()[3 * k + 2]);
    EXPECT_NEAR(tip.norm(), 1, 1e-4f) << "spoke " << k;
  }
}

TEST(Residuals, RecordedPerPassAndShrinkingWithIterations) {
  // A horizontal chain pinned at one end: consistent rigid constraints, so Gauss-Seidel drives C towards 0.
  World world;
  SolverSettings s;
  s.solver = Solver::GaussSeidel;
  s.substeps = 2;
  s.iterations = 30;
  s.ground.enabled = false;
  world.setSettings(s);
  world.addParticle(Vec3(0, 0, 0), 0);
  for (uint32_t k = 1; k <= 30; ++k) {
    world.addParticle(Vec3(0.1f * Real(k), 0, 0), 1);
    DistanceConstraintDef d;
    d.i = k - 1;
    d.j = k;
    world.addDistanceConstraint(d);
  }
  world.setRecordResiduals(true);
  for (int f = 0; f < 5; ++f) world.step(1.0f / 60);
  ASSERT_EQ(world.residualCount(), 60u);
  const Real* res = world.residuals();
  for (uint32_t k = 0; k < 60; ++k) EXPECT_LE(res[2 * k + 1], res[2 * k] + 1e-7f);  // rms <= max
  // Within the last substep every Gauss-Seidel sweep lowers the residual (slowly, on a 30-link chain: the
  // long-range error is what hierarchical solvers are for), and 30 sweeps more than halve it.
  for (uint32_t k = 31; k < 60; ++k) EXPECT_LE(res[2 * k + 1], res[2 * (k - 1) + 1] * 1.0001f) << "pass " << k;
  EXPECT_LT(res[2 * 59], 0.6f * res[2 * 30]);
  world.setRecordResiduals(false);
  world.step(1.0f / 60);
  EXPECT_EQ(world.residualCount(), 0u);
}

TEST(Residuals, TheRecordIsTimedApartFromTheSolve) {
  // The 64² benchmark cloth (10 sweeps a step over its 24,000 constraints: long enough for any clock): the step
  // timings give the record its own stage, so that a recording step's solveMs is the solver's alone (the demo plots
  // that, and records one step in four), and the stages still add up to the step.
  World world;
  scenes::hangingCloth(world, 64);
  world.setStepTimings(true);
  for (const bool record : {true, false, true}) {
    world.setRecordResiduals(record);
    world.step(1.0f / 60);
    const StepTimings& t = world.lastStepTimings();
    EXPECT_NEAR(t.stagesMs(), t.totalMs, 1e-3 + 1e-3 * t.totalMs) << "the stages should add up to the step";
    EXPECT_GT(t.solveMs, 0.0);
    if (record) EXPECT_GT(t.residualMs, 0.0) << "10 sweeps over 24,000 constraints";
    else EXPECT_EQ(t.residualMs, 0.0) << "no clock lap lands in the record's stage when it is off";
  }
}

TEST(Residuals, EverySolverRecordsEveryConstraintOnce) {
  // Coloured Gauss-Seidel and HPBD record the constraints of their batches and of their overflow group, the other
  // solvers their plain list: the last pass of a step must give the max and RMS |C| (PBD) of every distance
  // constraint at the positions the step ends with (no contacts, so the last pass's positions are the step's
  // result). A hub joined to 40 cloth particles puts 8 or more of its spokes in the overflow group (32 colours).
  // The 48² cloth's 13,000 constraints are summed in several parts (recordResidual), the 16²'s in one.
  for (const Solver solver : {Solver::ColouredGaussSeidel, Solver::Hierarchical, Solver::GaussSeidel, Solver::Jacobi})
  for (const uint32_t side : {16u, 48u}) {
    World world;
    SolverSettings s;
    s.method = Method::Pbd;
    s.solver = solver;
    s.substeps = 4;
    s.iterations = 2;
    s.ground.enabled = false;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = side;
    c.spacing = 0.8f / Real(side);
    c.pinned = {0, side - 1};
    world.addCloth(c);
    const uint32_t hub = world.addParticle(Vec3(0.4f, 0.5f, 0.4f), 0);
    for (uint32_t k = 0; k < 40; ++k) {
      DistanceConstraintDef d;
      d.i = hub;
      d.j = 3 * k + 1;
      d.strength.stiffness = 0.3f;  // soft: each pass leaves some of C, so the overflow group's share shows
      world.addDistanceConstraint(d);
    }
    world.setRecordResiduals(true);
    for (int f = 0; f < 3; ++f) world.step(1.0f / 60);
    uint32_t overflow = 0;
    for (uint32_t k = 0; k < world.distanceConstraintCount(); ++k) overflow += world.distanceConstraintColour(k) == 32;
    ASSERT_GE(overflow, 8u);
    const Vec3* x = reinterpret_cast<const Vec3*>(world.positions());
    double maxAbs = 0, sumSq = 0;
    for (uint32_t k = 0; k < world.distanceConstraintCount(); ++k) {
      const DistanceConstraintDef d = world.distanceConstraint(k);
      Real C = 0;
      Vec3 n;
      evalDistance(x[d.i], x[d.j], d.minLength, d.maxLength, C, n);
      maxAbs = std::max(maxAbs, double(std::abs(C)));
      sumSq += double(C) * double(C);
    }
    const uint32_t last = world.residualCount() - 1;
    ASSERT_EQ(last + 1, 8u);
    EXPECT_EQ(world.residuals()[2 * last], Real(maxAbs)) << int(solver) << " " << side;
    EXPECT_NEAR(world.residuals()[2 * last + 1], std::sqrt(sumSq / world.distanceConstraintCount()),
                1e-6 * maxAbs) << int(solver) << " " << side;
    EXPECT_GT(maxAbs, 1e-5);  // the cloth is still stretching: something to record
  }
}

TEST(Residuals, TheSameBitsOnAnyThreadCount) {
  // The record sums its parts on whatever threads run them, then merges them in order: every pass's max and RMS
  // must not depend on the thread count (here an 80² cloth: batches and plain lists of 37,000 constraints, many
  // parts each), for the batched solvers and for the plain list (Gauss-Seidel, Jacobi).
  for (const Solver solver : {Solver::ColouredGaussSeidel, Solver::GaussSeidel, Solver::Jacobi}) {
    auto record = [solver](TaskSystem* tasks) {
      World world(tasks);
      scenes::hangingCloth(world, 80);
      world.setSolver(solver);
      world.setRecordResiduals(true);
      for (int f = 0; f < 3; ++f) world.step(1.0f / 60);
      return std::vector<Real>(world.residuals(), world.residuals() + 2 * world.residualCount());
    };
    const std::vector<Real> serial = record(nullptr);
    ASSERT_FALSE(serial.empty());
    EXPECT_GT(serial[serial.size() - 2], 0) << name(solver);  // something was recorded
    for (unsigned workers : {1u, 2u}) {
      ThreadPool pool(workers);
      EXPECT_EQ(record(&pool), serial) << name(solver) << " on " << workers + 1 << " threads";
    }
  }
}
