// The coloured Gauss-Seidel pass's block schedule (schedule/block_schedule.h): every coloured constraint once, in
// a segment of its own block and colour; no particle twice in a segment; no particle shared by two blocks of one
// parallel block colour. Checked on the worlds the solver meets: a row-major cloth, the mixed scene, and a soft
// body numbered at random (the worst case, where blocks conflict and the layout turns colour-major).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/mixed_scene.h"
#include "scenes/scenes.h"
#include "scenes/shuffle.h"
#include "scenes/tet_cube.h"
#include "world_internals.h"

using namespace pbd;

namespace {

const WorldImpl& scheduled(World& world) {
  SolverSettings s = world.settings();
  s.solver = Solver::ColouredGaussSeidel;
  world.setSettings(s);
  world.step(1.0f / 60);  // the schedule is rebuilt at the start of a step
  return WorldInternals::of(world);
}

/// The particles a block's batches touch, padding lanes left out.
std::set<uint32_t> touchedBy(const BlockSchedule& s, size_t at, uint32_t particles) {
  std::set<uint32_t> touched;
  for (uint32_t k = s.segmentBegin[at]; k < s.segmentBegin[at + 1]; ++k) {
    for (uint32_t b = s.segments[k].begin; b < s.segments[k].end; ++b) {
      for (int lane = 0; lane < 4; ++lane) {
        if (s.batches[b].i[lane] < particles) touched.insert({s.batches[b].i[lane], s.batches[b].j[lane]});
      }
    }
  }
  return touched;
}

/// Every invariant of the layout; returns the number of parallel block colours used.
int checkLayout(const WorldImpl& impl) {
  const ColourSchedule& cs = impl.schedule;
  const BlockSchedule& s = cs.blocks;
  const uint32_t particles = impl.count();
  // Each coloured constraint sits in exactly one lane, with its particles, lengths and strengths, in a block of its
  // lower particle and a segment of its colour; the overflow group has no lane.
  std::vector<int> laneUses(4 * s.batches.size(), 0);
  std::vector<uint32_t> blockOfBatch(s.batches.size()), segmentOfBatch(s.batches.size());
  for (size_t at = 0; at < s.blockSequence.size(); ++at) {
    for (uint32_t k = s.segmentBegin[at]; k < s.segmentBegin[at + 1]; ++k) {
      const BlockSchedule::Segment& seg = s.segments[k];
      EXPECT_LT(seg.begin, seg.end);
      EXPECT_LE(seg.begin, seg.rigidBegin);
      EXPECT_LE(seg.rigidBegin, seg.end);
      for (uint32_t b = seg.begin; b < seg.end; ++b) blockOfBatch[b] = s.blockSequence[at], segmentOfBatch[b] = k;
    }
  }
  for (uint32_t c = 0; c <= GraphColouring::kColours; ++c) {
    std::set<uint32_t> segmentsOfColour;
    for (uint32_t k = cs.colourBegin[c]; k < cs.colourBegin[c + 1]; ++k) {
      const DistanceConstraint& d = cs.constraints[k];
      if (c == GraphColouring::kOverflow) {
        EXPECT_EQ(s.slotOf[k], BlockSchedule::kNoSlot);
        continue;
      }
      const uint32_t slot = s.slotOf[k], b = slot / 4, lane = slot % 4;
      EXPECT_EQ(++laneUses[slot], 1) << "slot " << slot;
      EXPECT_EQ(s.batches[b].i[lane], d.i);
      EXPECT_EQ(s.batches[b].j[lane], d.j);
      EXPECT_EQ(s.batches[b].minLength[lane], d.minLength);
      EXPECT_EQ(s.batches[b].maxLength[lane], d.maxLength);
      EXPECT_EQ(s.strengths[b].compliance[lane], d.compliance);
      EXPECT_EQ(s.strengths[b].kPrime[lane], d.kPrime);
      const uint32_t block = s.colourMajor ? c * BlockSchedule::kBlocksPerColour : std::min(d.i, d.j) / s.blockParticles;
      EXPECT_EQ(s.colourMajor ? blockOfBatch[b] / BlockSchedule::kBlocksPerColour * BlockSchedule::kBlocksPerColour
                              : blockOfBatch[b], block);
      segmentsOfColour.insert(segmentOfBatch[b]);
    }
    // A segment holds one colour: no segment shared with another colour's constraints.
    for (uint32_t other = 0; other < c; ++other) {
      for (uint32_t k = cs.colourBegin[other]; k < cs.colourBegin[other + 1]; ++k) {
        EXPECT_EQ(segmentsOfColour.count(segmentOfBatch[s.slotOf[k] / 4]), 0u) << "colours " << other << ", " << c;
      }
    }
  }
  // Unused lanes are padding lanes, on their block's own padding particle.
  for (size_t slot = 0; slot < laneUses.size(); ++slot) {
    if (laneUses[slot]) continue;
    EXPECT_EQ(s.batches[slot / 4].i[slot % 4], particles + blockOfBatch[slot / 4]) << "slot " << slot;
  }
  // Within a segment no particle twice: its batches run four lanes at once.
  for (const BlockSchedule::Segment& seg : s.segments) {
    std::set<uint32_t> seen;
    for (uint32_t b = seg.begin; b < seg.end; ++b) {
      for (int lane = 0; lane < 4; ++lane) {
        if (s.batches[b].i[lane] >= particles) continue;
        EXPECT_TRUE(seen.insert(s.batches[b].i[lane]).second);
        EXPECT_TRUE(seen.insert(s.batches[b].j[lane]).second);
      }
    }
  }
  // Blocks of one parallel block colour touch no common particle (the serial group may).
  int parallelGroups = 0;
  for (uint32_t g = 0; g < BlockSchedule::kBlockColours; ++g) {
    std::set<uint32_t> touched;
    parallelGroups += s.groupBegin[g + 1] > s.groupBegin[g];
    for (size_t at = s.groupBegin[g]; at < s.groupBegin[g + 1]; ++at) {
      for (uint32_t i : touchedBy(s, at, particles)) EXPECT_TRUE(touched.insert(i).second) << "group " << g;
    }
  }
  EXPECT_EQ(s.segmentBegin.size(), s.blockSequence.size() + 1);
  EXPECT_EQ(s.lambda.size(), 4 * s.batches.size());
  EXPECT_LE(s.blockCount, s.colourMajor ? BlockSchedule::kMaxBlocks : BlockSchedule::kTargetBlocks);
  return parallelGroups;
}

}  // namespace

TEST(BlockSchedule, ARowMajorClothIsTwoBlockColoursOfStrips) {
  World world;
  scenes::hangingCloth(world, 128);
  const WorldImpl& impl = scheduled(world);
  // 16,384 particles in 32 strips of 512 (4 rows): a strip's constraints reach 2 rows into the next strip and no
  // further, so strips alternate between two block colours, and a pass has 2 block barriers instead of 12 colours'.
  EXPECT_EQ(impl.schedule.blocks.blockParticles, 512u);
  EXPECT_EQ(checkLayout(impl), 2);
  EXPECT_EQ(impl.schedule.blocks.groupBegin[BlockSchedule::kGroups - 1], 32u);  // every strip in a parallel colour
  EXPECT_EQ(impl.schedule.blocks.groupBegin[1], 16u);
  EXPECT_FALSE(impl.schedule.blocks.colourMajor);
}

TEST(BlockSchedule, TheMixedSceneKeepsEveryInvariant) {
  World world;
  scenes::mixedScene(world, 24);
  EXPECT_GE(checkLayout(scheduled(world)), 1);
}

/// The largest block of each parallel block colour plus the serial group: the pass's work with unlimited threads.
static uint32_t criticalPath(const BlockSchedule& s) {
  const auto size = [&](size_t at) {  // in batches: a block's segments are consecutive
    return s.segments[s.segmentBegin[at + 1] - 1].end - s.segments[s.segmentBegin[at]].begin;
  };
  uint32_t critical = 0;
  for (uint32_t g = 0; g < BlockSchedule::kBlockColours; ++g) {
    uint32_t largest = 0;
    for (size_t at = s.groupBegin[g]; at < s.groupBegin[g + 1]; ++at) largest = std::max(largest, size(at));
    critical += largest;
  }
  for (size_t at = s.groupBegin[BlockSchedule::kSerialGroup]; at < s.groupBegin[BlockSchedule::kGroups]; ++at) {
    critical += size(at);
  }
  return critical;
}

TEST(BlockSchedule, ARandomlyNumberedBodyTurnsColourMajor) {
  World world;
  world.addSoftBody(scenes::shuffledVertices(scenes::tetCube(16, 1.0f, Vec3(0, 1, 0)), 7));
  const WorldImpl& impl = scheduled(world);
  const BlockSchedule& s = impl.schedule.blocks;
  // Random numbering: every block touches almost every other, so blocks of particles would run mostly one after
  // another. Colour-major: each colour's runs in parallel, no serial group, a critical path of about 1/8 of the batches.
  ASSERT_TRUE(s.colourMajor);
  const int colours = checkLayout(impl);
  EXPECT_GE(colours, 8);
  EXPECT_EQ(s.groupBegin[BlockSchedule::kGroups], s.groupBegin[BlockSchedule::kSerialGroup]);
  EXPECT_LT(4 * criticalPath(s), s.batches.size());
  // Each colour cut into kBlocksPerColour runs, fewer only where the colour has fewer constraints.
  const ColourSchedule& cs = impl.schedule;
  for (uint32_t g = 0; g < BlockSchedule::kBlockColours; ++g) {
    const uint32_t blocks = s.groupBegin[g + 1] - s.groupBegin[g], size = cs.colourBegin[g + 1] - cs.colourBegin[g];
    EXPECT_EQ(blocks, std::min(size, BlockSchedule::kBlocksPerColour)) << "colour " << g;
  }
}

TEST(BlockSchedule, TheSameBodyInLocalityOrderKeepsBlocksOfParticles) {
  World world;
  world.addSoftBody(scenes::tetCube(16, 1.0f, Vec3(0, 1, 0)));
  const BlockSchedule& s = scheduled(world).schedule.blocks;
  EXPECT_FALSE(s.colourMajor);
  EXPECT_LT(2 * criticalPath(s), s.batches.size());
}

TEST(BlockSchedule, TheColourMajorLayoutGivesTheSameBitsOnAnyThreadCount) {
  // Forward passes (implicit Euler) and BDF2's forward and backward sweeps, dropped on the ground.
  for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
    auto run = [&](TaskSystem* tasks) {
      World world(tasks);
      world.addSoftBody(scenes::shuffledVertices(scenes::tetCube(16, 1.0f, Vec3(0, 0.2f, 0)), 7));
      SolverSettings s = world.settings();
      s.integrator = integrator;
      world.setSettings(s);
      for (int f = 0; f < 20; ++f) world.step(1.0f / 60);
      EXPECT_TRUE(WorldInternals::of(world).schedule.blocks.colourMajor);
      return scenes::stateHash(world);
    };
    const uint64_t serial = run(nullptr);
    EXPECT_EQ(run(nullptr), serial);
    for (unsigned workers : {1u, 2u, 3u}) {
      ThreadPool pool(workers);
      EXPECT_EQ(run(&pool), serial) << "workers " << workers << ", integrator " << int(integrator);
    }
  }
}
