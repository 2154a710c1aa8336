// The element constraints (dihedrals, tet volumes, Neo-Hookean tets) sweep forward then backward
// (src/world/symmetric_sweep.h). A one-way sweep made XPBD amplify a tiny disturbance of a free body with stiff
// elements without bound; these tests would catch it coming back. (Dihedrals: tests/native/constraints/dihedral_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/box_drape.h"
#include "scenes/free_space.h"
#include "scenes/measures.h"
#include "scenes/scenes.h"
#include "scenes/shuffle.h"
#include "scenes/tet_cube.h"
#include "schedule/element_order.h"
#include "world/symmetric_sweep.h"
#include "native/world_internals.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

/// The largest mechanical energy over 2 s of a free body given random velocities of `speed`, over the energy at the
/// start (<= 1: the constraints may only take energy out).
double worstEnergyGain(const SoftBodyDef& body, int substeps, Real speed = 0.1f) {
  World world;
  world.setSettings(scenes::freeSpace(Method::Xpbd, substeps));
  world.addSoftBody(body);
  scenes::randomVelocities(world, 7, speed, Vec3::Zero(), Vec3::Zero());
  const double start = scenes::mechanicalEnergy(world);
  return scenes::peakEnergyOver(world, 120) / start;
}

/// scenes::dihedralCloth pinned at the two ends of its first row.
ClothDef pinnedDihedralCloth(int n, Real spacing, const Vec3& origin) {
  ClothDef cloth = scenes::dihedralCloth(n, spacing, origin);
  cloth.pinned = {0, uint32_t(n - 1)};
  return cloth;
}

SoftBodyDef rigidTetBlock() {
  const int cells[3] = {6, 6, 6};
  return scenes::tetBox(cells, Vec3(0.6f, 0.6f, 0.6f), Vec3::Zero());
}

/// run(tasks) steps a scene on `tasks` (null: the calling thread alone) and returns its state hash: on 1 to `workers`
/// worker threads it must be the serial one.
template <class Run>
void expectTheSerialBitsOnThreads(Run run, unsigned workers) {
  const uint64_t serial = run(nullptr);
  for (unsigned w = 1; w <= workers; ++w) {
    ThreadPool pool(w);
    EXPECT_EQ(run(&pool), serial) << "workers " << w;
  }
}

}  // namespace

// Before: x381 at 10 substeps and x17,000 at 40 in 2 s. Swept one way in colour order (as volumes held by rigid
// edges are, world/volume_sweep.h), volumes alone still gain at 1 m/s: the check that they keep both ways.
TEST(SymmetricSweep, RigidTetVolumesAloneDoNotAmplifyADisturbance) {
  PBD_LONG_SCENE();
  SoftBodyDef body = rigidTetBlock();
  body.edgeConstraints = false;
  body.volume = Strength{0, 1};
  for (int substeps : {10, 40}) {
    for (Real speed : {0.1f, 1.0f}) {
      EXPECT_LE(worstEnergyGain(body, substeps, speed), 1.02) << substeps << " substeps, " << speed << " m/s";
    }
  }
}

TEST(SymmetricSweep, NeoHookeanTetsDoNotAmplifyADisturbance) {
  PBD_LONG_SCENE();
  SoftBodyDef body = rigidTetBlock();
  body.edgeConstraints = false;
  body.material = SoftMaterial::NeoHookean;  // 1e5 Pa; 1e7 Pa still gains at 10 substeps (see the closing notes)
  for (int substeps : {10, 40}) EXPECT_LE(worstEnergyGain(body, substeps), 1.02) << substeps << " substeps";
}

// The coloured sweep on any thread count: colour by colour forward, then back from the last; every element once each
// way; batches start at the colour's runs (the same element numbers in every colour); the uncoloured rest in order,
// then reversed.
TEST(SymmetricSweep, TheColouredSweepVisitsColoursForwardThenBackwardOnAnyThreadCount) {
  // 40,000 elements on 10,000 particles, 80 of them also sharing particle 0: those fill the 64 colours and leave a
  // rest. The first colours hold enough batches to be shared out (the premise, asserted). Swept one way
  // (ElementSweep::Forward): the same visits going forward, none back.
  std::vector<uint32_t> particles;
  uint32_t seed = 12345;
  auto next = [&] { return (seed = seed * 1664525u + 1013904223u) >> 8; };
  for (int e = 0; e < 40000; ++e) {
    for (int k = 0; k < 4; ++k) particles.push_back(e < 80 && k == 0 ? 0 : 1 + next() % 9999);
  }
  ElementOrder order;
  order.rebuild(40000, 10000, [&](size_t e) { return &particles[4 * e]; });
  ASSERT_GT(order.colourBegin(ElementOrder::kColours + 1), order.colourBegin(ElementOrder::kColours));  // a rest
  ASSERT_GT(order.colourBegin(1), 4 * kElementBatchesPerTask);
  std::vector<uint32_t> colourOf(40000);
  for (uint32_t c = 0; c <= ElementOrder::kColours; ++c) {
    for (uint32_t n = order.colourBegin(c); n < order.colourBegin(c + 1); ++n) colourOf[order.order()[n]] = c;
  }
  // Run r of a colour starts a whole number of fours into it (so only the colour's last batch is short), and holds
  // its elements numbered in [r 40000 / 8, (r + 1) 40000 / 8) but for up to three at its start from a range before,
  // its start moved back to a four.
  for (uint32_t c = 0; c < ElementOrder::kColours; ++c) {
    for (uint32_t r = 0; r < ElementOrder::kRuns; ++r) {
      EXPECT_EQ((order.runBegin(c, r) - order.colourBegin(c)) % 4, 0u) << "colour " << c << " run " << r;
      for (uint32_t n = order.runBegin(c, r); n < order.runBegin(c, r + 1); ++n) {
        const uint32_t range = order.order()[n] / 5000;
        const bool firstThree = n < order.runBegin(c, r) + 3;
        EXPECT_TRUE(range == r || (range < r && firstThree)) << "colour " << c << " run " << r << " at " << n;
      }
    }
    EXPECT_EQ(order.runBegin(c, 0), order.colourBegin(c));
    EXPECT_EQ(order.runBegin(c, ElementOrder::kRuns), order.colourBegin(c + 1));
  }
  const auto startsARun = [&](uint32_t c, uint32_t at) {
    for (uint32_t r = 0; r < ElementOrder::kRuns; ++r) {
      if (order.runBegin(c, r) == at) return true;
    }
    return false;
  };
  for (ElementSweep ways : {ElementSweep::Symmetric, ElementSweep::Forward}) {
    const int passes = ways == ElementSweep::Symmetric ? 2 : 1;
    for (unsigned workers : {0u, 1u, 3u}) {
      ThreadPool pool(workers);
      std::mutex mutex;
      std::vector<std::pair<uint32_t, uint32_t>> visits;  // (element, batch start), in the order they happened
      colouredElementSweep(
          pool, order, ways, kElementBatchesPerTask,
          [&](uint32_t b, uint32_t e) {
            const std::lock_guard<std::mutex> lock(mutex);
            for (uint32_t n = b; n < e; ++n) visits.push_back({order.order()[n], b});
          },
          [&](uint32_t k) {
            const std::lock_guard<std::mutex> lock(mutex);
            visits.push_back({k, ~0u});
          });
      ASSERT_EQ(visits.size(), 40000u * passes) << "workers " << workers << ", passes " << passes;
      std::vector<int> seen(40000, 0);
      // The colour of each visit, as a position in the sweep: forward colours 0 .. 64, then backward 64 .. 0.
      int position = -1;
      std::vector<uint32_t> restForward, restBackward;
      for (const auto& [element, batchStart] : visits) {
        const uint32_t c = colourOf[element];
        const bool backward = ++seen[element] == 2;
        const int at = backward ? 2 * int(ElementOrder::kColours) + 1 - int(c) : int(c);
        EXPECT_GE(at, position) << "workers " << workers << ", passes " << passes;
        position = at;
        if (c == ElementOrder::kColours) (backward ? restBackward : restForward).push_back(element);
        else EXPECT_TRUE(startsARun(c, batchStart)) << "colour " << c << ", batch at " << batchStart;
      }
      for (int s : seen) EXPECT_EQ(s, passes);
      EXPECT_TRUE(std::is_sorted(restForward.begin(), restForward.end()));  // the rest keeps the order added
      std::reverse(restBackward.begin(), restBackward.end());
      if (passes == 2) EXPECT_EQ(restForward, restBackward);
      else EXPECT_TRUE(restBackward.empty());
    }
  }
}

// Small bodies whose colours are all below sharing size (the premise, asserted): with threads, each body (an island
// group) sweeps all its colours forward and back within one task, so no batch mixes bodies; serially the sweep runs
// colour by colour over all bodies, and batches do. Either way each body sees its colours forward, then back, and its
// part of the uncoloured rest in order, then reversed: per particle the same order of projections.
TEST(SymmetricSweep, SmallBodiesSweepAsIslandsOnThreadsInTheSameOrderPerBody) {
  // 6 bodies of 300 elements on 100 particles of their own; body 0's first 80 share its particle 0, leaving a rest.
  constexpr uint32_t kBodies = 6, kPerBody = 300, kParticlesPerBody = 100, kCount = kBodies * kPerBody;
  std::vector<uint32_t> particles;
  uint32_t seed = 777;
  auto next = [&] { return (seed = seed * 1664525u + 1013904223u) >> 8; };
  for (uint32_t e = 0; e < kCount; ++e) {
    const uint32_t body = e / kPerBody, base = body * kParticlesPerBody;
    const bool sharesParticle0 = body == 0 && e < 80;
    for (int k = 0; k < 4; ++k) {
      particles.push_back(base + (sharesParticle0 && k == 0 ? 0 : 1 + (next() + uint32_t(k) * 23) % 99));
    }
  }
  ElementOrder order;
  order.rebuild(kCount, kBodies * kParticlesPerBody, [&](size_t e) { return &particles[4 * e]; });
  ASSERT_EQ(order.islandGroupCount(), kBodies);
  ASSERT_GT(order.colourBegin(ElementOrder::kColours + 1), order.colourBegin(ElementOrder::kColours));  // a rest
  ASSERT_TRUE(order.islandsPay(4 * kElementBatchesPerTask));  // no colour shared out, more than one's worth in all
  std::vector<uint32_t> colourOf(kCount);
  for (uint32_t c = 0; c <= ElementOrder::kColours; ++c) {
    for (uint32_t n = order.colourBegin(c); n < order.colourBegin(c + 1); ++n) colourOf[order.order()[n]] = c;
  }
  for (unsigned workers : {0u, 1u, 3u}) {
    ThreadPool pool(workers);
    std::mutex mutex;
    std::vector<uint32_t> visits;  // elements in the order they were projected
    bool batchMixesBodies = false;
    colouredElementSweep(
        pool, order, ElementSweep::Symmetric, kElementBatchesPerTask,
        [&](uint32_t b, uint32_t e) {
          const std::lock_guard<std::mutex> lock(mutex);
          for (uint32_t n = b; n < e; ++n) {
            visits.push_back(order.order()[n]);
            batchMixesBodies |= order.order()[n] / kPerBody != order.order()[b] / kPerBody;
          }
        },
        [&](uint32_t k) {
          const std::lock_guard<std::mutex> lock(mutex);
          visits.push_back(k);
        });
    ASSERT_EQ(visits.size(), 2u * kCount) << "workers " << workers;
    EXPECT_EQ(batchMixesBodies, workers == 0) << "workers " << workers;
    std::vector<int> seen(kCount, 0), position(kBodies, -1);
    std::vector<uint32_t> restForward, restBackward;
    for (uint32_t element : visits) {
      const uint32_t c = colourOf[element], body = element / kPerBody;
      const bool backward = ++seen[element] == 2;
      const int at = backward ? 2 * int(ElementOrder::kColours) + 1 - int(c) : int(c);
      EXPECT_GE(at, position[body]) << "workers " << workers << ", body " << body;
      position[body] = at;
      if (c == ElementOrder::kColours) (backward ? restBackward : restForward).push_back(element);
    }
    for (int n : seen) EXPECT_EQ(n, 2);
    std::reverse(restBackward.begin(), restBackward.end());
    EXPECT_EQ(restForward, restBackward);
    EXPECT_TRUE(std::is_sorted(restForward.begin(), restForward.end()));
  }
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

/// The largest particle speed over 2.75–3 s of a 48² cloth dropped 0.3 m onto a box (scenes::addClothOverBox), with
/// rigid damping 0.1 per frame and the distances swept `sweep`, m/s.
Real dampedDrapeSpeedAtThreeSeconds(DistanceSweep sweep) {
  World world;
  world.setRigidDamping(0.1f);
  world.setDistanceSweep(sweep);
  scenes::addClothOverBox(world, 48, 0.3f);
  return scenes::largestSpeedAtThreeSeconds(world);
}

// The distances under implicit Euler, swept forward only, keep the folds of a damped cloth over a box's edges ringing
// (the premise: 1.5e-2 m/s natively, 4.7e-2 in wasm; its flaps' particles on the box pinned instead of held by
// contacts ring as well); swept there and back (DistanceSweep::Symmetric), the same drape is at rest (7e-4 m/s).
TEST(SymmetricSweep, SymmetricDistancesBringADampedClothFoldedOverABoxToRest) {
  PBD_LONG_SCENE();
  EXPECT_GT(dampedDrapeSpeedAtThreeSeconds(DistanceSweep::Forward), 0.01);
  EXPECT_LT(dampedDrapeSpeedAtThreeSeconds(DistanceSweep::Symmetric), 0.01);
}

// The symmetric sweep of the distances on a cloth whose block colours are shared out across threads (a 96² cloth,
// contacts with a box, a frame of 10 substeps): the same bits on 1 to 3 threads as on one. The forward pass and the
// pass back each run as one parallel job.
TEST(SymmetricSweep, SymmetricDistancesGiveTheSameBitsOnAnyThreadCount) {
  auto run = [](TaskSystem* tasks) {
    World world(tasks);
    world.setDistanceSweep(DistanceSweep::Symmetric);
    scenes::addClothOverBox(world, 96, 0.05f);
    for (int f = 0; f < 6; ++f) world.step(1.0f / 60);
    const BlockSchedule& blocks = WorldInternals::of(world).solverData.schedule.blocks;
    EXPECT_GT(blocks.groupBegin[1] - blocks.groupBegin[0], 1u);  // the first block colour holds blocks to share out
    return scenes::stateHash(world);
  };
  expectTheSerialBitsOnThreads(run, 3);
}

// The sweeps of every element kind on bodies whose colours are shared out across threads (the premise, asserted):
// tet volumes and Neo-Hookean tets on 20³-cell cubes, dihedrals on a 96² cloth. The same bits on 1 to 4 threads.
TEST(SymmetricSweep, EveryElementKindGivesTheSameBitsOnAnyThreadCount) {
  PBD_LONG_SCENE();
  auto build = [](World& world) {
    SoftBodyDef volume = scenes::tetCube(20, 0.5f, Vec3(-1, 0.3f, 0));
    SoftBodyDef neo = scenes::tetCube(20, 0.5f, Vec3(0.5f, 0.3f, 0));
    neo.material = SoftMaterial::NeoHookean;
    world.addSoftBody(volume);
    world.addSoftBody(neo);
    world.addCloth(pinnedDihedralCloth(96, 1.0f / 95, Vec3(-0.5f, 1.5f, -0.5f)));
  };
  auto run = [&](TaskSystem* tasks) {
    World world(tasks);
    build(world);
    for (int f = 0; f < 4; ++f) world.step(1.0f / 60);
    const WorldImpl& impl = WorldInternals::of(world);
    for (const ElementOrder* order :
         {&impl.solverData.dihedralOrder, &impl.solverData.volumeOrder, &impl.solverData.neoHookeanOrder}) {
      EXPECT_GT(order->colourBegin(1), 4 * kElementBatchesPerTask);  // colour 0 is shared out
    }
    return scenes::stateHash(world);
  };
  expectTheSerialBitsOnThreads(run, 3);
}

// The same for bodies whose orders are split in halves (ElementOrder::splitColour; the premise, asserted): a 10³-cell
// volume cube (whose interface is split again: subSplitColour, asserted), an 8³ Neo-Hookean cube and a 40² cloth with
// dihedrals, each kind's elements one body. On threads each half sweeps its colours on a thread of its own, then each
// of the interface's halves: the same bits on 1 to 3 threads as colour by colour on one.
TEST(SymmetricSweep, BodiesSplitInHalvesGiveTheSameBitsOnAnyThreadCount) {
  // The volume cube's edges rigid (its volumes swept one way, world/volume_sweep.h) and soft (both ways).
  for (Real edgeCompliance : {0.0f, 1e-6f}) {
    auto build = [&](World& world) {
      SoftBodyDef volume = scenes::tetCube(10, 0.4f, Vec3(-1, 0.3f, 0));
      volume.edges = Strength{edgeCompliance, 1};
      world.addSoftBody(volume);
      SoftBodyDef neo = scenes::tetCube(8, 0.4f, Vec3(0.5f, 0.3f, 0));
      neo.material = SoftMaterial::NeoHookean;
      world.addSoftBody(neo);
      world.addCloth(pinnedDihedralCloth(40, 1.0f / 39, Vec3(-0.5f, 1.5f, -0.5f)));
    };
    auto run = [&](TaskSystem* tasks) {
      World world(tasks);
      build(world);
      scenes::randomVelocities(world, 5, 0.5f, Vec3::Zero(), Vec3::Zero());
      for (int f = 0; f < 4; ++f) world.step(1.0f / 60);
      const WorldImpl& impl = WorldInternals::of(world);
      for (const ElementOrder* order :
           {&impl.solverData.dihedralOrder, &impl.solverData.volumeOrder, &impl.solverData.neoHookeanOrder}) {
        EXPECT_GT(order->splitColour(), 0u);
      }
      EXPECT_GT(impl.solverData.volumeOrder.subSplitColour(), impl.solverData.volumeOrder.splitColour());
      EXPECT_EQ(impl.solverData.volumeSweep.sweep(true, world.settings().solver),
                edgeCompliance == 0 ? ElementSweep::Forward : ElementSweep::Symmetric);
      return scenes::stateHash(world);
    };
    expectTheSerialBitsOnThreads(run, 2);
  }
}

// Split bodies numbered without locality (a 10³-cell volume cube and an 8³ Neo-Hookean one, their particles numbered
// at random) have their sweeps' padded positions placed by halves (ElementOrder::placeHalvesApart; the premise,
// asserted): the same bits as with each particle at its own number, on the calling thread and on 1 to 3 threads.
TEST(SymmetricSweep, TetsPlacedByHalvesGiveTheSameBitsAsInTheirNumbering) {
  auto run = [](TaskSystem* tasks, bool place) {
    World world(tasks);
    WorldInternals::of(world).solverData.placeHalvesApart = place;
    world.addSoftBody(scenes::shuffledVertices(scenes::tetCube(10, 0.4f, Vec3(-1, 0.3f, -0.2f)), 5));
    SoftBodyDef neo = scenes::shuffledVertices(scenes::tetCube(8, 0.4f, Vec3(0.5f, 0.3f, -0.2f)), 6);
    neo.material = SoftMaterial::NeoHookean;
    world.addSoftBody(neo);
    scenes::randomVelocities(world, 5, 0.5f, Vec3::Zero(), Vec3::Zero());
    for (int f = 0; f < 4; ++f) world.step(1.0f / 60);
    const auto& data = WorldInternals::of(world).solverData;
    EXPECT_EQ(data.volumeParticleAtPlace.empty(), !place);
    EXPECT_EQ(data.neoHookeanParticleAtPlace.empty(), !place);
    return scenes::stateHash(world);
  };
  const uint64_t numbered = run(nullptr, false);
  EXPECT_EQ(run(nullptr, true), numbered);
  expectTheSerialBitsOnThreads([&](TaskSystem* tasks) { return run(tasks, true); }, 3);
}

// The same for small bodies, whose element sweeps run as island groups on threads (none of their colours is shared
// out, and there are more elements than one colour's worth; the premise, asserted): six volume cubes and three
// Neo-Hookean cubes of 4³ cells, three 10² cloths with dihedrals. The same bits on 1 to 4 threads as colour by colour
// on one.
TEST(SymmetricSweep, SmallBodiesGiveTheSameBitsOnAnyThreadCount) {
  auto build = [](World& world) {
    for (int k = 0; k < 9; ++k) {
      SoftBodyDef cube = scenes::tetCube(4, 0.2f, Vec3(-1.5f + 0.35f * Real(k), 0.4f + 0.05f * Real(k % 3), 0));
      if (k >= 6) cube.material = SoftMaterial::NeoHookean;
      world.addSoftBody(cube);
    }
    for (int k = 0; k < 3; ++k) world.addCloth(pinnedDihedralCloth(10, 0.03f, Vec3(-1 + 0.4f * Real(k), 1.2f, 0.5f)));
  };
  auto run = [&](TaskSystem* tasks) {
    World world(tasks);
    build(world);
    scenes::randomVelocities(world, 3, 0.5f, Vec3::Zero(), Vec3::Zero());
    for (int f = 0; f < 6; ++f) world.step(1.0f / 60);
    const WorldImpl& impl = WorldInternals::of(world);
    const std::pair<const ElementOrder*, size_t> orders[] = {
        {&impl.solverData.dihedralOrder, kDihedralBatchesPerTask},
        {&impl.solverData.volumeOrder, kElementBatchesPerTask},
        {&impl.solverData.neoHookeanOrder, kElementBatchesPerTask}};
    for (const auto& [order, batchesPerTask] : orders) {
      EXPECT_EQ(order->islandGroupCount(), order == &impl.solverData.volumeOrder ? 6u : 3u);
      EXPECT_TRUE(order->islandsPay(4 * batchesPerTask));  // none shared out, more than one's worth in all
    }
    return scenes::stateHash(world);
  };
  expectTheSerialBitsOnThreads(run, 3);
}
