#include "schedule/block_schedule.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "math/band_layout.h"
#include "pbd/task_system.h"

namespace pbd {

namespace {
constexpr uint32_t kColours = GraphColouring::kColours;
constexpr uint32_t kAllBlockColours =
    BlockSchedule::kBlockColours == 32 ? ~0u : (1u << BlockSchedule::kBlockColours) - 1;
}  // namespace

void BlockSchedule::reserve(size_t particles, size_t constraints) {
  // At most kMaxBlocks blocks (blocks of particles: blockParticles grows until kTargetBlocks fit), so everything but
  // the per-particle and per-constraint arrays has a fixed bound. A block of particles has a segment per colour, a
  // colour-major block one.
  const size_t maxSegments = 2 * std::max(size_t(kTargetBlocks) * kColours, size_t(kMaxBlocks));  // banded: plain,
                                                                                                  // shifted
  blockSequence.reserve(kMaxBlocks);
  segmentBegin.reserve(kMaxBlocks + 1);
  segments.reserve(maxSegments);
  // Banded, a batch holds at least 4 kMinUnitFill = 3 constraints on average.
  batches.reserve(constraints / 3 + maxSegments);
  strengths.reserve(constraints / 3 + maxSegments);
  lambda.reserve(4 * (constraints / 3 + maxSegments));
  slotOf.reserve(constraints);
  bucketBegin_.reserve(size_t(kMaxBlocks) * kColours * kBucketsPerColour + 1);
  byBlock_.reserve(constraints);
  groupOfBlock_.reserve(kMaxBlocks);
  touchedGroups_.reserve(particles);
  locality_.reserve(particles, constraints);
  // The band layout's buffers only where it may be chosen; at most constraints / 3 units (formUnits gives up
  // beyond: they could not be kMinUnitFill full).
  if ((particles + 3) / 4 < kMinBandParticles) return;
  lattice_.reserve(particles, constraints);
  bandSlot_.reserve(particles);
  placed_.reserve(constraints);
  const size_t maxUnits = constraints / 3 + 1;
  unbanded.reserve(constraints);
  bandKeys_.reserve(constraints);
  unitOf_.reserve(constraints);
  unitLanes_.reserve(4 * maxUnits);
  unitColour_.reserve(maxUnits);
  unitOrder_.reserve(maxUnits);
  units_.reserve(maxUnits);
  unitIds_.reserve(maxUnits);
  unitShift_.reserve(maxUnits);
  unitColouring_.reserveParticles(particles / 4 + 1);
}

/// Counting sort of the coloured constraints by (block, colour, shifted, rigid): a block's constraints colour by
/// colour; within a colour (banded) the plain units, then the shifted ones; and within those the compliant ones
/// first, so that XPBD runs the rigid ones without strengths or multipliers (BatchMethod::RigidXpbd).
/// blockOf(k, colour) < blockCount. Bucket b ends at bucketBegin_[b + 1].
template <class BlockOf>
void BlockSchedule::sortIntoBlocks(const DistanceConstraint* cs, const uint32_t* colourBegin, BlockOf blockOf) {
  const auto bucketOf = [&](uint32_t k, uint32_t colour) {
    const uint32_t shifted = banded ? unitShift_[k] : 0;
    return ((blockOf(k, colour) * kColours + colour) * 2 + shifted) * 2 + (cs[k].compliance == 0 ? 1 : 0);
  };
  const uint32_t buckets = blockCount * kColours * kBucketsPerColour;
  bucketBegin_.assign(buckets + 1, 0);
  for (uint32_t c = 0; c < kColours; ++c) {
    for (uint32_t k = colourBegin[c]; k < colourBegin[c + 1]; ++k) ++bucketBegin_[bucketOf(k, c) + 1];
  }
  for (uint32_t b = 0; b < buckets; ++b) bucketBegin_[b + 1] += bucketBegin_[b];
  byBlock_.resize(colourBegin[kColours]);
  for (uint32_t c = 0; c < kColours; ++c) {
    for (uint32_t k = colourBegin[c]; k < colourBegin[c + 1]; ++k) byBlock_[bucketBegin_[bucketOf(k, c)]++] = k;
  }
  for (uint32_t b = buckets; b > 0; --b) bucketBegin_[b] = bucketBegin_[b - 1];  // the cursors ran to the ends
  bucketBegin_[0] = 0;
}

/// Greedy block colouring: a block takes the lowest block colour that no earlier block touching one of its
/// particles took. Blocks without constraints take none; blocks that find none free go to the serial group.
void BlockSchedule::colourBlocks(const DistanceConstraint* cs, uint32_t particles) {
  touchedGroups_.assign(particles, 0);
  groupOfBlock_.assign(blockCount, kGroups);  // kGroups: empty, not scheduled
  for (uint32_t block = 0; block < blockCount; ++block) {
    const uint32_t first = blockBegin(block), last = blockBegin(block + 1);
    if (first == last) continue;
    uint32_t used = 0;
    for (uint32_t q = first; q < last; ++q) used |= touchedGroups_[cs[byBlock_[q]].i] | touchedGroups_[cs[byBlock_[q]].j];
    uint32_t group = kSerialGroup;
    if ((used & kAllBlockColours) != kAllBlockColours) {
      group = uint32_t(__builtin_ctz(~used));
      for (uint32_t q = first; q < last; ++q) {
        touchedGroups_[cs[byBlock_[q]].i] |= 1u << group;
        touchedGroups_[cs[byBlock_[q]].j] |= 1u << group;
      }
    }
    groupOfBlock_[block] = group;
  }
}

/// The blocks' critical path, with unlimited threads: per block colour its largest block, plus the whole serial
/// group. More than 2/3 of all the work on it means that no thread count could make the pass 1.5× faster. (Half is
/// too strict: the 4 strips of a 32² cloth alternate between 2 block colours, which 2 threads run at full speed.)
bool BlockSchedule::blocksLeaveTooLittleParallelWork() const {
  uint32_t largest[kGroups] = {}, serial = 0;
  for (uint32_t block = 0; block < blockCount; ++block) {
    const uint32_t group = groupOfBlock_[block], size = blockBegin(block + 1) - blockBegin(block);
    if (group == kSerialGroup) serial += size;
    else if (group < kGroups) largest[group] = std::max(largest[group], size);
  }
  uint64_t critical = serial;
  for (uint32_t g = 0; g < kBlockColours; ++g) critical += largest[g];
  return 3 * critical > 2 * uint64_t(blockBegin(blockCount));
}

size_t BlockSchedule::minBlocksPerRange(uint32_t g) const {
  if (g == kSerialGroup) return TaskSystem::kOneRange;
  const size_t blocks = groupBegin[g + 1] - groupBegin[g];
  const size_t groupBatches = batchOfBlock(groupBegin[g + 1]) - batchOfBlock(groupBegin[g]);
  // ceil(kMinBatchesPerRange / batches per block); a group without batches is never shared.
  if (groupBatches == 0) return TaskSystem::kOneRange;
  return std::max<size_t>(1, (size_t(kMinBatchesPerRange) * blocks + groupBatches - 1) / groupBatches);
}

/// blockSequence and groupBegin from groupOfBlock_: the non-empty blocks by group, then id.
void BlockSchedule::sequenceBlocks() {
  uint32_t groupSize[kGroups] = {};
  for (uint32_t block = 0; block < blockCount; ++block) {
    if (groupOfBlock_[block] < kGroups) ++groupSize[groupOfBlock_[block]];
  }
  groupBegin[0] = 0;
  for (uint32_t g = 0; g < kGroups; ++g) groupBegin[g + 1] = groupBegin[g] + groupSize[g];
  uint32_t next[kGroups];
  std::copy(groupBegin, groupBegin + kGroups, next);
  blockSequence.resize(groupBegin[kGroups]);
  for (uint32_t block = 0; block < blockCount; ++block) {
    if (groupOfBlock_[block] < kGroups) blockSequence[next[groupOfBlock_[block]]++] = block;
  }
}

/// The batches, block by block in sequence order, a segment per non-empty colour of a block: four constraints of
/// `cs` a batch, or banded one unit.
void BlockSchedule::packBatches(const DistanceConstraint* cs, uint32_t particles) {
  segmentBegin.clear();
  segments.clear();
  batches.clear();
  strengths.clear();
  anyCompliant = false;
  for (uint32_t block : blockSequence) {
    segmentBegin.push_back(uint32_t(segments.size()));
    for (uint32_t c = 0; c < kColours * 2; ++c) {  // colour c / 2, plain then shifted
      const uint32_t compliantBucket = (block * kColours * 2 + c) * 2;
      const uint32_t first = bucketBegin_[compliantBucket], rigid = bucketBegin_[compliantBucket + 1],
                     last = bucketBegin_[compliantBucket + 2];
      if (first == last) continue;
      const uint32_t begin = uint32_t(batches.size()), n = last - first;
      if (banded) {
        batches.resize(begin + n);
        strengths.resize(batches.size());
        for (uint32_t q = 0; q < n; ++q) packUnit(cs, byBlock_[first + q], batches[begin + q], strengths[begin + q], begin + q);
        segments.push_back({begin, begin + (rigid - first), uint32_t(batches.size()), c % 2});
      } else {
        batches.resize(begin + (n + 3) / 4);
        strengths.resize(batches.size());
        packDistanceBatches(cs, n, particles + block, batches.data() + begin, strengths.data() + begin,
                            byBlock_.data() + first);
        if (ranked) rankBatchLanes(begin, particles);
        for (uint32_t q = 0; q < n; ++q) slotOf[byBlock_[first + q]] = 4 * begin + q;
        segments.push_back({begin, begin + (rigid - first + 3) / 4, uint32_t(batches.size())});  // mixed: compliant
      }
      anyCompliant |= rigid > first;
    }
  }
  segmentBegin.push_back(uint32_t(segments.size()));
  lambda.assign(4 * batches.size(), Real(0));
}

/// Ranked: the batches from `begin` on name particles by rank, their places in the padded positions (padding lanes,
/// at particles + block, stay).
void BlockSchedule::rankBatchLanes(uint32_t begin, uint32_t particles) {
  const std::vector<uint32_t>& rank = locality_.ranks();
  for (size_t b = begin; b < batches.size(); ++b) {
    for (int lane = 0; lane < 4; ++lane) {
      if (batches[b].i[lane] < particles) batches[b].i[lane] = rank[batches[b].i[lane]];
      if (batches[b].j[lane] < particles) batches[b].j[lane] = rank[batches[b].j[lane]];
    }
  }
}

/// Batch `batchIndex` from units_[at]: lane L on particles i + L m and j + ((L + shift) mod 4) m, with its
/// constraint's lengths and strengths, or a filler (lengths 0 and +∞: never active) where the unit has no
/// translate in band L.
void BlockSchedule::packUnit(const DistanceConstraint* cs, uint32_t at, DistanceBatch& batch,
                             DistanceBatchStrength& strength, uint32_t batchIndex) {
  const uint32_t unit = unitIds_[at];
  for (uint32_t lane = 0; lane < 4; ++lane) {
    batch.i[lane] = units_[at].i + lane * bandParticles;
    batch.j[lane] = units_[at].j + (lane + unitShift_[at]) % 4 * bandParticles;
    const uint32_t k = unitLanes_[4 * unit + lane];
    const bool real = k != kNoSlot;
    batch.minLength[lane] = real ? cs[k].minLength : Real(0);
    batch.maxLength[lane] = real ? cs[k].maxLength : std::numeric_limits<Real>::infinity();
    strength.kPrime[lane] = real ? cs[k].kPrime : Real(0);
    strength.compliance[lane] = real ? cs[k].compliance : Real(0);
    if (real) slotOf[k] = 4 * batchIndex + lane;
  }
}

BlockSchedule::BandPlace BlockSchedule::bandPlace(const DistanceConstraint& c, uint32_t m) {
  const uint32_t li = c.i / m, lj = c.j / m, bi = c.i - li * m, bj = c.j - lj * m;
  if (li == lj) return {std::min(bi, bj), std::max(bi, bj), li, 0, true};
  if (li + 1 == lj) return {bi, bj, li, 1, bi != bj};  // a particle and its own translate: a chain, not four lanes
  if (lj + 1 == li) return {bj, bi, lj, 1, bi != bj};
  return {0, 0, 0, 0, false};
}

/// Banded: the units of the coloured constraints cs[0, coloured). A constraint sits at blocks (a, b) with a shift
/// (bandPlace); the constraints at one place fill units lane by lane, one per band each (a second one in the same
/// band starts another unit). Returns whether the units cover kMinBandedShare of the constraints and fill
/// kMinUnitFill of their lanes.
bool BlockSchedule::formUnits(const DistanceConstraint* cs, uint32_t coloured, uint32_t particles) {
  const uint32_t m = bandParticles = (particles + 3) / 4;
  if (m < kMinBandParticles) return false;
  bandKeys_.clear();
  for (uint32_t k = 0; k < coloured; ++k) {
    const BandPlace place = bandPlace(cs[k], m);
    if (place.banded) bandKeys_.push_back({uint64_t(place.a) << 32 | place.b, place.shift, place.lane, k});
  }
  std::sort(bandKeys_.begin(), bandKeys_.end(), [](const BandKey& x, const BandKey& y) {
    if (x.blocks != y.blocks) return x.blocks < y.blocks;
    if (x.shift != y.shift) return x.shift < y.shift;
    return x.lane != y.lane ? x.lane < y.lane : x.position < y.position;
  });
  unitOf_.assign(coloured, kNoSlot);
  unitLanes_.clear();
  size_t filled = 0;
  for (size_t g = 0; g < bandKeys_.size();) {
    size_t laneBegin[5] = {g, g, g, g, g}, h = g;
    for (; h < bandKeys_.size() && bandKeys_[h].blocks == bandKeys_[g].blocks && bandKeys_[h].shift == bandKeys_[g].shift;
         ++h) {
      laneBegin[bandKeys_[h].lane + 1] = h + 1;
    }
    for (uint32_t lane = 1; lane < 5; ++lane) laneBegin[lane] = std::max(laneBegin[lane], laneBegin[lane - 1]);
    size_t deepest = 0;
    for (uint32_t lane = 0; lane < 4; ++lane) deepest = std::max(deepest, laneBegin[lane + 1] - laneBegin[lane]);
    for (size_t r = 0; r < deepest; ++r) {
      const uint32_t unit = uint32_t(unitLanes_.size() / 4);
      if (unit == coloured / 3 + 1) return false;  // more units than kMinUnitFill full ones could be
      for (uint32_t lane = 0; lane < 4; ++lane) {
        const size_t at = laneBegin[lane] + r;
        const uint32_t k = at < laneBegin[lane + 1] ? bandKeys_[at].position : kNoSlot;
        unitLanes_.push_back(k);
        if (k != kNoSlot) unitOf_[k] = unit, ++filled;
      }
    }
    g = h;
  }
  const size_t units = unitLanes_.size() / 4;
  return double(filled) >= kMinBandedShare * double(coloured) && double(filled) >= kMinUnitFill * double(4 * units);
}

/// Banded: colours the units greedily over band 0's particles, each when its first constraint comes in cs's order
/// (so that they colour as the constraints of band 0 did), and sorts them by colour into units_. A unit left
/// without a colour, and a constraint in no unit, is unbanded.
void BlockSchedule::colourUnits(const DistanceConstraint* cs, uint32_t coloured, uint32_t* unitColourBegin) {
  const uint32_t m = bandParticles;
  unitColouring_.resizeParticles(m);
  unitColouring_.clear();
  unitColour_.assign(unitLanes_.size() / 4, kNoSlot);
  unitOrder_.clear();
  unbanded.clear();
  std::fill(unitColourBegin, unitColourBegin + kColours + 1, 0u);
  for (uint32_t k = 0; k < coloured; ++k) {
    const uint32_t unit = unitOf_[k];
    if (unit != kNoSlot && unitColour_[unit] == kNoSlot) {
      const BandPlace place = bandPlace(cs[k], m);
      unitColour_[unit] = unitColouring_.add(place.a, place.b);
      if (unitColour_[unit] != GraphColouring::kOverflow) {
        unitOrder_.push_back(unit);
        ++unitColourBegin[unitColour_[unit] + 1];
      }
    }
    if (unit == kNoSlot || unitColour_[unit] == GraphColouring::kOverflow) unbanded.push_back(k);
  }
  for (uint32_t c = 0; c < kColours; ++c) unitColourBegin[c + 1] += unitColourBegin[c];
  uint32_t next[kColours];
  std::copy(unitColourBegin, unitColourBegin + kColours, next);
  units_.resize(unitOrder_.size());
  unitIds_.resize(unitOrder_.size());
  unitShift_.resize(unitOrder_.size());
  for (uint32_t unit : unitOrder_) {
    const uint32_t at = next[unitColour_[unit]]++;
    bool rigid = true;
    BandPlace place{};
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const uint32_t k = unitLanes_[4 * unit + lane];
      if (k == kNoSlot) continue;
      rigid &= cs[k].compliance == 0;
      place = bandPlace(cs[k], m);
    }
    units_[at] = {place.a, place.b, 0, 0, rigid ? Real(0) : Real(1), 0, 0};
    unitIds_[at] = unit;
    unitShift_[at] = uint8_t(place.shift);
  }
}

void BlockSchedule::rebuild(const DistanceConstraint* cs, const uint32_t* colourBegin, uint32_t particles) {
  const uint32_t coloured = colourBegin[kColours];
  slotOf.assign(colourBegin[kColours + 1], kNoSlot);
  latticeOrdered = false;
  banded = formUnits(cs, coloured, particles);
  const DistanceConstraint* placed = cs;  // the constraints as the band layout numbers their particles
  if (!banded && (particles + 3) / 4 >= kMinBandParticles &&
      lattice_.compute(particles, colourBegin[kColours + 1], [&](uint32_t k) -> const DistanceConstraint& {
        return cs[k];
      })) {
    const std::vector<uint32_t>& rank = lattice_.ranks();
    placed_.assign(cs, cs + coloured);
    for (DistanceConstraint& c : placed_) c.i = rank[c.i], c.j = rank[c.j];
    banded = latticeOrdered = formUnits(placed_.data(), coloured, particles);
    if (banded) placed = placed_.data();
  }
  if (banded) {
    uint32_t unitColourBegin[kColours + 1];
    colourUnits(placed, coloured, unitColourBegin);  // fills `unbanded`
    // Band 0 too small for its blocks to alternate: smaller blocks (a unit is a whole batch, so a block's segments
    // end in no partial batch). If still not, blocks of particles, as without bands; or, with too few units to go
    // colour-major (kMinColourMajorConstraints), the largest blocks, on one thread.
    for (uint32_t block = kMinBlockParticles;; block /= 2) {
      layOut(units_.data(), unitColourBegin, bandParticles, block);
      if (!colourMajor && !blocksLeaveTooLittleParallelWork()) break;
      if (block / 2 < kMinBandBlockParticles) {
        if (!colourMajor) layOut(units_.data(), unitColourBegin, bandParticles, kMinBlockParticles);
        break;
      }
    }
    banded = !colourMajor;
    latticeOrdered = latticeOrdered && banded;
  }
  if (latticeOrdered) {
    const std::vector<uint32_t>& rank = lattice_.ranks();
    bandSlot_.resize(particles);
    for (uint32_t p = 0; p < particles; ++p) bandSlot_[p] = bandSlot(rank[p], bandParticles);
  }
  if (!banded) {  // every coloured constraint is in a batch
    unbanded.clear();
    layOut(cs, colourBegin, particles, kMinBlockParticles);
  }
  packBatches(cs, particles);
}

/// Blocks of `cs`'s coloured constraints (or banded, units) over `particles`: blocks of particles (of at least
/// `minBlock`), or colour-major when those leave too little parallel work; coloured and sequenced.
void BlockSchedule::layOut(const DistanceConstraint* cs, const uint32_t* colourBegin, uint32_t particles,
                           uint32_t minBlock) {
  colourMajor = false;
  blockParticles = minBlock;
  while (uint64_t(blockParticles) * kTargetBlocks < particles) blockParticles *= 2;
  blockCount = (particles + blockParticles - 1) / blockParticles;
  // A unit's block is its first block's: a shifted unit's is then the one on the band's far side, beside its other
  // block across the wrap (a grid's last rows of band 0 and its first), which keeps a grid's strips in two colours.
  // Blocks of particles: of indices, or ranked, of ranks (rankOf is the identity until `ranked` is set).
  auto blockOfParticles = [&](uint32_t k, uint32_t) {
    return (banded ? cs[k].i : std::min(rankOf(cs[k].i), rankOf(cs[k].j))) / blockParticles;
  };
  ranked = false;
  sortIntoBlocks(cs, colourBegin, blockOfParticles);
  colourBlocks(cs, particles);
  const bool enoughToShare = colourBegin[kColours] >= kMinColourMajorConstraints;
  if (enoughToShare && !banded && blocksLeaveTooLittleParallelWork()) {
    // Numbered without locality: blocks of consecutive ranks in the constraints' own breadth-first order instead.
    locality_.compute(particles, colourBegin[kColours], [&](uint32_t k) { return std::pair(cs[k].i, cs[k].j); });
    ranked = true;
    sortIntoBlocks(cs, colourBegin, blockOfParticles);
    colourBlocks(cs, particles);
  }
  if (enoughToShare && blocksLeaveTooLittleParallelWork()) {
    ranked = false;
    // Colour-major: block c K + q holds the q-th of K equal runs of colour c, in colour order.
    colourMajor = true;
    blockCount = kMaxBlocks;
    groupOfBlock_.resize(blockCount);  // reserved: no allocation
    sortIntoBlocks(cs, colourBegin, [&](uint32_t k, uint32_t colour) {
      const uint64_t rank = k - colourBegin[colour], size = colourBegin[colour + 1] - colourBegin[colour];
      return colour * kBlocksPerColour + uint32_t(rank * kBlocksPerColour / size);
    });
    for (uint32_t block = 0; block < blockCount; ++block) {
      groupOfBlock_[block] = blockBegin(block) == blockBegin(block + 1) ? kGroups : block / kBlocksPerColour;
    }
  }
  sequenceBlocks();
}

}  // namespace pbd
