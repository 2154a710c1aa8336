#include "schedule/block_schedule.h"

#include <algorithm>

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
  const size_t maxSegments = std::max(size_t(kTargetBlocks) * kColours, size_t(kMaxBlocks));
  blockSequence.reserve(kMaxBlocks);
  segmentBegin.reserve(kMaxBlocks + 1);
  segments.reserve(maxSegments);
  batches.reserve(constraints / 4 + maxSegments);
  strengths.reserve(constraints / 4 + maxSegments);
  lambda.reserve(4 * (constraints / 4 + maxSegments));
  slotOf.reserve(constraints);
  bucketBegin_.reserve(size_t(kMaxBlocks) * kColours * 2 + 1);
  byBlock_.reserve(constraints);
  groupOfBlock_.reserve(kMaxBlocks);
  touchedGroups_.reserve(particles);
}

/// Counting sort of the coloured constraints by (block, colour, rigid): a block's constraints colour by colour, and
/// within a colour the compliant ones first, so that XPBD runs the rigid ones without strengths or multipliers
/// (BatchMethod::RigidXpbd). blockOf(k, colour) < blockCount. Bucket b ends at bucketBegin_[b + 1].
template <class BlockOf>
void BlockSchedule::sortIntoBlocks(const DistanceConstraint* cs, const uint32_t* colourBegin, BlockOf blockOf) {
  const auto bucketOf = [&](uint32_t k, uint32_t colour) {
    return (blockOf(k, colour) * kColours + colour) * 2 + (cs[k].compliance == 0 ? 1 : 0);
  };
  const uint32_t buckets = blockCount * kColours * 2;
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

/// The batches, block by block in sequence order, a segment per non-empty colour of a block.
void BlockSchedule::packBatches(const DistanceConstraint* cs, const uint32_t* colourBegin, uint32_t particles) {
  segmentBegin.clear();
  segments.clear();
  batches.clear();
  strengths.clear();
  slotOf.assign(colourBegin[kColours + 1], kNoSlot);
  anyCompliant = false;
  for (uint32_t block : blockSequence) {
    segmentBegin.push_back(uint32_t(segments.size()));
    for (uint32_t c = 0; c < kColours; ++c) {
      const uint32_t compliantBucket = (block * kColours + c) * 2;
      const uint32_t first = bucketBegin_[compliantBucket], rigid = bucketBegin_[compliantBucket + 1],
                     last = bucketBegin_[compliantBucket + 2];
      if (first == last) continue;
      const uint32_t begin = uint32_t(batches.size()), n = last - first;
      batches.resize(begin + (n + 3) / 4);
      strengths.resize(batches.size());
      packDistanceBatches(cs, n, particles + block, batches.data() + begin, strengths.data() + begin,
                          byBlock_.data() + first);
      for (uint32_t q = 0; q < n; ++q) slotOf[byBlock_[first + q]] = 4 * begin + q;
      segments.push_back({begin, begin + (rigid - first + 3) / 4, uint32_t(batches.size())});  // mixed: compliant
      anyCompliant |= rigid > first;
    }
  }
  segmentBegin.push_back(uint32_t(segments.size()));
  lambda.assign(4 * batches.size(), Real(0));
}

void BlockSchedule::rebuild(const DistanceConstraint* cs, const uint32_t* colourBegin, uint32_t particles) {
  colourMajor = false;
  blockParticles = kMinBlockParticles;
  while (uint64_t(blockParticles) * kTargetBlocks < particles) blockParticles *= 2;
  blockCount = (particles + blockParticles - 1) / blockParticles;
  sortIntoBlocks(cs, colourBegin, [&](uint32_t k, uint32_t) { return std::min(cs[k].i, cs[k].j) / blockParticles; });
  colourBlocks(cs, particles);
  if (colourBegin[kColours] >= kMinColourMajorConstraints && blocksLeaveTooLittleParallelWork()) {
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
  packBatches(cs, colourBegin, particles);
}

}  // namespace pbd
