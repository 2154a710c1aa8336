// A grid cloth of one's own numbering built through addParticles and addDistanceConstraints, as a user with a mesh
// from a modeller builds it: the scene of the lattice-ordered bands (schedule/lattice_order.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "pbd/world.h"
#include "scenes/grid_edges.h"

namespace pbd::scenes {

/// An n x n cloth (1 m square at y = 1, 1 kg, rigid stretch, shear and skip-one bending, the corners (0, 0) and
/// (0, n-1) pinned) with particle (r, c) numbered to[r n + c].
inline void addNumberedCloth(World& world, uint32_t n, const std::vector<uint32_t>& to) {
  std::vector<Real> xyz(3 * size_t(n) * n), w(size_t(n) * n, Real(n * n));
  for (uint32_t r = 0; r < n; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      const uint32_t i = to[r * n + c];
      xyz[3 * i] = -0.5f + float(c) / float(n - 1), xyz[3 * i + 1] = 1, xyz[3 * i + 2] = float(r) / float(n - 1);
    }
  }
  w[to[0]] = w[to[n - 1]] = 0;
  world.addParticles(xyz.data(), w.data(), size_t(n) * n);
  std::vector<uint32_t> pairs;
  for (const GridEdge& e : gridEdges(n, n, to)) pairs.insert(pairs.end(), {e.i, e.j});
  world.addDistanceConstraints(pairs, {}, Strength{0, 1});
}

/// A numbering of n² particles at random (std::mt19937 seeded with `seed`: the same for every run).
inline std::vector<uint32_t> randomNumbering(uint32_t count, unsigned seed) {
  std::vector<uint32_t> to(count);
  std::iota(to.begin(), to.end(), 0u);
  std::mt19937 rng(seed);
  std::shuffle(to.begin(), to.end(), rng);
  return to;
}

}  // namespace pbd::scenes
