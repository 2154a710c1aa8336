// A box of nx x ny x nz cells, each cut into 6 tetrahedra (Kuhn subdivision), all positively oriented.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "constraints/tet_volume.h"
#include "pbd/bodies.h"
#include "pbd/world.h"

namespace pbd::scenes {

/// The box from `origin` to origin + size, with cells[a] cells along axis a.
inline SoftBodyDef tetBox(const int cells[3], const Vec3& size, const Vec3& origin) {
  SoftBodyDef def;
  const int mx = cells[0] + 1, my = cells[1] + 1;
  auto id = [mx, my](int x, int y, int z) { return uint32_t((z * my + y) * mx + x); };
  for (int z = 0; z <= cells[2]; ++z)
    for (int y = 0; y <= cells[1]; ++y)
      for (int x = 0; x <= cells[0]; ++x) {
        def.positions.push_back(origin.x() + size.x() * Real(x) / Real(cells[0]));
        def.positions.push_back(origin.y() + size.y() * Real(y) / Real(cells[1]));
        def.positions.push_back(origin.z() + size.z() * Real(z) / Real(cells[2]));
      }
  // The 6 tets around the cell diagonal from corner 0 (000) to corner 7 (111), one per axis permutation.
  static const std::array<std::array<int, 3>, 6> orders = {{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (int z = 0; z < cells[2]; ++z)
    for (int y = 0; y < cells[1]; ++y)
      for (int x = 0; x < cells[0]; ++x)
        for (const auto& order : orders) {
          int c[3] = {x, y, z};
          uint32_t t[4];
          t[0] = id(c[0], c[1], c[2]);
          for (int k = 0; k < 3; ++k) {
            ++c[order[k]];
            t[k + 1] = id(c[0], c[1], c[2]);
          }
          auto at = [&](uint32_t i) { return Vec3(def.positions[3 * i], def.positions[3 * i + 1], def.positions[3 * i + 2]); };
          if (tetVolume(at(t[0]), at(t[1]), at(t[2]), at(t[3])) < 0) std::swap(t[2], t[3]);
          def.tets.insert(def.tets.end(), t, t + 4);
        }
  return def;
}

/// A cube of n x n x n cells and edge `size`.
inline SoftBodyDef tetCube(int n, Real size, const Vec3& origin) {
  const int cells[3] = {n, n, n};
  return tetBox(cells, Vec3(size, size, size), origin);
}

/// Total volume of the tets of `def` at the world's current positions (the body starting at `first`).
inline double meshVolume(const World& w, const SoftBodyDef& def, uint32_t first) {
  double total = 0;
  auto at = [&](uint32_t i) {
    const Real* x = w.positions() + 3 * size_t(first + i);
    return Vec3(x[0], x[1], x[2]);
  };
  for (size_t t = 0; t < def.tets.size(); t += 4) {
    total += tetVolume(at(def.tets[t]), at(def.tets[t + 1]), at(def.tets[t + 2]), at(def.tets[t + 3]));
  }
  return total;
}

}  // namespace pbd::scenes
