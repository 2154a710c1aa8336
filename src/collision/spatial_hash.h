// A spatial hash over particle positions (Teschner et al. 2003; Ten Minute Physics' dense variant): cells of a
// fixed size hashed into a table of (at least) 2n buckets, filled by a counting sort. Rebuilt from scratch into buffers
// reserved with the particles, so it never allocates inside step(), and its order is deterministic.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd {

class SpatialHash {
 public:
  /// Makes room for `particles` (may throw); build() then never allocates.
  void reserve(size_t particles) {
    cellStart_.reserve(tableSizeFor(particles) + 1);
    entries_.reserve(particles);
    sorted_.reserve(4 * particles);
    sortedCompanion_.reserve(4 * particles);
  }

  /// Hashes the n positions xyz with cells of `spacing` metres. `companion` (optional) is a second position per
  /// particle that queryNear can test as well (self-collision passes the rest shape), and `companionGroup`
  /// (optional, < 2^24 each, exact as floats) a group per particle that bounds that test to its own group (the body:
  /// rest positions of two bodies say nothing about each other).
  void build(const Real* xyz, uint32_t n, Real spacing, const Real* companion = nullptr,
             const uint32_t* companionGroup = nullptr) {
    invSpacing_ = 1 / spacing;
    const size_t tableSize = tableSizeFor(n);
    mask_ = tableSize - 1;
    cellStart_.assign(tableSize + 1, 0);
    entries_.resize(n);
    for (uint32_t i = 0; i < n; ++i) ++cellStart_[bucketOf(xyz + 3 * size_t(i))];
    for (size_t b = 1; b <= tableSize; ++b) cellStart_[b] += cellStart_[b - 1];  // cellStart_[b] = end of bucket b
    for (uint32_t i = n; i-- > 0;) entries_[--cellStart_[bucketOf(xyz + 3 * size_t(i))]] = i;
    // The positions again in entry order, padded to four floats: queryNear reads a bucket's positions contiguously.
    copyInEntryOrder(xyz, sorted_);
    if (companion) copyInEntryOrder(companion, sortedCompanion_, companionGroup);
    else sortedCompanion_.clear();
  }

  /// Calls visit(j) for every particle hashed into the cells overlapping the cube of half-size `radius` around p
  /// (a superset of the particles within `radius`: buckets can collide, the caller checks distances), once each
  /// when the cube spans at most 3 cells a side.
  template <class Visit>
  void query(const Real* p, Real radius, Visit visit) const {
    forEachBucket(p, radius, [&](uint32_t begin, uint32_t end) {
      for (uint32_t k = begin; k < end; ++k) visit(entries_[k]);
    });
  }

  /// query(p, radius, visit) without the blocks of four entries (in bucket order) that the caller would reject
  /// whole: each entry q has (dx² + dy²) + dz² >= radius², d = p - q as the caller computes it, or, with a companion
  /// point c (build's companion positions of q: c'), (ex² + ey²) + ez² < companionRadius², e = c - c', and q in
  /// `group` (build's companionGroup; without one every particle is in group 0). Tested four at a time on the
  /// contiguous copies. The visits keep query's order, so a caller that applies the same tests gets the same
  /// result. Only for the positions the hash was built from.
  template <class Visit>
  void queryNear(const Real* p, Real radius, Visit visit, const Real* companion = nullptr, Real companionRadius = 0,
                 uint32_t group = 0) const {
    const Float4 px = Float4::splat(p[0]), py = Float4::splat(p[1]), pz = Float4::splat(p[2]);
    const Float4 radius2 = Float4::splat(radius * radius);
    const bool withCompanion = companion && !sortedCompanion_.empty();
    const Float4 cx = Float4::splat(withCompanion ? companion[0] : 0), cy = Float4::splat(withCompanion ? companion[1] : 0);
    const Float4 cz = Float4::splat(withCompanion ? companion[2] : 0);
    const Float4 companionRadius2 = Float4::splat(companionRadius * companionRadius);
    const Float4 group4 = Float4::splat(Real(group));
    forEachBucket(p, radius, [&](uint32_t begin, uint32_t end) {
      uint32_t k = begin;
      for (; k + 4 <= end; k += 4) {
        Mask4 rejected = radius2 <= squaredDistances(px, py, pz, &sorted_[4 * size_t(k)]);
        if (withCompanion) {
          Float4 groups;
          const Float4 e2 = squaredDistances(cx, cy, cz, &sortedCompanion_[4 * size_t(k)], &groups);
          rejected = rejected | ((e2 < companionRadius2) & (groups == group4));
        }
        if (all(rejected)) continue;
        for (uint32_t m = k; m < k + 4; ++m) visit(entries_[m]);
      }
      for (; k < end; ++k) visit(entries_[k]);
    });
  }

 private:
  /// Calls bucketRange(begin, end) with the entry range of every bucket of a cell overlapping the cube of half-size
  /// `radius` around p (a cube of more cells than buckets: the whole table as one range).
  template <class BucketRange>
  void forEachBucket(const Real* p, Real radius, BucketRange bucketRange) const {
    const int64_t x0 = cell(p[0] - radius), x1 = cell(p[0] + radius);
    const int64_t y0 = cell(p[1] - radius), y1 = cell(p[1] + radius);
    const int64_t z0 = cell(p[2] - radius), z1 = cell(p[2] + radius);
    // A cube of more cells than there are buckets visits every bucket anyway: once each, in bucket order. Only a
    // cube far wider than the callers' few cells gets here, one whose end rounded to infinity near ±FLT_MAX (a
    // reach of 1e33 from z = -FLT_MAX spanned 2^62 cells: a step that never ended).
    const uint64_t sx = uint64_t(x1) - uint64_t(x0) + 1, sy = uint64_t(y1) - uint64_t(y0) + 1;
    const uint64_t sz = uint64_t(z1) - uint64_t(z0) + 1, buckets = mask_ + 1;
    if ((sx > 3 || sy > 3 || sz > 3) && (sx > buckets || sy > buckets || sz > buckets || sx * sy * sz > buckets)) {
      bucketRange(cellStart_[0], cellStart_[buckets]);
      return;
    }
    // Two of the cells can share a bucket; its particles are visited once all the same, for cubes of up to 3 cells
    // a side (every caller's: cells of one or two query radii).
    constexpr int kDedupedCells = 27;
    size_t visited[kDedupedCells];
    int visitedCount = 0;
    const bool dedupe = x1 - x0 < 3 && y1 - y0 < 3 && z1 - z0 < 3;
    // The hash is a xor of one product per axis: each axis's products once, not once per cell.
    for (int64_t x = x0; x <= x1; ++x) {
      const uint64_t hx = uint64_t(x) * kPrimeX;
      for (int64_t y = y0; y <= y1; ++y) {
        const uint64_t hxy = hx ^ (uint64_t(y) * kPrimeY);
        for (int64_t z = z0; z <= z1; ++z) {
          const size_t b = fold(hxy ^ (uint64_t(z) * kPrimeZ));
          if (dedupe) {
            if (std::find(visited, visited + visitedCount, b) != visited + visitedCount) continue;
            visited[visitedCount++] = b;
          }
          bucketRange(cellStart_[b], cellStart_[b + 1]);
        }
      }
    }
  }

  /// xyz per entry, padded to four floats; the fourth is the entry's group (0 without groups).
  void copyInEntryOrder(const Real* xyz, std::vector<Real>& out, const uint32_t* group = nullptr) const {
    out.resize(4 * entries_.size());
    for (size_t k = 0; k < entries_.size(); ++k) {
      const Real* q = xyz + 3 * size_t(entries_[k]);
      out[4 * k] = q[0], out[4 * k + 1] = q[1], out[4 * k + 2] = q[2];
      out[4 * k + 3] = group ? Real(group[entries_[k]]) : Real(0);
    }
  }
  /// (dx² + dy²) + dz², d = p - q, for the four padded points at q; their fourth floats to `fourth` if given.
  static Float4 squaredDistances(Float4 px, Float4 py, Float4 pz, const Real* q, Float4* fourth = nullptr) {
    Float4 x = Float4::load(q), y = Float4::load(q + 4), z = Float4::load(q + 8), w = Float4::load(q + 12);
    transpose(x, y, z, w);
    if (fourth) *fourth = w;
    const Float4 dx = px - x, dy = py - y, dz = pz - z;
    return (dx * dx + dy * dy) + dz * dz;
  }

  /// floor(coordinate / spacing), clamped to +-2^62 (NaN: 0) so that the conversion cannot overflow: a far or
  /// non-finite predicted position (which the step's non-finite guard then undoes) or a huge radius only makes
  /// cells share buckets, which the caller's distance test sorts out.
  int64_t cell(Real coordinate) const {
    constexpr Real kLimit = 0x1p62f;
    const Real c = std::floor(coordinate * invSpacing_);
    if (c >= kLimit) return int64_t(1) << 62;
    if (c <= -kLimit) return -(int64_t(1) << 62);
    return c == c ? int64_t(c) : 0;
  }
  /// A power of two >= 2n, so that a bucket is a mask of the hash rather than a 64-bit division (the division
  /// cost more than the rest of a query).
  static size_t tableSizeFor(size_t particles) {
    size_t size = 2;
    while (size < 2 * particles) size *= 2;
    return size;
  }
  static constexpr uint64_t kPrimeX = 92837111ull, kPrimeY = 689287499ull, kPrimeZ = 283923481ull;
  /// Fold high bits in: a mask alone would keep only the products' low bits.
  size_t fold(uint64_t h) const { return size_t((h ^ (h >> 29)) & mask_); }
  size_t bucket(int64_t x, int64_t y, int64_t z) const {
    return fold((uint64_t(x) * kPrimeX) ^ (uint64_t(y) * kPrimeY) ^ (uint64_t(z) * kPrimeZ));
  }
  size_t bucketOf(const Real* p) const { return bucket(cell(p[0]), cell(p[1]), cell(p[2])); }

  Real invSpacing_ = 1;  // 1 / the cells' size: a product, not a division, per coordinate (floor stays monotone)
  size_t mask_ = 0;                  // table size - 1
  std::vector<uint32_t> cellStart_;  // bucket b holds entries_[cellStart_[b], cellStart_[b+1])
  std::vector<uint32_t> entries_;    // particle indices sorted by bucket
  std::vector<Real> sorted_;         // xyz0 of entries_[k] at 4k: the positions in entry order
  std::vector<Real> sortedCompanion_;  // the same for build's companion positions (empty without)
};

}  // namespace pbd
