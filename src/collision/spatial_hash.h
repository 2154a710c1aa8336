// A spatial hash over particle positions (Teschner et al. 2003; Ten Minute Physics' dense variant): cells of a
// fixed size hashed into a table of (at least) 2n buckets, filled by a counting sort. Rebuilt from scratch into buffers
// reserved with the particles, so it never allocates inside step(), and its order is deterministic.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "pbd/real.h"

namespace pbd {

class SpatialHash {
 public:
  /// Makes room for `particles` (may throw); build() then never allocates.
  void reserve(size_t particles) {
    cellStart_.reserve(tableSizeFor(particles) + 1);
    entries_.reserve(particles);
  }

  /// Hashes the n positions xyz with cells of `spacing` metres.
  void build(const Real* xyz, uint32_t n, Real spacing) {
    spacing_ = spacing;
    const size_t tableSize = tableSizeFor(n);
    mask_ = tableSize - 1;
    cellStart_.assign(tableSize + 1, 0);
    entries_.resize(n);
    for (uint32_t i = 0; i < n; ++i) ++cellStart_[bucketOf(xyz + 3 * size_t(i))];
    for (size_t b = 1; b <= tableSize; ++b) cellStart_[b] += cellStart_[b - 1];  // cellStart_[b] = end of bucket b
    for (uint32_t i = n; i-- > 0;) entries_[--cellStart_[bucketOf(xyz + 3 * size_t(i))]] = i;
  }

  /// Calls visit(j) for every particle hashed into the cells overlapping the cube of half-size `radius` around p
  /// (a superset of the particles within `radius`: buckets can collide, the caller checks distances).
  template <class Visit>
  void query(const Real* p, Real radius, Visit visit) const {
    const int64_t x0 = cell(p[0] - radius), x1 = cell(p[0] + radius);
    const int64_t y0 = cell(p[1] - radius), y1 = cell(p[1] + radius);
    const int64_t z0 = cell(p[2] - radius), z1 = cell(p[2] + radius);
    // The hash is a xor of one product per axis: each axis's products once, not once per cell.
    for (int64_t x = x0; x <= x1; ++x) {
      const uint64_t hx = uint64_t(x) * kPrimeX;
      for (int64_t y = y0; y <= y1; ++y) {
        const uint64_t hxy = hx ^ (uint64_t(y) * kPrimeY);
        for (int64_t z = z0; z <= z1; ++z) {
          const size_t b = fold(hxy ^ (uint64_t(z) * kPrimeZ));
          for (uint32_t k = cellStart_[b]; k < cellStart_[b + 1]; ++k) visit(entries_[k]);
        }
      }
    }
  }

 private:
  /// floor(coordinate / spacing), clamped to +-2^62 (NaN: 0) so that the conversion cannot overflow: a far or
  /// non-finite predicted position (which the step's non-finite guard then undoes) or a huge radius only makes
  /// cells share buckets, which the caller's distance test sorts out.
  int64_t cell(Real coordinate) const {
    constexpr Real kLimit = 0x1p62f;
    const Real c = std::floor(coordinate / spacing_);
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

  Real spacing_ = 1;
  size_t mask_ = 0;                  // table size - 1
  std::vector<uint32_t> cellStart_;  // bucket b holds entries_[cellStart_[b], cellStart_[b+1])
  std::vector<uint32_t> entries_;    // particle indices sorted by bucket
};

}  // namespace pbd
