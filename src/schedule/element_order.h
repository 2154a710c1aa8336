// The order in which the serial element sweeps (tet volumes, Neo-Hookean tets, dihedral hinges) project their
// elements: colour by colour, where no two elements of one colour share a particle (a greedy colouring in the order
// added), then the elements that fit no colour.
//
// Why: projected in the order added, neighbouring elements share particles, so each projection waits for the
// positions the previous one just wrote: the soft cube's volume sweep ran at ~48 ns a tet, latency-bound. Within a
// colour the projections are independent, so the CPU overlaps them, and their order does not change the result.
// The symmetric sweep (symmetric_sweep.h) goes forward through this order and back, which keeps its stability
// argument: any fixed order swept both ways gives a symmetric iteration matrix.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pbd {

class ElementOrder {
 public:
  /// Colours: up to kMaskBits for a whole body or a split body's halves (one bit each in a particle's mask), and the
  /// rest for a split body's interface (its halves, then theirs), coloured with masks of its own.
  static constexpr uint32_t kColours = 128;
  static constexpr uint32_t kMaskBits = 64;
  static constexpr uint32_t kRuns = 8;      ///< Runs per colour (runBegin).
  static constexpr uint32_t kIslandGroups = 16;  ///< At most this many island groups (islandGroupCount).
  /// A body of this many elements or more is split in two halves with an interface (splitColour), when the interface is
  /// small. Chosen, not tuned: the 10³-cell cube (6,000 tets) gains from it; smaller bodies were not measured split.
  static constexpr size_t kMinSplitElements = 2048;
  /// A split body's interface of this many elements or more is split again, in halves with an interface of their own
  /// (subSplitColour), so that two threads share it too.
  static constexpr size_t kMinSubSplitElements = kMinSplitElements / 4;
  /// placeHalvesApart keeps the numbering as the layout while at most one line in this many is mixed.
  static constexpr size_t kApartLines = 64;

  /// Makes room for `particles` particles and `elements` elements (may throw), so rebuild never allocates.
  void reserve(size_t particles, size_t elements) {
    masks_.reserve(particles);
    colour_.reserve(elements);
    order_.reserve(elements);
    lowestAfter_.reserve(elements);
    half_.reserve(elements);
    elementsBegin_.reserve(particles + 1);
    elementsOf_.reserve(4 * elements);
    queue_.reserve(elements);
    interface_.reserve(elements);
  }

  /// Colours elements 0 .. count-1 greedily in that order; particlesOf(e) returns the element's 4 particle indices
  /// (a pointer to them, or an array of them by value), all below particleCount. Then lists them colour by colour, the uncoloured ones last. With
  /// kMinSplitElements or more in one island group, split in halves (see splitColour) when the interface is at most a
  /// quarter of the elements: the halves' elements are coloured first, the interface's after them in colours of its
  /// own; an interface of kMinSubSplitElements or more is split so again (subSplitColour): its halves' colours, then
  /// its own interface's.
  template <class ParticlesOf>
  void rebuild(size_t count, size_t particleCount, ParticlesOf particlesOf) {
    masks_.assign(particleCount, 0);
    colour_.assign(count, 0);
    half_.assign(count, 0);
    findIslandGroups(count, particlesOf);
    const bool byNumber = count >= kMinSplitElements && groups_ == 1 && splitByNumber(count, particlesOf);
    bool split = byNumber || (count >= kMinSplitElements && groups_ == 1 &&
                              splitBreadthFirst(count, particleCount, particlesOf));
    if (!split) std::fill(half_.begin(), half_.end(), 0);  // all of one level, whatever a failed split marked
    const bool subSplit = split && splitInterface(count, particleCount, !byNumber, particlesOf);
    // Colour first + b for the lowest bit b that no particle of e has in its mask; kColours when none is left.
    auto colourOf = [&](size_t e, uint32_t first) {
      const auto q = particlesOf(e);
      const uint64_t used = masks_[q[0]] | masks_[q[1]] | masks_[q[2]] | masks_[q[3]];
      const uint32_t b = used == ~uint64_t(0) ? kMaskBits : uint32_t(__builtin_ctzll(~used));
      if (b == kMaskBits || first + b >= kColours) return uint8_t(kColours);
      for (int k = 0; k < 4; ++k) masks_[q[k]] |= uint64_t(1) << b;
      return uint8_t(first + b);
    };
    // Level by level (the halves, the interface's halves, the last interface), each from colour `first` on with its
    // masks afresh: only a level's elements exclude each other there. Returns the colours used so far.
    auto colourLevel = [&](uint32_t first, bool (*inLevel)(uint8_t)) {
      std::fill(masks_.begin(), masks_.end(), 0);
      uint32_t end = first;
      for (size_t e = 0; e < count; ++e) {
        if (!inLevel(half_[e])) continue;
        colour_[e] = colourOf(e, first);
        if (colour_[e] < kColours) end = std::max(end, uint32_t(colour_[e]) + 1);
      }
      return end;
    };
    const uint32_t halves = colourLevel(0, [](uint8_t h) { return h == 0 || h == 1; });
    const uint32_t subHalves = subSplit ? colourLevel(halves, [](uint8_t h) { return h >= kInterface0; }) : halves;
    if (split) {
      colourLevel(subHalves, [](uint8_t h) { return h == kInterface; });
      if (std::find(colour_.begin(), colour_.end(), uint8_t(kColours)) != colour_.end()) {
        // out of colours: the split would leave elements to the serial rest; coloured as a whole instead
        split = false;
        std::fill(masks_.begin(), masks_.end(), 0);
        for (size_t e = 0; e < count; ++e) colour_[e] = colourOf(e, 0);
      }
    }
    split_ = split ? halves : 0;
    subSplit_ = split ? subHalves : 0;
    std::fill(begin_, begin_ + kColours + 2, 0u);
    for (uint8_t c : colour_) ++begin_[c + 1];
    largestColour_ = *std::max_element(begin_ + 1, begin_ + kColours + 1);
    for (uint32_t c = 0; c <= kColours; ++c) begin_[c + 1] += begin_[c];
    // Colour by colour, each by number; a halves' colour (of either level) lists its first half's elements, then
    // its second's.
    auto second = [](uint8_t h) { return h == 1 || h == kInterface1; };
    uint32_t next[kColours + 1];
    std::copy(begin_, begin_ + kColours + 1, next);
    for (uint32_t c = 0; c < subSplit_; ++c)
      halfBegin_[c][0] = halfBegin_[c][1] = begin_[c], halfBegin_[c][2] = begin_[c + 1];
    for (size_t e = 0; e < count; ++e)
      if (colour_[e] < subSplit_ && !second(half_[e])) ++halfBegin_[colour_[e]][1];
    for (uint32_t c = 0; c < subSplit_; ++c) next[c] = halfBegin_[c][0];
    uint32_t nextSecond[kColours];
    for (uint32_t c = 0; c < subSplit_; ++c) nextSecond[c] = halfBegin_[c][1];
    order_.resize(count);
    for (size_t e = 0; e < count; ++e) {
      const uint8_t c = colour_[e];
      order_[c < subSplit_ && second(half_[e]) ? nextSecond[c]++ : next[c]++] = uint32_t(e);
    }
    // A colour listed by number: run r (numbers from about r count / kRuns up to (r + 1) count / kRuns) is a
    // contiguous part of it. A halves' colour: runs of equal length. Each run starts a whole number of fours into its
    // colour, so that only the colour's last run ends in a short batch. The uncoloured rest runs serially, no runs.
    uint32_t runCuts[kRuns];
    for (uint32_t r = 0; r < kRuns; ++r) runCuts[r] = uint32_t(uint64_t(r) * count / kRuns);
    for (uint32_t c = 0; c < kColours; ++c) {
      if (c >= subSplit_) {
        cutColour(c, runCuts, kRuns, 4, runBegin_[c]);
        continue;
      }
      const uint64_t size = begin_[c + 1] - begin_[c];
      for (uint32_t r = 0; r < kRuns; ++r) runBegin_[c][r] = begin_[c] + uint32_t(r * size / kRuns / 4 * 4);
      runBegin_[c][kRuns] = begin_[c + 1];
    }
    for (uint32_t c = 0; c <= kColours; ++c) cutColour(c, islandCuts_, groups_, 1, islandBegin_[c]);
  }

  /// Element indices, colour by colour; as many as the last rebuild's count.
  const std::vector<uint32_t>& order() const { return order_; }
  /// Colour c (kColours = the uncoloured rest) is order()[colourBegin(c) .. colourBegin(c + 1)).
  uint32_t colourBegin(uint32_t c) const { return begin_[c]; }
  /// Run r of colour c < kColours is order()[runBegin(c, r) .. runBegin(c, r + 1)): its elements numbered from
  /// r count / kRuns up to (r + 1) count / kRuns, each end moved back (by at most three) to a whole number of fours
  /// into the colour. Elements added in space order (the builders' cells, localityOrder) fall in the same region of
  /// the body in every colour, so a thread that takes the same runs of each colour keeps writing the same particles:
  /// their cache lines do not move between cores from colour to colour. A halves' colour (c < splitColour(), listed
  /// half by half) is cut into runs of equal length instead.
  uint32_t runBegin(uint32_t c, uint32_t r) const { return runBegin_[c][r]; }

  /// How many island groups the elements fall into (0 without elements): groups of consecutive element numbers, cut
  /// only where no element before the cut shares a particle with one after it, so that no two groups share a
  /// particle. Bodies added one after another (each its own particles) are such groups; up to kIslandGroups of them
  /// are made, about equal in elements, each cut at the first place allowed at or after k count / kIslandGroups.
  /// One group: the elements cannot be split so (one body, or bodies whose elements were added interleaved).
  uint32_t islandGroupCount() const { return groups_; }
  /// Group g of colour c (kColours = the uncoloured rest) is order()[islandBegin(c, g) .. islandBegin(c, g + 1)):
  /// the colour's elements numbered from the group's first element up to the next group's.
  uint32_t islandBegin(uint32_t c, uint32_t g) const { return islandBegin_[c][g]; }
  /// Colours [0, splitColour()) hold the two halves' elements of a split order (rebuild), which share no particle:
  /// a sweep may run each half's colours on a thread of its own with no barrier between colours, then the interface
  /// (the later colours and the rest) forward and back, then the halves' colours backward, and compute the bits of
  /// the colour-by-colour sweep (per particle the projections come in the same order). 0: not split.
  uint32_t splitColour() const { return split_; }
  /// Colours [splitColour(), subSplitColour()) hold the interface's own two halves, which share no particle: a sweep
  /// may run them likewise after the halves' colours, before the last interface (the later colours and the rest).
  /// splitColour() when the interface is not split.
  uint32_t subSplitColour() const { return subSplit_; }
  /// Half h (0 or 1) of colour c < subSplitColour() is order()[halfBegin(c, h) .. halfBegin(c, h + 1)).
  uint32_t halfBegin(uint32_t c, uint32_t h) const { return halfBegin_[c][h]; }
  /// Where a sweep's padded positions put the particles, so that the halves' particles lie apart (each half's cache
  /// lines written by one thread): with a split order whose halves' particles are interleaved in their numbering (more
  /// than one in kApartLines of the four-particle lines hold particles of both halves: a mesh numbered without
  /// locality), atPlace[r] is the particle at place r: half 0's particles, then half 1's, then the others, each in
  /// their numbering; placeOf is its inverse. Otherwise both are left empty (the numbering is the layout). Sizes them
  /// within the reserve; a permutation changes no projection, so the bits are the same either way.
  template <class ParticlesOf>
  void placeHalvesApart(size_t particleCount, ParticlesOf particlesOf, std::vector<uint32_t>& atPlace,
                        std::vector<uint32_t>& placeOf) const {
    atPlace.clear(), placeOf.clear();
    if (split_ == 0) return;
    constexpr uint8_t kOther = 4;
    placeOf.assign(particleCount, kOther);  // first each particle's side: h for half h's, kOther for the rest
    for (uint32_t c = 0; c < split_; ++c)
      for (uint32_t h = 0; h < 2; ++h)
        for (uint32_t n = halfBegin_[c][h]; n < halfBegin_[c][h + 1]; ++n)
          for (int k = 0; k < 4; ++k) placeOf[particlesOf(order_[n])[k]] = h;
    size_t mixed = 0;
    for (size_t line = 0; line < particleCount; line += 4) {
      uint32_t sides = 0;
      for (size_t i = line; i < std::min(particleCount, line + 4); ++i) sides |= 1u << placeOf[i];
      mixed += (sides & 3) == 3;
    }
    if (mixed * kApartLines <= (particleCount + 3) / 4) return placeOf.clear();
    atPlace.resize(particleCount);
    size_t next = 0;
    for (uint32_t side : {0u, 1u, uint32_t(kOther)})
      for (size_t i = 0; i < particleCount; ++i)
        if (placeOf[i] == side) atPlace[next++] = uint32_t(i);
    for (size_t r = 0; r < particleCount; ++r) placeOf[atPlace[r]] = uint32_t(r);
  }

  /// The elements of the largest island group.
  uint32_t largestIslandGroup() const { return largestGroup_; }
  /// The elements of the largest colour (the uncoloured rest not counted).
  uint32_t largestColour() const { return largestColour_; }
  /// Whether a sweep that shares out colours of more than `sharedElements` elements does better by island groups
  /// (symmetric_sweep.h): no colour is that big, so colour by colour every colour would run on one thread; the
  /// elements are more than that, in more than one group, and no group holds more than half of them. With one group of
  /// most elements the others gain too little (docs/performance.md, "Tried and dropped": island groups).
  bool islandsPay(size_t sharedElements) const {
    const size_t elements = begin_[kColours + 1] - begin_[0];
    return largestColour_ <= sharedElements && elements > sharedElements && groups_ > 1 &&
           2 * size_t(largestGroup_) <= elements;
  }

 private:
  /// Cuts colour c (its elements listed by number) at the `parts` ascending element numbers cuts: begins[k] is where in
  /// order() the colour's first element numbered at or after cuts[k] is, moved back to a whole number of `multiple`s
  /// into the colour; begins[parts] is the colour's end.
  void cutColour(uint32_t c, const uint32_t* cuts, uint32_t parts, uint32_t multiple, uint32_t* begins) const {
    const uint32_t* first = order_.data() + begin_[c];
    const uint32_t* last = order_.data() + begin_[c + 1];
    for (uint32_t k = 0; k < parts; ++k) {
      begins[k] = begin_[c] + uint32_t(std::lower_bound(first, last, cuts[k]) - first) / multiple * multiple;
    }
    begins[parts] = begin_[c + 1];
  }

  /// Sets groups_, islandCuts_ and largestGroup_ (see islandGroupCount); the cut test is the prefix's highest particle
  /// number below the suffix's lowest, which holds between bodies whose particles are numbered one body after another.
  template <class ParticlesOf>
  void findIslandGroups(size_t count, ParticlesOf particlesOf) {
    auto lowest = [](const auto& q) { return std::min(std::min(q[0], q[1]), std::min(q[2], q[3])); };
    auto highest = [](const auto& q) { return std::max(std::max(q[0], q[1]), std::max(q[2], q[3])); };
    lowestAfter_.resize(count);
    uint32_t low = ~0u;
    for (size_t e = count; e-- > 0;) lowestAfter_[e] = low = std::min(low, lowest(particlesOf(e)));
    islandCuts_[0] = 0;
    uint32_t groups = 0, high = 0;
    uint64_t target = 1;  // the next cut is wanted at or after target count / kIslandGroups
    for (size_t e = 1; e < count && groups + 1 < kIslandGroups; ++e) {
      high = std::max(high, highest(particlesOf(e - 1)));
      if (e * kIslandGroups < target * count || !(high < lowestAfter_[e])) continue;
      islandCuts_[++groups] = uint32_t(e);
      while (target * count <= e * kIslandGroups) ++target;
    }
    islandCuts_[++groups] = uint32_t(count);
    groups_ = count ? groups : 0;
    largestGroup_ = 0;
    for (uint32_t g = 0; g < groups; ++g) largestGroup_ = std::max(largestGroup_, islandCuts_[g + 1] - islandCuts_[g]);
  }

  /// With half_ holding `first` or `second` for each of the n elements listed (element numbers; null: 0 .. n - 1),
  /// marks as `interface` the second half's elements that touch a particle of the first half's; returns how many.
  template <class ParticlesOf>
  size_t markInterface(const uint32_t* listed, size_t n, ParticlesOf particlesOf, uint8_t first, uint8_t second,
                       uint8_t interface) {
    for (size_t k = 0; k < n; ++k)
      if (half_[listed ? listed[k] : k] == first)
        for (int v = 0; v < 4; ++v) masks_[particlesOf(listed ? listed[k] : k)[v]] = 1;
    size_t marked = 0;
    for (size_t k = 0; k < n; ++k) {
      const size_t e = listed ? listed[k] : k;
      const auto q = particlesOf(e);
      if (half_[e] == second && (masks_[q[0]] | masks_[q[1]] | masks_[q[2]] | masks_[q[3]]))
        half_[e] = interface, ++marked;
    }
    std::fill(masks_.begin(), masks_.end(), 0);
    return marked;
  }

  /// Halves of the n elements listed (null: 0 .. n - 1) in that order, marked `first`, `second` and `interface` in
  /// half_ (markInterface), cut so that the first half and the second less its interface hold as many elements: on two
  /// threads each sweeps one, and the interface then runs on one of them (symmetric_sweep.h). Cut first in the middle,
  /// then again where that cut's interface says (or in the middle again, if that one's is more than a quarter). True
  /// if the interface is at most a quarter of the elements.
  template <class ParticlesOf>
  bool splitBalanced(const uint32_t* listed, size_t n, ParticlesOf particlesOf, uint8_t first = 0, uint8_t second = 1,
                     uint8_t interface = kInterface) {
    auto cutAt = [&](size_t cut) {
      for (size_t k = 0; k < n; ++k) half_[listed ? listed[k] : k] = k < cut ? first : second;
      return markInterface(listed, n, particlesOf, first, second, interface);
    };
    const size_t middle = cutAt(n / 2);
    if (4 * middle > n) return false;
    if (4 * cutAt((n - middle) / 2) <= n) return true;
    cutAt(n / 2);  // the balanced cut's interface grew past a quarter: the middle one, which did not
    return true;
  }

  /// The interface of a split (marked kInterface) in halves of its own (kInterface0, kInterface1) with their interface
  /// (left kInterface), when it has kMinSubSplitElements or more and that interface is at most a quarter of it:
  /// listed by number (the slab of a body split by number), or else in a breadth-first order of its own. Otherwise
  /// (false) it stays whole.
  template <class ParticlesOf>
  bool splitInterface(size_t count, size_t particleCount, bool searched, ParticlesOf particlesOf) {
    interface_.clear();
    for (size_t e = 0; e < count; ++e)
      if (half_[e] == kInterface) interface_.push_back(uint32_t(e));
    const size_t n = interface_.size();
    if (n < kMinSubSplitElements) return false;
    if (!searched) {
      if (splitBalanced(interface_.data(), n, particlesOf, kInterface0, kInterface1, kInterface)) return true;
      buildIncidence(count, particleCount, particlesOf);
    }
    searchBreadthFirst(interface_.data(), n, particlesOf, kInterface);
    if (splitBalanced(queue_.data(), n, particlesOf, kInterface0, kInterface1, kInterface)) return true;
    for (uint32_t e : interface_) half_[e] = kInterface;
    return false;
  }

  /// Halves by element number (splitBalanced): a plane through a body whose elements were added in space order (the
  /// builders' cells).
  template <class ParticlesOf>
  bool splitByNumber(size_t count, ParticlesOf particlesOf) {
    return splitBalanced(nullptr, count, particlesOf);
  }

  /// Halves by a breadth-first order of the elements (neighbours: elements that share a particle), from an element
  /// found last by a first search from element 0 (a pseudo-peripheral start, as LocalityRank's), for elements numbered
  /// without locality (a tetrahedralized mesh's, a modeller's): the first half is a ball about that start, the
  /// interface its front. Disconnected parts follow in order of their lowest element.
  template <class ParticlesOf>
  bool splitBreadthFirst(size_t count, size_t particleCount, ParticlesOf particlesOf) {
    buildIncidence(count, particleCount, particlesOf);
    std::fill(half_.begin(), half_.end(), 0);
    searchBreadthFirst(nullptr, count, particlesOf, 0);
    return splitBalanced(queue_.data(), count, particlesOf);
  }

  /// Each particle's elements (elementsBegin_, elementsOf_): the neighbours of a breadth-first search.
  template <class ParticlesOf>
  void buildIncidence(size_t count, size_t particleCount, ParticlesOf particlesOf) {
    elementsBegin_.assign(particleCount + 1, 0);
    for (size_t e = 0; e < count; ++e)
      for (int k = 0; k < 4; ++k) ++elementsBegin_[particlesOf(e)[k] + 1];
    for (size_t i = 0; i < particleCount; ++i) elementsBegin_[i + 1] += elementsBegin_[i];
    elementsOf_.resize(elementsBegin_[particleCount]);
    std::copy(elementsBegin_.begin(), elementsBegin_.end() - 1, masks_.begin());  // masks_ (zero) as fill cursors
    for (size_t e = 0; e < count; ++e)
      for (int k = 0; k < 4; ++k) elementsOf_[masks_[particlesOf(e)[k]]++] = uint32_t(e);
    std::fill(masks_.begin(), masks_.end(), 0);
  }

  /// A breadth-first order of the n elements listed (null: 0 .. n - 1), each marked `member` in half_, into queue_:
  /// neighbours are the members that share a particle (buildIncidence), the start an element found last by a first
  /// search from the first listed (a pseudo-peripheral start, as LocalityRank's); disconnected parts follow in list
  /// order. half_ holds the visited marks while searching; the members are left marked `member`.
  template <class ParticlesOf>
  void searchBreadthFirst(const uint32_t* listed, size_t n, ParticlesOf particlesOf, uint8_t member) {
    constexpr uint8_t kSeen = 0xff;
    auto at = [&](size_t k) { return listed ? listed[k] : uint32_t(k); };
    auto search = [&](uint32_t start) {
      for (size_t k = 0; k < n; ++k) half_[at(k)] = member;
      queue_.clear();
      for (uint32_t from = start, lowest = 0; queue_.size() < n;) {
        if (half_[from] == kSeen) {
          while (half_[at(lowest)] == kSeen) ++lowest;
          from = at(lowest);
        }
        half_[from] = kSeen, queue_.push_back(from);
        for (size_t head = queue_.size() - 1; head < queue_.size(); ++head) {
          const auto q = particlesOf(queue_[head]);
          for (int k = 0; k < 4; ++k)
            for (uint32_t e = elementsBegin_[q[k]]; e < elementsBegin_[q[k] + 1]; ++e)
              if (half_[elementsOf_[e]] == member) half_[elementsOf_[e]] = kSeen, queue_.push_back(elementsOf_[e]);
        }
      }
    };
    if (n == 0) return;
    search(at(0));
    search(queue_.back());
    for (size_t k = 0; k < n; ++k) half_[at(k)] = member;
  }

  static constexpr uint8_t kInterface = 2;   // half_ of an interface element (of the last level)
  static constexpr uint8_t kInterface0 = 3;  // half_ of an element of the interface's first half
  static constexpr uint8_t kInterface1 = 4;  // and of its second half

  std::vector<uint64_t> masks_;  // scratch: per particle, bit b = an element of colour (first + b) uses it
  std::vector<uint8_t> colour_;  // scratch: per element, its colour (kColours = none)
  std::vector<uint32_t> order_;
  uint32_t begin_[kColours + 2] = {};
  uint32_t runBegin_[kColours][kRuns + 1] = {};
  std::vector<uint32_t> lowestAfter_;  // scratch: per element e, the lowest particle of elements e .. count - 1
  uint32_t groups_ = 0;
  uint32_t largestGroup_ = 0;
  uint32_t largestColour_ = 0;
  uint32_t split_ = 0;
  uint32_t subSplit_ = 0;
  uint32_t halfBegin_[kColours][3] = {};
  std::vector<uint8_t> half_;              // scratch: per element, 0 or 1 (its half), or kInterface
  std::vector<uint32_t> elementsBegin_;    // scratch: per particle, where its elements start in elementsOf_
  std::vector<uint32_t> elementsOf_;       // scratch: the elements of each particle
  std::vector<uint32_t> queue_;            // scratch: the breadth-first search's order
  std::vector<uint32_t> interface_;        // scratch: a split's interface (splitInterface)
  uint32_t islandCuts_[kIslandGroups + 1] = {};
  uint32_t islandBegin_[kColours + 1][kIslandGroups + 1] = {};
};

}  // namespace pbd
