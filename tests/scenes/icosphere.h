// The icosphere test surface: the regular icosahedron, each subdivision splitting every triangle in 4 with the new
// vertices pushed onto the sphere. Closed, manifold, counter-clockwise seen from outside.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace pbd::scenes {

struct IcosphereMesh {
  std::vector<float> positions;    ///< xyz per vertex.
  std::vector<uint32_t> triangles; ///< 3 per triangle, outward.
};

inline IcosphereMesh icosphere(int subdivisions, double radius = 1) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  std::vector<Eigen::Vector3d> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                                    {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<uint32_t> f = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6,
                             7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7,
                             9, 8, 1};
  for (auto& p : v) p.normalize();
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> mid;
    auto midpoint = [&](uint32_t a, uint32_t b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return mid[key] = uint32_t(v.size() - 1);
    };
    std::vector<uint32_t> g;
    for (size_t k = 0; k < f.size(); k += 3) {
      const uint32_t a = f[k], b = f[k + 1], c = f[k + 2];
      const uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      g.insert(g.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    f = g;
  }
  IcosphereMesh m;
  for (const auto& p : v)
    for (int a = 0; a < 3; ++a) m.positions.push_back(float(radius * p[a]));
  // The listed faces are counter-clockwise from outside already; make sure for every subdivision level.
  for (size_t k = 0; k < f.size(); k += 3) {
    const Eigen::Vector3d a = v[f[k]], b = v[f[k + 1]], c = v[f[k + 2]];
    if ((b - a).cross(c - a).dot(a + b + c) < 0) std::swap(f[k + 1], f[k + 2]);
  }
  m.triangles = f;
  return m;
}

}  // namespace pbd::scenes
