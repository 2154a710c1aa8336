// The row-major order of a square grid's particles, found from the distance constraints alone, for a grid cloth
// numbered without it (a mesh whose vertices come shuffled): with it the coloured pass lays the grid out in bands as it
// does a row-major cloth's (block_schedule.h, "Banded"), whatever the numbering.
//
// The lattice edges are the bilateral constraints of the shortest rest length L (within 1e-4 L); the grid's shear
// diagonals (√2 L) and skip-one bending (2 L) are left out. They must join every particle into one R × C grid graph
// (R, C >= 3): four corners of two lattice edges, every particle of two to four. From the lowest-numbered corner A
// and the corner B nearest it (the end of A's side), the breadth-first distances are d_A = r + c and
// d_B = r + (C - 1 - c) with C = d_B(A) + 1, so r = (d_A + d_B - (C - 1)) / 2 and c = d_A - r; the order is
// r C + c, accepted only when it is a bijection onto the R × C grid under which every lattice edge joins grid
// neighbours. Deterministic: it depends on the constraints only, never on positions or their order's ties.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "schedule/particle_graph.h"

namespace pbd {

class LatticeOrder {
 public:
  /// Makes room for `particles` and `edges` constraints (may throw), so compute never allocates.
  void reserve(size_t particles, size_t edges) {
    graph_.reserve(particles, edges);
    fromA_.reserve(particles), fromB_.reserve(particles);
    rank_.reserve(particles), order_.reserve(particles);
  }

  /// Whether the `count` constraints edgeOf(k) = {i, j, minLength, maxLength} (particles below `particles`) hold a
  /// square grid of all the particles; if so ranks() and order() are its row-major order.
  template <class EdgeOf>
  bool compute(uint32_t particles, uint32_t count, EdgeOf edgeOf) {
    rank_.clear(), order_.clear();
    if (particles < 9) return false;
    float shortest = std::numeric_limits<float>::infinity();
    for (uint32_t k = 0; k < count; ++k) {
      const auto e = edgeOf(k);
      if (e.minLength == e.maxLength && e.maxLength > 0 && e.maxLength < shortest) shortest = e.maxLength;
    }
    if (!(shortest < std::numeric_limits<float>::infinity())) return false;
    auto lattice = [&](uint32_t k) {
      const auto e = edgeOf(k);
      return e.minLength == e.maxLength && std::abs(e.maxLength - shortest) <= 1e-4f * shortest && e.i != e.j;
    };
    auto pairOf = [&](uint32_t k) {
      const auto e = edgeOf(k);
      return std::pair<uint32_t, uint32_t>(e.i, e.j);
    };
    graph_.build(particles, count, pairOf, lattice);
    uint32_t corners = 0, cornerA = particles;
    for (uint32_t p = 0; p < particles; ++p) {
      const uint32_t d = graph_.degree(p);
      if (d < 2 || d > 4) return false;
      if (d == 2 && corners++ == 0) cornerA = p;
    }
    if (corners != 4) return false;
    if (!distancesFrom(cornerA, particles, fromA_)) return false;  // not connected
    uint32_t cornerB = particles;
    for (uint32_t p = 0; p < particles; ++p) {
      if (p == cornerA || graph_.degree(p) != 2) continue;
      if (cornerB == particles || fromA_[p] < fromA_[cornerB]) cornerB = p;
    }
    const uint32_t columns = fromA_[cornerB] + 1;
    if (columns < 3 || particles % columns != 0 || particles / columns < 3) return false;
    distancesFrom(cornerB, particles, fromB_);
    rank_.assign(particles, kNone);
    order_.assign(particles, kNone);
    for (uint32_t p = 0; p < particles; ++p) {
      const int64_t twiceRow = int64_t(fromA_[p]) + fromB_[p] - (columns - 1);
      if (twiceRow < 0 || twiceRow % 2 != 0) return fail();
      const int64_t row = twiceRow / 2, column = int64_t(fromA_[p]) - row;
      if (column < 0 || column >= columns || row >= particles / columns) return fail();
      const uint32_t r = uint32_t(row * columns + column);
      if (order_[r] != kNone) return fail();
      rank_[p] = r, order_[r] = p;
    }
    for (uint32_t p = 0; p < particles; ++p) {
      for (const uint32_t q : graph_.neighbours(p)) {
        const uint32_t a = rank_[p], b = rank_[q], lo = a < b ? a : b, hi = a < b ? b : a;
        const bool beside = (hi - lo == 1 && hi % columns != 0) || hi - lo == columns;
        if (!beside) return fail();
      }
    }
    return true;
  }

  /// Per particle, its place in the order; empty unless the last compute found a grid.
  const std::vector<uint32_t>& ranks() const { return rank_; }
  /// Per place, its particle: the inverse permutation.
  const std::vector<uint32_t>& order() const { return order_; }

 private:
  static constexpr uint32_t kNone = ~0u;

  bool fail() {
    rank_.clear(), order_.clear();
    return false;
  }

  /// Breadth-first distances from `from` over the lattice edges into `distance`; false if some particle is not
  /// reached.
  bool distancesFrom(uint32_t from, uint32_t particles, std::vector<uint32_t>& distance) {
    distance.assign(particles, ParticleGraph::kUnreached);
    return graph_.breadthFirst(from, 0, distance, ParticleGraph::Label::Distance) == particles;
  }

  ParticleGraph graph_;  // the lattice edges' graph
  std::vector<uint32_t> fromA_, fromB_;
  std::vector<uint32_t> rank_, order_;
};

}  // namespace pbd
