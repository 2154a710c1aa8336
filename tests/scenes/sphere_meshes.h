// Sphere surface meshes for the tests: the UV sphere exactly as three.js's SphereGeometry builds it (a duplicated
// seam column and duplicated pole vertices, one per texture coordinate), outward-facing and counter-clockwise.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace pbd::scenes {

struct UvSphere {
  std::vector<float> positions;                  ///< xyz per render vertex.
  std::vector<uint32_t> triangles;               ///< 3 per triangle.
  std::vector<std::vector<uint32_t>> grid;       ///< grid[row][column] = vertex, rows from the north pole.
};

/// (W+1) x (H+1) vertices of radius `radius` around `centre`. With `skipPoleTriangles` false the quads touching a
/// pole keep both triangles (one of them collapses when welded), as older three.js versions built them.
inline UvSphere uvSphere(int W, int H, bool skipPoleTriangles = true, float radius = 1,
                         const float centre[3] = nullptr) {
  UvSphere s;
  const double pi = std::acos(-1.0);
  const float c[3] = {centre ? centre[0] : 0.f, centre ? centre[1] : 0.f, centre ? centre[2] : 0.f};
  for (int iy = 0; iy <= H; ++iy) {
    s.grid.emplace_back();
    for (int ix = 0; ix <= W; ++ix) {
      const double u = double(ix) / W, v = double(iy) / H;
      s.grid.back().push_back(static_cast<uint32_t>(s.positions.size() / 3));
      s.positions.push_back(c[0] + radius * float(-std::cos(u * 2 * pi) * std::sin(v * pi)));
      s.positions.push_back(c[1] + radius * float(std::cos(v * pi)));
      s.positions.push_back(c[2] + radius * float(std::sin(u * 2 * pi) * std::sin(v * pi)));
    }
  }
  for (int iy = 0; iy < H; ++iy) {
    for (int ix = 0; ix < W; ++ix) {
      const uint32_t a = s.grid[iy][ix + 1], b = s.grid[iy][ix], cc = s.grid[iy + 1][ix], d = s.grid[iy + 1][ix + 1];
      if (iy != 0 || !skipPoleTriangles) s.triangles.insert(s.triangles.end(), {a, b, d});
      if (iy != H - 1 || !skipPoleTriangles) s.triangles.insert(s.triangles.end(), {b, cc, d});
    }
  }
  return s;
}

}  // namespace pbd::scenes
