// The serial element sweeps' colour order (schedule/element_order.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
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

}  // namespace
}  // namespace pbd
