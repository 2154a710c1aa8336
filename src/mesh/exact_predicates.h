// Exact orient3d and insphere on integer lattice points.
//
// Shewchuk ("Adaptive precision floating-point arithmetic and fast robust geometric predicates", 1997) evaluates these
// determinants exactly with floating-point expansions. Here the inputs are quantized onto an integer lattice first
// (see delaunay.h), so plain fixed-width integer arithmetic is exact as long as it cannot overflow:
//
//   domain: every coordinate in [-2^20, 2^20], so every difference d satisfies |d| <= 2^21.
//   orient3d = (b-a)·((c-a)×(d-a)):
//     2×2 minors  |d1 d2 - d3 d4|          <= 2·2^42 = 2^43       (int64)
//     3×3 det     Σ of 3 terms |d|·|minor|  <= 3·2^21·2^43 < 2^66  (__int128)
//   insphere = det[[A, |A|²], [B, |B|²], [C, |C|²], [D, |D|²]] with A = a-e, ... (rows relative to e):
//     |X|²        <= 3·2^42 < 2^44                                  (int64)
//     3×3 minors  <= 6·2^63 < 2^66                                   (__int128)
//     4 products  <= 4·2^44·2^66 = 2^112 < 2^127                     (__int128)
// __int128 is a clang/gcc extension that also works for wasm32 under Emscripten (checked with em++ 3.1.6).
#pragma once

#include <cstdint>

namespace pbd::mesh {

/// A point of the integer lattice. Every coordinate must lie in [-kLatticeLimit, kLatticeLimit] (see the bound above).
struct LatticePoint {
  int64_t x, y, z;
  bool operator==(const LatticePoint&) const = default;
};

inline constexpr int64_t kLatticeLimit = int64_t(1) << 20;

namespace detail {
inline int sign(__int128 v) { return (v > 0) - (v < 0); }

/// Exact a·(b×c) of three difference vectors (each component |.| <= 2^21).
inline __int128 triple(int64_t ax, int64_t ay, int64_t az, int64_t bx, int64_t by, int64_t bz, int64_t cx, int64_t cy,
                       int64_t cz) {
  const int64_t m0 = by * cz - bz * cy;  // <= 2^43 each
  const int64_t m1 = bz * cx - bx * cz;
  const int64_t m2 = bx * cy - by * cx;
  return __int128(ax) * m0 + __int128(ay) * m1 + __int128(az) * m2;
}
}  // namespace detail

/// Sign of (b-a)·((c-a)×(d-a)): +1 when the tet (a,b,c,d) has positive volume by pbd's convention (tet_volume.h),
/// i.e. d lies on the side of the plane (a,b,c) that the right-hand normal (b-a)×(c-a) points to; 0 when coplanar.
/// Note: this is the opposite sign of Shewchuk's orient3d.
inline int orient3d(const LatticePoint& a, const LatticePoint& b, const LatticePoint& c, const LatticePoint& d) {
  return detail::sign(detail::triple(b.x - a.x, b.y - a.y, b.z - a.z, c.x - a.x, c.y - a.y, c.z - a.z, d.x - a.x,
                                     d.y - a.y, d.z - a.z));
}

/// For a positively oriented tet (orient3d(a,b,c,d) > 0): +1 when e lies strictly inside the circumsphere, 0 on it,
/// -1 outside. For a negatively oriented tet the sign is reversed; for a flat tet the value is meaningless.
/// Lifting map: e is inside iff (e, |e|²) lies below the hyperplane through the lifted a, b, c, d.
inline int insphere(const LatticePoint& a, const LatticePoint& b, const LatticePoint& c, const LatticePoint& d,
                    const LatticePoint& e) {
  const int64_t ax = a.x - e.x, ay = a.y - e.y, az = a.z - e.z;
  const int64_t bx = b.x - e.x, by = b.y - e.y, bz = b.z - e.z;
  const int64_t cx = c.x - e.x, cy = c.y - e.y, cz = c.z - e.z;
  const int64_t dx = d.x - e.x, dy = d.y - e.y, dz = d.z - e.z;
  const int64_t la = ax * ax + ay * ay + az * az;
  const int64_t lb = bx * bx + by * by + bz * bz;
  const int64_t lc = cx * cx + cy * cy + cz * cz;
  const int64_t ld = dx * dx + dy * dy + dz * dz;
  using detail::triple;
  // Cofactor expansion along the lifted column: det = -la|BCD| + lb|ACD| - lc|ABD| + ld|ABC|.
  const __int128 det = -__int128(la) * triple(bx, by, bz, cx, cy, cz, dx, dy, dz) +
                       __int128(lb) * triple(ax, ay, az, cx, cy, cz, dx, dy, dz) -
                       __int128(lc) * triple(ax, ay, az, bx, by, bz, dx, dy, dz) +
                       __int128(ld) * triple(ax, ay, az, bx, by, bz, cx, cy, cz);
  // With orient3d(a,b,c,d) > 0 this determinant is negative for e inside (checked on the unit tet and its centroid in
  // exact_predicates_test.cpp), hence the minus sign.
  return -detail::sign(det);
}

}  // namespace pbd::mesh
