// A soft body def with its vertices renumbered at random: the worst case for the cache, which particle reordering
// (pbd/particle_order.h) is measured against in its tests and benchmark.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "pbd/bodies.h"

namespace pbd::scenes {

/// `def` with vertex i renumbered to a random position (std::mt19937 seeded with `seed`: the same for every run):
/// positions permuted, tets and pinned remapped, the tets' order and corner order kept.
inline SoftBodyDef shuffledVertices(SoftBodyDef def, unsigned seed) {
  const size_t n = def.positions.size() / 3;
  std::vector<uint32_t> to(n);
  std::iota(to.begin(), to.end(), 0u);
  std::mt19937 rng(seed);
  std::shuffle(to.begin(), to.end(), rng);
  std::vector<Real> positions(def.positions.size());
  for (size_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) positions[3 * size_t(to[i]) + a] = def.positions[3 * i + a];
  def.positions = std::move(positions);
  for (uint32_t& v : def.tets) v = to[v];
  for (uint32_t& v : def.pinned) v = to[v];
  return def;
}

}  // namespace pbd::scenes
