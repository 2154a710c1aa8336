// The serial element sweeps' colour order (schedule/element_order.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "schedule/element_order.h"
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
  // A vertex of this mesh lies in at most 24 tets; greedy colouring needs a few more colours than that; the order
  // as added (for comparison) has a clash nearly every tet.
  const size_t runs = independentRuns(order.order(), cube.tets);
  std::vector<uint32_t> asAdded(tets);
  for (size_t k = 0; k < tets; ++k) asAdded[k] = uint32_t(k);
  EXPECT_LE(runs, 40u);
  EXPECT_GT(independentRuns(asAdded, cube.tets), tets / 4);
  std::printf("%zu tets: %zu independent runs in colour order, %zu as added\n", tets, runs,
              independentRuns(asAdded, cube.tets));
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

}  // namespace
}  // namespace pbd
