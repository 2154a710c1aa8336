// Closed surfaces full of cocircular and cospherical vertices, for the tetrahedralizer: solids of revolution (a
// lathe of any profile: torus, cylinder, UV sphere, vase) and a box with subdivided faces. Every quad of a lathe is a
// flat isosceles trapezoid (four vertices on one circle), every quad of the box a square: the degenerate input of
// Delaunay tetrahedralization. Welded (one vertex per point), closed, manifold, counter-clockwise seen from outside.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

namespace pbd::scenes {

struct ClosedSurface {
  std::vector<float> positions;    ///< xyz per vertex.
  std::vector<uint32_t> triangles; ///< 3 per triangle, outward.
};

/// Signed volume enclosed by a closed triangle surface (divergence theorem), positive when it faces outward.
inline double enclosedVolume(const ClosedSurface& s) {
  double v = 0;
  for (size_t t = 0; t < s.triangles.size(); t += 3) {
    const float* a = &s.positions[3 * size_t(s.triangles[t])];
    const float* b = &s.positions[3 * size_t(s.triangles[t + 1])];
    const float* c = &s.positions[3 * size_t(s.triangles[t + 2])];
    v += (double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) +
          double(a[1]) * (double(b[2]) * c[0] - double(b[0]) * c[2]) +
          double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0])) / 6;
  }
  return v;
}

/// Reverses every triangle if the surface faces inward.
inline void faceOutward(ClosedSurface& s) {
  if (enclosedVolume(s) >= 0) return;
  for (size_t t = 0; t < s.triangles.size(); t += 3) std::swap(s.triangles[t + 1], s.triangles[t + 2]);
}

/// A point of a lathe profile: distance from the z axis (>= 0; exactly 0 only at the profile's two ends) and height.
struct ProfilePoint {
  double r, z;
};

/// Revolves `profile` about the z axis in `segments` steps. closedLoop: the profile is a closed polygon away from the
/// axis (last point joins the first: a torus); otherwise it runs from one point on the axis to another (r = 0 at both
/// ends: one pole vertex each, joined to the neighbouring ring by a fan) and every other point has r > 0.
inline ClosedSurface lathe(const std::vector<ProfilePoint>& profile, int segments, bool closedLoop = false) {
  ClosedSurface s;
  const size_t m = profile.size();
  std::vector<std::vector<uint32_t>> ring(m);  // ring[i][j]: vertex of profile point i at segment j
  for (size_t i = 0; i < m; ++i) {
    const bool pole = !closedLoop && (i == 0 || i + 1 == m);
    for (int j = 0; j < (pole ? 1 : segments); ++j) {
      const double phi = 2 * std::numbers::pi * j / segments;
      ring[i].push_back(uint32_t(s.positions.size() / 3));
      s.positions.insert(s.positions.end(), {float(profile[i].r * std::cos(phi)), float(profile[i].r * std::sin(phi)),
                                             float(profile[i].z)});
    }
  }
  auto at = [&](size_t i, int j) { return ring[i].size() == 1 ? ring[i][0] : ring[i][size_t(j % segments)]; };
  const size_t bands = closedLoop ? m : m - 1;
  for (size_t i = 0; i < bands; ++i) {
    const size_t k = (i + 1) % m;
    for (int j = 0; j < segments; ++j) {
      const uint32_t a = at(i, j), b = at(i, j + 1), c = at(k, j + 1), d = at(k, j);
      if (ring[i].size() > 1) s.triangles.insert(s.triangles.end(), {a, b, c});
      if (ring[k].size() > 1) s.triangles.insert(s.triangles.end(), {a, c, d});
    }
  }
  faceOutward(s);
  return s;
}

/// Torus of revolution: tube radius `tube` around a circle of radius `radius` in the xy plane; `rings` profile points
/// around the tube, `segments` around the z axis.
inline ClosedSurface torus(int segments, int rings, double radius = 1, double tube = 0.4) {
  std::vector<ProfilePoint> p;
  for (int i = 0; i < rings; ++i) {
    const double t = 2 * std::numbers::pi * i / rings;
    p.push_back({radius + tube * std::cos(t), tube * std::sin(t)});
  }
  return lathe(p, segments, true);
}

/// Closed cylinder of radius r and height h centred on the origin: `stacks` bands along the side, `annuli` rings on
/// each cap (all cap vertices coplanar and, ring by ring, cocircular).
inline ClosedSurface cylinder(int segments, int stacks, int annuli, double r = 0.5, double h = 1) {
  std::vector<ProfilePoint> p{{0, -h / 2}};
  for (int i = 1; i <= annuli; ++i) p.push_back({r * i / annuli, -h / 2});
  for (int i = 1; i < stacks; ++i) p.push_back({r, -h / 2 + h * i / stacks});
  for (int i = annuli; i >= 1; --i) p.push_back({r * i / annuli, h / 2});
  p.push_back({0, h / 2});
  return lathe(p, segments);
}

/// Latitude–longitude sphere: poles and `stacks - 1` rings of `segments` vertices (every ring cocircular, every
/// vertex cospherical).
inline ClosedSurface latLongSphere(int segments, int stacks, double radius = 1) {
  std::vector<ProfilePoint> p;
  for (int i = 0; i <= stacks; ++i) {
    const double t = std::numbers::pi * i / stacks;
    p.push_back({i == 0 || i == stacks ? 0 : radius * std::sin(t), -radius * std::cos(t)});
  }
  return lathe(p, segments);
}

/// A vase: a wavy, non-convex profile with a flat bottom and top.
inline ClosedSurface vase(int segments, int stacks) {
  std::vector<ProfilePoint> p{{0, 0}, {0.25, 0}};
  for (int i = 0; i <= stacks; ++i) {
    const double z = double(i) / stacks;
    p.push_back({0.3 + 0.12 * std::sin(2 * std::numbers::pi * z) - 0.08 * z, 0.05 + 0.95 * z});
  }
  p.push_back({0, 1});
  return lathe(p, segments);
}

/// Axis-aligned box [0, sx] x [0, sy] x [0, sz], each face a grid of n_a x n_b squares (two triangles each).
inline ClosedSurface subdividedBox(int nx, int ny, int nz, double sx = 1, double sy = 1, double sz = 1) {
  ClosedSurface s;
  const int n[3] = {nx, ny, nz};
  // One vertex per lattice point on the box's surface.
  std::vector<int64_t> id(size_t(nx + 1) * (ny + 1) * (nz + 1), -1);
  auto vertex = [&](int i, int j, int k) {
    int64_t& v = id[(size_t(k) * (ny + 1) + j) * (nx + 1) + i];
    if (v < 0) {
      v = int64_t(s.positions.size() / 3);
      s.positions.insert(s.positions.end(), {float(sx * i / nx), float(sy * j / ny), float(sz * k / nz)});
    }
    return uint32_t(v);
  };
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, w = (axis + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      for (int a = 0; a < n[u]; ++a) {
        for (int b = 0; b < n[w]; ++b) {
          uint32_t q[4];
          const int corner[4][2] = {{a, b}, {a + 1, b}, {a + 1, b + 1}, {a, b + 1}};
          for (int c = 0; c < 4; ++c) {
            int ijk[3];
            ijk[axis] = side * n[axis];
            ijk[u] = corner[c][0];
            ijk[w] = corner[c][1];
            q[c] = vertex(ijk[0], ijk[1], ijk[2]);
          }
          // (u, w, axis) is right-handed: counter-clockwise in (u, w) faces +axis; reverse on the low side.
          if (side == 1) s.triangles.insert(s.triangles.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
          else s.triangles.insert(s.triangles.end(), {q[0], q[2], q[1], q[0], q[3], q[2]});
        }
      }
    }
  }
  faceOutward(s);
  return s;
}

/// Moves every vertex by a uniform random offset in [-amount, amount]³ (deterministic for a seed).
inline void jitter(ClosedSurface& s, double amount, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amount, amount);
  for (float& x : s.positions) x = float(x + u(rng));
}

}  // namespace pbd::scenes
