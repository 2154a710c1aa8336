// The constraint pairs of a grid cloth of one's own numbering, for tests that build it through addParticles and
// addDistanceConstraints or as raw constraints: particle (r, c) of an R x C grid numbered to[r C + c].
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace pbd::scenes {

/// One edge of the grid: its particles and its rest length for cells sx wide (along a row) by sy (along a column).
struct GridEdge {
  uint32_t i, j;
  float length;
};

/// Per grid point, in row-major order: its stretch edges (right, down), both diagonals of the cell at its lower
/// right, its skip-one bending edges (two right, two down).
inline std::vector<GridEdge> gridEdges(uint32_t rows, uint32_t columns, const std::vector<uint32_t>& to,
                                       float sx = 1, float sy = 1) {
  std::vector<GridEdge> edges;
  auto add = [&](uint32_t r0, uint32_t c0, uint32_t r1, uint32_t c1) {
    const float dx = sx * (float(c1) - float(c0)), dy = sy * (float(r1) - float(r0));
    edges.push_back({to[r0 * columns + c0], to[r1 * columns + c1], std::sqrt(dx * dx + dy * dy)});
  };
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < columns; ++c) {
      if (c + 1 < columns) add(r, c, r, c + 1);
      if (r + 1 < rows) add(r, c, r + 1, c);
      if (r + 1 < rows && c + 1 < columns) add(r, c, r + 1, c + 1), add(r, c + 1, r + 1, c);
      if (c + 2 < columns) add(r, c, r, c + 2);
      if (r + 2 < rows) add(r, c, r + 2, c);
    }
  }
  return edges;
}

}  // namespace pbd::scenes
