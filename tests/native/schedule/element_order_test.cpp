// The serial element sweeps' colour order (schedule/element_order.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "schedule/element_order.h"
#include "scenes/shuffle.h"
#include "scenes/tet_cube.h"

namespace pbd {
namespace {

/// Splits `order` into maximal runs in which no two elements share a particle; returns how many runs.
size_t independentRuns(const std::vector<uint32_t>& order, const std::vector<uint32_t>& tets) {
  size_t runs = 0;
  std::set<uint32_t> used;
  for (uint32_t e : order) {
    const uint32_t* q = &tets[4 * size_t(e)];
    const bool clash = std::any_of(q, q + 4, [&](uint32_t v) { return used.count(v) > 0; });
    if (runs == 0 || clash) ++runs, used.clear();
    used.insert(q, q + 4);
  }
  return runs;
}

TEST(ElementOrder, ListsEveryTetOnceInAFewParticleDisjointColours) {
  const int cells[3] = {8, 8, 8};
  const SoftBodyDef cube = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(0, 0, 0));
  const size_t tets = cube.tets.size() / 4, particles = cube.positions.size() / 3;
  ElementOrder order;
  order.reserve(particles, tets);
  order.rebuild(tets, particles, [&](size_t k) { return &cube.tets[4 * k]; });
  std::vector<uint32_t> sorted = order.order();
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(sorted.size(), tets);
  for (size_t k = 0; k < tets; ++k) ASSERT_EQ(sorted[k], k);
  // A vertex of this mesh lies in at most 24 tets; greedy colouring needs a few more colours than that, for the two
  // halves' tets and again for the interface's (the cube is split: ElementOrder::splitColour); the order as added
  // (for comparison) has a clash nearly every tet.
  const size_t runs = independentRuns(order.order(), cube.tets);
  std::vector<uint32_t> asAdded(tets);
  for (size_t k = 0; k < tets; ++k) asAdded[k] = uint32_t(k);
  ASSERT_GT(order.splitColour(), 0u);
  uint32_t interfaceColours = 0;
  for (uint32_t c = order.splitColour(); c < ElementOrder::kColours; ++c)
    interfaceColours += order.colourBegin(c + 1) > order.colourBegin(c);
  EXPECT_LE(order.splitColour(), 32u);
  EXPECT_LE(interfaceColours, 32u);
  EXPECT_LE(runs, size_t(order.splitColour() + interfaceColours));
  EXPECT_EQ(order.colourBegin(ElementOrder::kColours), order.colourBegin(ElementOrder::kColours + 1)) << "no rest";
  EXPECT_GT(independentRuns(asAdded, cube.tets), tets / 4);
  std::printf("%zu tets: %zu independent runs in colour order, %zu as added\n", tets, runs,
              independentRuns(asAdded, cube.tets));
}

/// Checks a split order of `count` elements (particlesOf as given to rebuild): every halves' colour lists half 0, then
/// half 1; no particle is in both halves; the interface (the later colours and the rest) is non-empty, at most a
/// quarter, and each of its elements touches a particle of half 0; half 0 and half 1 (less the interface) are within
/// count/32 of each other, as two threads sweep them side by side. Returns half 0's elements.
template <class ParticlesOf>
std::vector<uint32_t> expectSplit(const ElementOrder& order, size_t count, size_t particles, ParticlesOf particlesOf) {
  const uint32_t split = order.splitColour();
  EXPECT_GT(split, 0u);
  std::vector<uint8_t> side(particles, 0);  // bit h: a particle of half h
  std::vector<uint32_t> first;
  for (uint32_t c = 0; c < split; ++c) {
    EXPECT_EQ(order.halfBegin(c, 0), order.colourBegin(c));
    EXPECT_EQ(order.halfBegin(c, 2), order.colourBegin(c + 1));
    for (uint32_t h = 0; h < 2; ++h) {
      for (uint32_t n = order.halfBegin(c, h); n < order.halfBegin(c, h + 1); ++n) {
        if (h == 0) first.push_back(order.order()[n]);
        for (int k = 0; k < 4; ++k) side[particlesOf(order.order()[n])[k]] |= uint8_t(1u << h);
      }
    }
  }
  EXPECT_EQ(std::count(side.begin(), side.end(), uint8_t(3)), 0) << "a particle in both halves";
  const size_t interface = order.colourBegin(ElementOrder::kColours + 1) - order.colourBegin(split);
  EXPECT_GT(interface, 0u);
  EXPECT_LE(4 * interface, count);
  const size_t second = count - interface - first.size();
  EXPECT_LE(std::max(first.size(), second) - std::min(first.size(), second), count / 32)
      << "half 0: " << first.size() << ", half 1: " << second << ", interface: " << interface;
  for (size_t n = order.colourBegin(split); n < order.colourBegin(ElementOrder::kColours + 1); ++n) {
    const uint32_t* q = particlesOf(order.order()[n]);
    EXPECT_TRUE((side[q[0]] | side[q[1]] | side[q[2]] | side[q[3]]) & 1) << "an interface element touches half 0";
  }
  return first;
}

// A big body's order is split (ElementOrder::splitColour). Elements added in space order (the builders' cells) are cut
// by number: half 0 is the elements numbered below a cut, which balances it against half 1 less the interface (before,
// the cut at count/2 left half 1 short by the whole interface). Numbered at random (a tetrahedralized mesh), they are
// cut by a breadth-first search instead, with an interface as small. Below kMinSplitElements it is not split.
TEST(ElementOrder, ABigBodySplitsIntoTwoHalvesThatShareNoParticleAndAnInterface) {
  const int cells[3] = {8, 8, 8};
  SoftBodyDef cube = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(0, 0, 0));
  const size_t tets = cube.tets.size() / 4, particles = cube.positions.size() / 3;
  ASSERT_GE(tets, ElementOrder::kMinSplitElements);
  auto inOrder = [&](size_t k) { return &cube.tets[4 * k]; };
  ElementOrder order;
  order.reserve(particles, tets);
  order.rebuild(tets, particles, inOrder);
  std::vector<uint32_t> first = expectSplit(order, tets, particles, inOrder);
  std::sort(first.begin(), first.end());
  EXPECT_LT(first.size(), tets / 2);
  EXPECT_EQ(first.back(), first.size() - 1) << "half 0: the elements numbered below the cut";

  std::mt19937 rng(3);
  std::vector<uint32_t> shuffled(tets);
  for (size_t k = 0; k < tets; ++k) shuffled[k] = uint32_t(k);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  auto atRandom = [&](size_t k) { return &cube.tets[4 * size_t(shuffled[k])]; };
  ElementOrder random;
  random.reserve(particles, tets);
  random.rebuild(tets, particles, atRandom);
  EXPECT_LT(expectSplit(random, tets, particles, atRandom).size(), tets / 2);

  ElementOrder small;
  small.reserve(particles, tets);
  small.rebuild(ElementOrder::kMinSplitElements - 1, particles, inOrder);
  EXPECT_EQ(small.splitColour(), 0u);
}

// A split order whose interface has kMinSubSplitElements or more (a 12³-cell cube's: a slab of 864 tets) splits it
// again: colours [splitColour, subSplitColour) list the interface's first half, then its second, which share no
// particle and are within an eighth of it of each other; the last interface (the later colours) is at most a quarter
// of it, and each of its elements touches a particle of the interface's first half. So on two threads the interface
// runs on both. The same numbered at random (a breadth-first split, whose interface is listed in the search's order).
TEST(ElementOrder, ABigInterfaceSplitsAgainIntoHalvesThatShareNoParticle) {
  const int cells[3] = {12, 12, 12};
  SoftBodyDef cube = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(0, 0, 0));
  const size_t tets = cube.tets.size() / 4, particles = cube.positions.size() / 3;
  std::mt19937 rng(3);
  std::vector<uint32_t> numbering(tets);
  for (size_t k = 0; k < tets; ++k) numbering[k] = uint32_t(k);
  for (bool shuffled : {false, true}) {
    if (shuffled) std::shuffle(numbering.begin(), numbering.end(), rng);
    auto particlesOf = [&](size_t k) { return &cube.tets[4 * size_t(numbering[k])]; };
    ElementOrder order;
    order.reserve(particles, tets);
    order.rebuild(tets, particles, particlesOf);
    expectSplit(order, tets, particles, particlesOf);
    const uint32_t split = order.splitColour(), subSplit = order.subSplitColour();
    ASSERT_GT(subSplit, split) << (shuffled ? "numbered at random" : "in order");
    std::vector<uint8_t> side(particles, 0);  // bit h: a particle of the interface's half h
    size_t halves[2] = {0, 0};
    for (uint32_t c = split; c < subSplit; ++c) {
      EXPECT_EQ(order.halfBegin(c, 0), order.colourBegin(c));
      EXPECT_EQ(order.halfBegin(c, 2), order.colourBegin(c + 1));
      for (uint32_t h = 0; h < 2; ++h) {
        halves[h] += order.halfBegin(c, h + 1) - order.halfBegin(c, h);
        for (uint32_t n = order.halfBegin(c, h); n < order.halfBegin(c, h + 1); ++n)
          for (int k = 0; k < 4; ++k) side[particlesOf(order.order()[n])[k]] |= uint8_t(1u << h);
      }
    }
    EXPECT_EQ(std::count(side.begin(), side.end(), uint8_t(3)), 0) << "a particle in both of the interface's halves";
    const size_t last = order.colourBegin(ElementOrder::kColours + 1) - order.colourBegin(subSplit);
    const size_t interface = halves[0] + halves[1] + last;
    EXPECT_GE(interface, ElementOrder::kMinSubSplitElements);
    EXPECT_LE(4 * last, interface);
    EXPECT_LE(std::max(halves[0], halves[1]) - std::min(halves[0], halves[1]), interface / 8);
    for (size_t n = order.colourBegin(subSplit); n < order.colourBegin(ElementOrder::kColours + 1); ++n) {
      const uint32_t* q = particlesOf(order.order()[n]);
      EXPECT_TRUE((side[q[0]] | side[q[1]] | side[q[2]] | side[q[3]]) & 1) << "touches no particle of its half 0";
    }
    std::printf("%s: interface %zu = %zu + %zu + %zu\n", shuffled ? "at random" : "in order", interface, halves[0],
                halves[1], last);
  }
}

// placeHalvesApart: a cube whose particles are numbered in space order has its halves apart already (no places); the
// same cube with its particles numbered at random (a tetrahedralized mesh's numbering) gets places, a permutation
// that puts every particle of half 0 before every particle of half 1 (and then the others), so that each half's
// padded positions are cache lines of their own.
TEST(ElementOrder, AMeshNumberedAtRandomHasItsHalvesPlacedApart) {
  const int cells[3] = {12, 12, 12};
  for (bool shuffled : {false, true}) {
    const SoftBodyDef inOrder = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(0, 0, 0));
    const SoftBodyDef cube = shuffled ? scenes::shuffledVertices(inOrder, 11) : inOrder;
    const size_t tets = cube.tets.size() / 4, particles = cube.positions.size() / 3;
    auto particlesOf = [&](size_t k) { return &cube.tets[4 * k]; };
    ElementOrder order;
    order.reserve(particles, tets);
    order.rebuild(tets, particles, particlesOf);
    ASSERT_GT(order.splitColour(), 0u);
    std::vector<uint32_t> atPlace, placeOf;
    order.placeHalvesApart(particles, particlesOf, atPlace, placeOf);
    if (!shuffled) {
      EXPECT_TRUE(atPlace.empty() && placeOf.empty()) << "numbered in space order: the numbering is the layout";
      continue;
    }
    ASSERT_EQ(atPlace.size(), particles);
    ASSERT_EQ(placeOf.size(), particles);
    for (size_t r = 0; r < particles; ++r) EXPECT_EQ(placeOf[atPlace[r]], r);
    uint32_t lastOfHalf0 = 0, firstOfHalf1 = uint32_t(particles);
    for (uint32_t c = 0; c < order.splitColour(); ++c)
      for (uint32_t h = 0; h < 2; ++h)
        for (uint32_t n = order.halfBegin(c, h); n < order.halfBegin(c, h + 1); ++n)
          for (int k = 0; k < 4; ++k) {
            const uint32_t place = placeOf[particlesOf(order.order()[n])[k]];
            if (h == 0) lastOfHalf0 = std::max(lastOfHalf0, place);
            else firstOfHalf1 = std::min(firstOfHalf1, place);
          }
    EXPECT_LT(lastOfHalf0, firstOfHalf1);
  }
}

TEST(ElementOrder, RebuildingWithinTheReserveDoesNotAllocateAndIsDeterministic) {
  const int cells[3] = {4, 4, 4};
  const SoftBodyDef cube = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(0, 0, 0));
  const size_t tets = cube.tets.size() / 4, particles = cube.positions.size() / 3;
  ElementOrder a, b;
  a.reserve(particles, tets), b.reserve(particles, tets);
  a.rebuild(tets / 2, particles, [&](size_t k) { return &cube.tets[4 * k]; });
  const uint32_t* storage = a.order().data();
  a.rebuild(tets, particles, [&](size_t k) { return &cube.tets[4 * k]; });
  EXPECT_EQ(a.order().data(), storage);  // grew inside the reserved capacity
  b.rebuild(tets, particles, [&](size_t k) { return &cube.tets[4 * k]; });
  EXPECT_EQ(a.order(), b.order());
}

/// `bodies` tet cubes of 2³ cells, each on its own particles (numbered body after body); their tets body after body,
/// or with `interleaved` round-robin across the bodies. Fills the body of each tet.
std::vector<uint32_t> cubeTets(int bodies, bool interleaved, std::vector<int>& bodyOf, size_t& particles) {
  const int cells[3] = {2, 2, 2};
  const SoftBodyDef cube = scenes::tetBox(cells, Vec3(1, 1, 1), Vec3(0, 0, 0));
  const size_t perBody = cube.tets.size() / 4, cubeParticles = cube.positions.size() / 3;
  std::vector<uint32_t> tets;
  bodyOf.clear();
  for (size_t k = 0; k < perBody * size_t(bodies); ++k) {
    const size_t body = interleaved ? k % size_t(bodies) : k / perBody;
    const size_t tet = interleaved ? k / size_t(bodies) : k % perBody;
    for (int q = 0; q < 4; ++q) tets.push_back(uint32_t(body * cubeParticles + cube.tets[4 * tet + q]));
    bodyOf.push_back(int(body));
  }
  particles = cubeParticles * size_t(bodies);
  return tets;
}

// Island groups: cut between bodies only, so no two groups share a particle; each group's part of a colour holds
// exactly the colour's elements numbered in the group. 12 bodies give 12 groups, 40 give kIslandGroups (whole bodies,
// about equal), one body or bodies whose tets were added interleaved give one.
TEST(ElementOrder, IslandGroupsAreWholeBodiesAndShareNoParticle) {
  for (const auto& [bodies, interleaved, expected] : {std::tuple{12, false, 12u}, std::tuple{40, false, 16u},
                                                       std::tuple{1, false, 1u}, std::tuple{12, true, 1u}}) {
    std::vector<int> bodyOf;
    size_t particles = 0;
    const std::vector<uint32_t> tets = cubeTets(bodies, interleaved, bodyOf, particles);
    ElementOrder order;
    order.rebuild(tets.size() / 4, particles, [&](size_t k) { return &tets[4 * k]; });
    const uint32_t groups = order.islandGroupCount();
    ASSERT_EQ(groups, expected) << bodies << " bodies, interleaved " << interleaved;
    std::vector<int> groupOfBody(size_t(bodies), -1);
    std::vector<size_t> elementsIn(groups, 0);
    for (uint32_t c = 0; c <= ElementOrder::kColours; ++c) {
      EXPECT_EQ(order.islandBegin(c, 0), order.colourBegin(c));
      EXPECT_EQ(order.islandBegin(c, groups), order.colourBegin(c + 1));
      for (uint32_t g = 0; g < groups; ++g) {
        ASSERT_LE(order.islandBegin(c, g), order.islandBegin(c, g + 1));
        for (uint32_t n = order.islandBegin(c, g); n < order.islandBegin(c, g + 1); ++n) {
          int& group = groupOfBody[size_t(bodyOf[order.order()[n]])];
          if (group < 0) group = int(g);
          EXPECT_EQ(group, int(g)) << "a body in two groups";  // so groups share no particle
          ++elementsIn[g];
        }
      }
    }
    const auto [fewest, most] = std::minmax_element(elementsIn.begin(), elementsIn.end());
    EXPECT_EQ(order.largestIslandGroup(), *most);
    EXPECT_LE(*most, 3 * *fewest) << bodies << " bodies";  // 40 bodies in 16 groups: 2 or 3 each
  }
}

// The island rule (symmetric_sweep.h): islands only where no colour would be shared out (the largest colour at most
// the shared size), the elements are more than it, in more than one group, none holding more than half. Each
// condition is checked at its edge, from the order's own sizes.
TEST(ElementOrder, IslandsPayOnlyWhenNoColourIsSharedAndNoGroupHoldsHalf) {
  std::vector<int> bodyOf;
  size_t particles = 0;
  const std::vector<uint32_t> twelve = cubeTets(12, false, bodyOf, particles);
  ElementOrder order;
  order.rebuild(twelve.size() / 4, particles, [&](size_t k) { return &twelve[4 * k]; });
  const size_t elements = twelve.size() / 4;
  size_t largest = 0;
  for (uint32_t c = 0; c < ElementOrder::kColours; ++c) {
    largest = std::max<size_t>(largest, order.colourBegin(c + 1) - order.colourBegin(c));
  }
  ASSERT_EQ(order.largestColour(), largest);
  ASSERT_LT(largest, elements);
  EXPECT_TRUE(order.islandsPay(largest));                  // no colour bigger than the shared size
  EXPECT_FALSE(order.islandsPay(largest - 1));             // the largest colour would be shared out
  EXPECT_TRUE(order.islandsPay(std::max(largest, elements - 1)));
  EXPECT_FALSE(order.islandsPay(elements));                // no more elements than one shared colour's worth

  const std::vector<uint32_t> one = cubeTets(1, false, bodyOf, particles);  // one group
  order.rebuild(one.size() / 4, particles, [&](size_t k) { return &one[4 * k]; });
  EXPECT_FALSE(order.islandsPay(order.largestColour()));

  // Two bodies, the first with most of the tets: two groups, the larger holding more than half.
  const std::vector<uint32_t> big = cubeTets(3, false, bodyOf, particles);
  std::vector<uint32_t> lopsided(big.begin(), big.begin() + big.size() / 3);  // body 0 ...
  const size_t bodyParticles = particles / 3;
  for (size_t k = 0; k < 8; ++k) {  // ... and 2 tets of another body, numbered after it
    lopsided.push_back(lopsided[k] + uint32_t(bodyParticles));
  }
  order.rebuild(lopsided.size() / 4, 2 * bodyParticles, [&](size_t k) { return &lopsided[4 * k]; });
  ASSERT_EQ(order.islandGroupCount(), 2u);
  EXPECT_GT(2 * size_t(order.largestIslandGroup()), lopsided.size() / 4);
  EXPECT_FALSE(order.islandsPay(order.largestColour()));
}

}  // namespace
}  // namespace pbd
