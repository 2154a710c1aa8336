// schedule/lattice_order.h: a square grid's row-major order recovered from its constraints, whatever the numbering;
// anything that is not one whole square grid refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "constraints/distance.h"
#include "scenes/grid_edges.h"
#include "schedule/lattice_order.h"

using namespace pbd;

namespace {

/// An R x C grid's stretch, shear and skip-one bending edges (scenes::gridEdges) as rigid constraints of cells sx by
/// sy, particle (r, c) numbered to[r C + c].
std::vector<DistanceConstraint> gridConstraints(uint32_t rows, uint32_t columns, const std::vector<uint32_t>& to,
                                                float sx = 0.1f, float sy = 0.1f) {
  std::vector<DistanceConstraint> cs;
  for (const scenes::GridEdge& e : scenes::gridEdges(rows, columns, to, sx, sy))
    cs.push_back({e.i, e.j, e.length, e.length, 0, 1, 1});
  return cs;
}

std::vector<uint32_t> shuffled(uint32_t n, unsigned seed) {
  std::vector<uint32_t> to(n);
  std::iota(to.begin(), to.end(), 0u);
  std::mt19937 rng(seed);
  std::shuffle(to.begin(), to.end(), rng);
  return to;
}

bool computeOn(LatticeOrder& order, uint32_t particles, const std::vector<DistanceConstraint>& cs) {
  return order.compute(particles, uint32_t(cs.size()), [&](uint32_t k) -> const DistanceConstraint& { return cs[k]; });
}

}  // namespace

// Shuffled grids, square and oblong: the order is a bijection under which every stretch edge joins row-major
// neighbours, and its rows are the grid's rows or its columns (a grid's order up to its symmetries).
TEST(LatticeOrder, AShuffledGridComesBackInRowMajorOrder) {
  for (auto [rows, columns] : {std::pair(5u, 5u), std::pair(7u, 12u), std::pair(40u, 9u)}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      const uint32_t n = rows * columns;
      const std::vector<uint32_t> to = shuffled(n, seed);
      const std::vector<DistanceConstraint> cs = gridConstraints(rows, columns, to);
      LatticeOrder order;
      ASSERT_TRUE(computeOn(order, n, cs)) << rows << " x " << columns << ", seed " << seed;
      const std::vector<uint32_t>& rank = order.ranks();
      std::vector<uint32_t> sorted(rank);
      std::sort(sorted.begin(), sorted.end());
      for (uint32_t p = 0; p < n; ++p) ASSERT_EQ(sorted[p], p);
      for (uint32_t p = 0; p < n; ++p) ASSERT_EQ(order.order()[rank[p]], p);
      // The order's row length is the grid's columns or its rows; grid neighbours stay neighbours in it.
      uint32_t orderColumns = 0;
      for (uint32_t c : {columns, rows}) {
        bool all = true;
        for (uint32_t r = 0; r < rows && all; ++r) {
          for (uint32_t q = 0; q + 1 < columns && all; ++q) {
            const uint32_t x = rank[to[r * columns + q]], y = rank[to[r * columns + q + 1]];
            const uint32_t lo = std::min(x, y), hi = std::max(x, y);
            all = (hi - lo == 1 && hi % c != 0) || hi - lo == c;
          }
        }
        if (all && n % c == 0) orderColumns = c;
      }
      EXPECT_NE(orderColumns, 0u) << rows << " x " << columns << ", seed " << seed;
    }
  }
}

// From the lowest-numbered corner along its nearer side: a numbering that keeps particle 0 at the corner (0, 0)
// and numbers the corner (0, C-1) below (R-1, 0) gets back exactly the row-major indices.
TEST(LatticeOrder, TheLowestCornerAndItsNearerSideFixTheOrder) {
  const uint32_t rows = 9, columns = 9, n = rows * columns;
  std::vector<uint32_t> to = shuffled(n, 5);
  std::swap(to[std::find(to.begin(), to.end(), 0u) - to.begin()], to[0]);  // (0, 0) keeps number 0
  if (to[columns - 1] > to[(rows - 1) * columns]) std::swap(to[columns - 1], to[(rows - 1) * columns]);
  LatticeOrder order;
  ASSERT_TRUE(computeOn(order, n, gridConstraints(rows, columns, to)));
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(order.ranks()[to[i]], i);
}

TEST(LatticeOrder, WhatIsNotOneWholeSquareGridOfParticlesIsRefused) {
  const uint32_t rows = 8, columns = 8, n = rows * columns;
  std::vector<uint32_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0u);
  LatticeOrder order;
  // An inner stretch edge missing leaves the particles a grid in the same order (the pass just has one constraint
  // fewer); a corner's edge missing leaves no grid.
  auto without = [&](uint32_t i, uint32_t j) {
    std::vector<DistanceConstraint> cs = gridConstraints(rows, columns, identity);
    cs.erase(std::find_if(cs.begin(), cs.end(), [&](const DistanceConstraint& c) { return c.i == i && c.j == j; }));
    return cs;
  };
  ASSERT_TRUE(computeOn(order, n, without(3 * 8 + 3, 3 * 8 + 4)));
  for (uint32_t p = 0; p < n; ++p) EXPECT_EQ(order.ranks()[p], p);
  EXPECT_FALSE(computeOn(order, n, without(0, 1)));
  EXPECT_TRUE(order.ranks().empty());
  // Oblong cells: the shortest edges are the rows alone.
  EXPECT_FALSE(computeOn(order, n, gridConstraints(rows, columns, identity, 0.1f, 0.15f)));
  // Two grids side by side, and a grid with a particle in no constraint.
  std::vector<DistanceConstraint> two = gridConstraints(rows, columns, identity);
  for (DistanceConstraint c : gridConstraints(rows, columns, identity)) {
    c.i += n, c.j += n;
    two.push_back(c);
  }
  EXPECT_FALSE(computeOn(order, 2 * n, two));
  EXPECT_FALSE(computeOn(order, n + 1, gridConstraints(rows, columns, identity)));
  // A cube's lattice: six neighbours inside.
  std::vector<DistanceConstraint> cube;
  const uint32_t k = 4;
  for (uint32_t z = 0; z < k; ++z)
    for (uint32_t y = 0; y < k; ++y)
      for (uint32_t x = 0; x < k; ++x) {
        const uint32_t p = (z * k + y) * k + x;
        if (x + 1 < k) cube.push_back({p, p + 1, 0.1f, 0.1f, 0, 1, 1});
        if (y + 1 < k) cube.push_back({p, p + k, 0.1f, 0.1f, 0, 1, 1});
        if (z + 1 < k) cube.push_back({p, p + k * k, 0.1f, 0.1f, 0, 1, 1});
      }
  EXPECT_FALSE(computeOn(order, k * k * k, cube));
  // Slack ropes (min < max) are no lattice edges.
  std::vector<DistanceConstraint> ropes = gridConstraints(rows, columns, identity);
  for (DistanceConstraint& c : ropes) c.minLength = 0;
  EXPECT_FALSE(computeOn(order, n, ropes));
  // The whole grid again: accepted.
  EXPECT_TRUE(computeOn(order, n, gridConstraints(rows, columns, identity)));
}
