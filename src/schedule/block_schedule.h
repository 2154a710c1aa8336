// The coloured Gauss-Seidel pass's work layout: blocks of particles, coloured, each running its constraints colour
// by colour. Why blocks: a pass that runs colour after colour across the whole body needs a barrier per colour (12
// on a cloth with skip-one bending) and streams every particle through the cache once per colour. Here particles
// are cut into blocks of consecutive indices (the builders' and localityOrder's orders keep neighbours close), each
// constraint belongs to the block of its lower particle, and blocks are greedily coloured so that no two blocks of
// one block colour touch a common particle. A pass then has one barrier per block colour (2 on a row-major cloth,
// where blocks are strips), and a block's particles stay in the cache while it runs all its colours.
// The sequential order this reproduces: block colour by block colour; within one, block by block (they share no
// particle, so their order changes nothing); within a block, constraint colour by colour, four at a time. It does
// not depend on the thread count, so every thread count gives the same bits.
// A body numbered without locality (a mesh whose vertices come in random order) makes every block touch almost every
// other: the blocks then run out of block colours and would run one after another. When the blocks' critical path
// holds more than 2/3 of the constraints (blocksLeaveTooLittleParallelWork), the layout is colour-major instead:
// each constraint colour is a block colour, cut into kBlocksPerColour blocks by position (a colour's constraints
// share no particle, so any cut is free of conflicts). That costs a barrier per colour but keeps every thread busy.
// Before that, blocks of particles are tried once more in a locality order of the constraints' own
// (schedule/locality_rank.h, `ranked`): a constraint's block is that of its lower rank. A shuffled cloth's or mesh's
// blocks are then strips across it again, as its row-major twin's are, with a barrier per block colour, not per
// colour. The choice depends on the constraints and their numbering only, never on the thread count.
// Banded: when the particles' four bands (math/band_layout.h) are translates of one another, as a row-major grid
// cloth's strips of rows are, the batches are units instead: a constraint (i, j) of band 0 and its translates
// (i + L m, j + L m) in bands 1 to 3, lane L each, which load and store whole vectors on the band layout with no
// transpose. Units are scheduled exactly as constraints are above, on the m particles of band 0 (a unit conflicts
// with another when they share a block of the layout, that is a band-0 particle): coloured, cut into blocks,
// sequenced. A unit may lack a translate; its lane is then a filler that never acts. A constraint across a band's
// edge (a grid's rows across it), one particle in band L and the other in band L + 1, makes a shifted unit with its
// translates across the other edges: lanes 0 to 2, the second block's vectors rotated a lane (lane 3, which would
// reach a fifth band, a filler). What fits neither (particles two bands apart, or a particle and its own translate)
// is `unbanded`, projected one by one on the unpadded positions after the batches. Chosen when at least
// kMinBandedShare of the coloured constraints are in units, kMinUnitFill of the units' lanes are filled, m is at
// least kMinBandParticles, and band 0's blocks leave enough parallel work not to turn colour-major. Where blocks of
// kMinBlockParticles would not (a 17³-vertex tet cube: m = 1,229 made 5 blocks, too few to alternate), band 0 is cut
// into smaller blocks, down to kMinBandBlockParticles: a unit is a whole batch, so small blocks cost no partial
// batches.
// A square grid numbered at random is not banded by its indices. When its constraints hold such a grid
// (schedule/lattice_order.h), the bands are tried again on its row-major order (`latticeOrdered`): the units are
// formed on the particles' places in that order, which is also their place in the band layout, so the pass runs as
// a row-major grid's does; only the copies differ: in, a gather per place; out, per particle from its place.
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/distance.h"
#include "schedule/graph_colouring.h"
#include "schedule/lattice_order.h"
#include "schedule/locality_rank.h"

namespace pbd {

struct BlockSchedule {
  static constexpr uint32_t kBlockColours = GraphColouring::kColours;  ///< Parallel block colours (one bit each per
                                                                       ///< particle); colour-major uses one each.
  static constexpr uint32_t kSerialGroup = kBlockColours;    ///< The group of blocks that found no free block colour:
                                                             ///< they run one after another, as one range.
  static constexpr uint32_t kGroups = kBlockColours + 1;
  static constexpr uint32_t kMinBlockParticles = 256;        ///< Smallest block: below it the partial batches that
                                                             ///< end every (block, colour) segment cost too much.
  static constexpr uint32_t kMinBandBlockParticles = 32;     ///< Banded, whose segments end in no partial batch:
                                                             ///< band 0's blocks may shrink to this to alternate.
  static constexpr uint32_t kTargetBlocks = 32;              ///< Blocks aimed at: enough for 4 threads per colour.
  static constexpr uint32_t kBlocksPerColour = 8;            ///< Colour-major: blocks per colour, one per thread of
                                                             ///< up to 8.
  static constexpr uint32_t kMaxBlocks = GraphColouring::kColours * kBlocksPerColour;  ///< Either layout's bound.
  static constexpr uint32_t kMinColourMajorConstraints = 4096;  ///< Below this the blocks stay, however they colour:
                                                                ///< too little work to share out anyway.
  static constexpr uint32_t kNoSlot = ~0u;                   ///< slotOf of an overflow-group or unbanded
                                                             ///< constraint.
  static constexpr uint32_t kMinBandParticles = 256;         ///< Banded only from m = 256 (a 32² cloth): band 0 in
                                                             ///< 8 blocks of kMinBandBlockParticles at least.
  static constexpr double kMinBandedShare = 0.9;             ///< Banded only with at least this share of the
                                                             ///< coloured constraints in units (the rest run one
                                                             ///< by one).
  static constexpr double kMinUnitFill = 0.75;               ///< Banded only with at least this share of the
                                                             ///< units' lanes filled: a full unit costs about half
                                                             ///< a batch on padded positions.
  /// Batches a thread's range of one group's blocks holds at least (on the group's average): a group with fewer runs
  /// whole on one thread, and a pass with no group to share runs on the caller alone, with no barrier: colour-major
  /// blocks of a small body are tiny, and a barrier per colour costs more than it shares (docs/performance.md, "Tuned constants").
  /// At 256 the 32² and 64² cloths' blocks (about 360 batches) still go one to a range.
  static constexpr uint32_t kMinBatchesPerRange = 256;

  /// One colour's constraints of one block, as batches [begin, end); from rigidBegin on every lane is rigid. Banded,
  /// `shift` 1 for a segment of shifted units (lane L's second particle in band L + 1), else 0.
  struct Segment {
    uint32_t begin, rigidBegin, end;
    uint32_t shift = 0;
  };

  bool colourMajor = false;                      ///< The layout: blocks of particles (false) or of colours (true).
  uint32_t blockParticles = kMinBlockParticles;  ///< Blocks of particles: particles per block, a power of two; the
                                                 ///< block of a constraint is min(rankOf(i), rankOf(j)) / this.
  bool ranked = false;                           ///< Blocks of particles in the locality order (rankOf), not by
                                                 ///< index: the indices' blocks left too little parallel work.
  uint32_t blockCount = 0;                       ///< Blocks of particles: ceil(particles / blockParticles);
                                                 ///< colour-major: kMaxBlocks, colour c's being [c K, (c + 1) K).
  std::vector<uint32_t> blockSequence;           ///< Non-empty blocks by group (block colour, then serial), then id.
  uint32_t groupBegin[kGroups + 1] = {};         ///< Group g is blockSequence[groupBegin[g] .. groupBegin[g+1]).
  std::vector<uint32_t> segmentBegin;            ///< Parallel to blockSequence, plus an end: its segments.
  std::vector<Segment> segments;                 ///< Each block's segments in colour order.
  std::vector<DistanceBatch> batches;            ///< Four constraints of one segment each.
  std::vector<DistanceBatchStrength> strengths;  ///< Parallel to batches.
  std::vector<Real> lambda;                      ///< XPBD multipliers, 4 per batch (lane order); spare lanes unused.
  std::vector<uint32_t> slotOf;                  ///< Per input constraint: 4 batch + lane, or kNoSlot (overflow,
                                                 ///< unbanded).
  bool anyCompliant = false;                     ///< Some batch is compliant: `lambda` must be zeroed per solve.
  bool banded = false;                           ///< Batches are units on the band layout (math/band_layout.h),
                                                 ///< blocks and particles above are band 0's; else batches of four
                                                 ///< constraints on xyzw positions.
  uint32_t bandParticles = 0;                    ///< Banded: m, the particles per band.
  bool latticeOrdered = false;                   ///< Banded on a grid's row-major order (latticeOrder), not on the
                                                 ///< particles' indices.
  std::vector<uint32_t> unbanded;                ///< Banded: positions in `cs` of the coloured constraints in no
                                                 ///< unit, in increasing order: projected one by one after the
                                                 ///< batches.

  /// Room for `particles` and `constraints` (may throw); rebuild then never allocates within them.
  void reserve(size_t particles, size_t constraints);
  /// Lays out the colour-sorted constraints `cs` (colour c is [colourBegin[c], colourBegin[c+1]) for c <
  /// GraphColouring::kColours; the overflow group after them is left to the caller, and gets kNoSlot). Padding
  /// lanes of block b point at particle `particles + b`, one per block, so that threads never write a shared one
  /// (banded: fillers instead, on their unit's own blocks).
  void rebuild(const DistanceConstraint* cs, const uint32_t* colourBegin, uint32_t particles);
  /// Where particle p stands in the order blocks of particles are cut from: p itself, or its locality rank. Ranked,
  /// this is also its place in the padded positions, which the batches name (so that a block's particles lie
  /// together there: no two threads write one cache line, and a block stays in the cache).
  uint32_t rankOf(uint32_t p) const { return ranked ? locality_.ranks()[p] : p; }
  /// Ranked: per rank, its particle (the padded positions' place r holds particle particleAtRank()[r]); else null.
  const uint32_t* particleAtRank() const { return ranked ? locality_.order().data() : nullptr; }
  /// Ranked: per particle, its rank; else null.
  const uint32_t* rankOfParticle() const { return ranked ? locality_.ranks().data() : nullptr; }
  /// Lattice-ordered: per place of the band layout (b + L m: block b, lane L), its particle; else null.
  const uint32_t* particleAtPlace() const { return latticeOrdered ? lattice_.order().data() : nullptr; }
  /// Lattice-ordered: per particle, where its x is in the band layout (bandSlot of its place), so that the copy out
  /// reads one block's cache line with no division by m; else null.
  const uint32_t* bandSlotOfParticle() const { return latticeOrdered ? bandSlot_.data() : nullptr; }
  /// Particles the padded positions need: the real ones and one padding particle per block, or the band layout's
  /// 4 m.
  size_t paddedParticles(size_t particles) const {
    return banded ? 4 * size_t(bandParticles) : particles + blockCount;
  }
  /// The first batch of blockSequence[at] (batches.size() for at = blockSequence.size()): batches are packed block by
  /// block in sequence order, so group g holds batchOfBlock(groupBegin[g + 1]) - batchOfBlock(groupBegin[g]).
  uint32_t batchOfBlock(uint32_t at) const {
    return segmentBegin[at] < segments.size() ? segments[segmentBegin[at]].begin : uint32_t(batches.size());
  }
  /// The smallest range of group g's blocks for a thread (kMinBatchesPerRange); TaskSystem::kOneRange for the serial
  /// group.
  size_t minBlocksPerRange(uint32_t g) const;

 private:
  std::vector<uint32_t> bucketBegin_;     // counting-sort buckets (block, colour, shifted, rigid)
  std::vector<uint32_t> byBlock_;         // input positions sorted by bucket
  std::vector<uint32_t> groupOfBlock_;    // per block id
  std::vector<uint32_t> touchedGroups_;   // per particle: bits of the block colours whose blocks touch it
  LocalityRank locality_;                 // the locality order of `ranked` blocks
  LatticeOrder lattice_;                  // a grid's row-major order, for `latticeOrdered` bands
  std::vector<DistanceConstraint> placed_;  // the coloured constraints on lattice_'s places (formUnits, colourUnits)
  std::vector<uint32_t> bandSlot_;          // latticeOrdered: bandSlotOfParticle()
  // Banded only:
  /// Where a constraint sits in the band layout: blocks a (lane `lane`) and b (lane `lane + shift`), a < b when
  /// shift is 0; `banded` false if it fits no unit.
  struct BandPlace {
    uint32_t a, b, lane, shift;
    bool banded;
  };
  static BandPlace bandPlace(const DistanceConstraint& c, uint32_t m);
  struct BandKey {
    uint64_t blocks;                      // a * 2^32 + b
    uint32_t shift, lane, position;       // the constraint's shift, lower band and position in cs
  };
  std::vector<BandKey> bandKeys_;         // per constraint that fits a unit, sorted
  std::vector<uint32_t> unitOf_;          // per coloured constraint: its unit, or kNoSlot
  std::vector<uint32_t> unitLanes_;       // 4 per unit: the positions in cs of its lanes' constraints, or kNoSlot
  std::vector<uint32_t> unitColour_;      // per unit: its colour, kNoSlot until coloured
  std::vector<uint32_t> unitOrder_;       // the units in the order they were coloured
  std::vector<DistanceConstraint> units_;  // per coloured unit, by colour: i, j its blocks (bandPlace's a, b),
                                           // compliance 0 iff every lane is rigid
  std::vector<uint32_t> unitIds_;         // parallel to units_: the unit's index into unitLanes_
  std::vector<uint8_t> unitShift_;        // parallel to units_: 1 for a shifted unit
  GraphColouring unitColouring_;          // over band 0's particles

  template <class BlockOf>
  void sortIntoBlocks(const DistanceConstraint* cs, const uint32_t* colourBegin, BlockOf blockOf);
  static constexpr uint32_t kBucketsPerColour = 4;  // (plain, shifted) x (compliant, rigid)
  uint32_t blockBegin(uint32_t block) const { return bucketBegin_[block * GraphColouring::kColours * kBucketsPerColour]; }
  void colourBlocks(const DistanceConstraint* cs, uint32_t particles);
  bool blocksLeaveTooLittleParallelWork() const;
  void sequenceBlocks();
  void packBatches(const DistanceConstraint* cs, uint32_t particles);
  void rankBatchLanes(uint32_t begin, uint32_t particles);
  void packUnit(const DistanceConstraint* cs, uint32_t at, DistanceBatch& batch, DistanceBatchStrength& strength,
                uint32_t batchIndex);
  void layOut(const DistanceConstraint* cs, const uint32_t* colourBegin, uint32_t particles, uint32_t minBlock);
  bool formUnits(const DistanceConstraint* cs, uint32_t coloured, uint32_t particles);
  void colourUnits(const DistanceConstraint* cs, uint32_t coloured, uint32_t* unitColourBegin);
};

}  // namespace pbd
