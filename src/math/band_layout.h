// Positions in four bands: the layout in which four constraints that are translates of one another load and store
// whole vectors, with no transpose (schedule/block_schedule.h, "Banded").
//
// The particles [0, n) are cut into four bands of m = ceil(n / 4); particle p sits in lane p / m of block p mod m,
// and a block is 16 floats: x x x x y y y y z z z z w w w w (w the inverse mass). Lane L of block b is particle
// b + L m; the lanes past n (the last band's tail) hold zeros, inverse mass 0 included, so the kernels leave them be.
// A row-major grid cloth's bands are four strips of rows, translates of one another: the constraint (i, j) in band 0
// and its three translates (i + L m, j + L m) form one batch whose two ends are two blocks.
//
// The copies move data only: the bits are the positions'.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "math/wide_float.h"

namespace pbd {

/// m: particles per band (and blocks of the layout) for n particles.
inline uint32_t bandParticles(uint32_t n) { return (n + 3) / 4; }

/// Where place r's x is in the band layout (its block's 16 floats, then its lane): 16 (r mod m) + r / m.
inline uint32_t bandSlot(uint32_t r, uint32_t m) { return 16 * (r % m) + r / m; }

/// fn(begin, end) for each band's particles of the blocks [first, last) (last <= m): [L m + first, L m + last) for
/// L = 0..3, cut at n, the empty ones left out.
template <class Fn>
void forEachBandSpan(uint32_t n, uint32_t m, size_t first, size_t last, Fn fn) {
  for (size_t band = 0; band < 4; ++band) {
    const size_t begin = band * m + first, end = std::min(size_t(n), band * m + last);
    if (begin < end) fn(begin, end);
  }
}

/// bands[16 b ..] = the xyz and w of particles b + L m (L = 0..3), for blocks b in [begin, end).
inline void padBandsRange(const float* xyz, const float* w, uint32_t n, uint32_t m, size_t begin, size_t end,
                          float* bands) {
  size_t b = begin;
  // A vector load per particle reads its x y z and the next particle's x (dropped by the transpose's fourth row):
  // within bounds while the last band's particle is not the last particle. Not for a range's last block: the next
  // particle is then the next range's, which another thread may be predicting (PaddedCopies::advance).
  for (; b + 1 < end && b + 3 * size_t(m) + 1 < n; ++b) {
    Float4 p0 = Float4::load(xyz + 3 * b), p1 = Float4::load(xyz + 3 * (b + m));
    Float4 p2 = Float4::load(xyz + 3 * (b + 2 * size_t(m))), p3 = Float4::load(xyz + 3 * (b + 3 * size_t(m)));
    transpose(p0, p1, p2, p3);
    float* o = bands + 16 * b;
    p0.store(o), p1.store(o + 4), p2.store(o + 8);
    Float4::make(w[b], w[b + m], w[b + 2 * size_t(m)], w[b + 3 * size_t(m)]).store(o + 12);
  }
  for (; b < end; ++b) {
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const size_t p = b + lane * size_t(m);
      float* o = bands + 16 * b + lane;
      const bool real = p < n;
      o[0] = real ? xyz[3 * p] : 0, o[4] = real ? xyz[3 * p + 1] : 0, o[8] = real ? xyz[3 * p + 2] : 0;
      o[12] = real ? w[p] : 0;
    }
  }
}

/// xyz of the particles of blocks [begin, end) back from `bands`; padBandsRange's way back, w dropped.
inline void unpadBandsRange(const float* bands, uint32_t n, uint32_t m, size_t begin, size_t end, float* xyz) {
  size_t b = begin;
  // A vector store per particle writes its x y z and, with w, over the next particle's x, which the next block
  // writes after it. So not for a range's last block (the next one may be another thread's), nor where the last
  // band's particle is the last particle.
  for (; b + 1 < end && b + 3 * size_t(m) + 1 < n; ++b) {
    const float* s = bands + 16 * b;
    Float4 x = Float4::load(s), y = Float4::load(s + 4), z = Float4::load(s + 8), w = Float4::load(s + 12);
    transpose(x, y, z, w);
    x.store(xyz + 3 * b), y.store(xyz + 3 * (b + m));
    z.store(xyz + 3 * (b + 2 * size_t(m))), w.store(xyz + 3 * (b + 3 * size_t(m)));
  }
  for (; b < end; ++b) {
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const size_t p = b + lane * size_t(m);
      if (p >= n) continue;
      const float* s = bands + 16 * b + lane;
      xyz[3 * p] = s[0], xyz[3 * p + 1] = s[4], xyz[3 * p + 2] = s[8];
    }
  }
}

/// padBandsRange for a layout whose place r = b + L m holds particle order[r] (the lattice-ordered bands,
/// schedule/lattice_order.h): a gather per particle, a vector load each (its x y z and the next particle's x, dropped
/// by the transpose) where no lane holds the last particle or a place past n.
inline void padBandsInOrder(const float* xyz, const float* w, const uint32_t* order, uint32_t n, uint32_t m,
                            size_t begin, size_t end, float* bands) {
  for (size_t b = begin; b < end; ++b) {
    float* o = bands + 16 * b;
    if (b + 3 * size_t(m) < n) {
      const size_t p0 = order[b], p1 = order[b + m], p2 = order[b + 2 * size_t(m)], p3 = order[b + 3 * size_t(m)];
      if (p0 + 1 < n && p1 + 1 < n && p2 + 1 < n && p3 + 1 < n) {
        Float4 a = Float4::load(xyz + 3 * p0), c = Float4::load(xyz + 3 * p1);
        Float4 d = Float4::load(xyz + 3 * p2), e = Float4::load(xyz + 3 * p3);
        transpose(a, c, d, e);
        a.store(o), c.store(o + 4), d.store(o + 8);
        Float4::make(w[p0], w[p1], w[p2], w[p3]).store(o + 12);
        continue;
      }
    }
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const size_t r = b + lane * size_t(m);
      if (r >= n) {
        o[lane] = o[4 + lane] = o[8 + lane] = o[12 + lane] = 0;
        continue;
      }
      const size_t p = order[r];
      o[lane] = xyz[3 * p], o[4 + lane] = xyz[3 * p + 1], o[8 + lane] = xyz[3 * p + 2], o[12 + lane] = w[p];
    }
  }
}

/// unpadBandsRange for padBandsInOrder's layout, by particle: particles [begin, end) from their places, slot[p] the
/// offset of particle p's x in `bands` (bandSlot of its place), so that a range writes only its own particles'
/// positions.
inline void unpadBandsToParticles(const float* bands, const uint32_t* slot, size_t begin, size_t end, float* xyz) {
  for (size_t p = begin; p < end; ++p) {
    const float* s = bands + slot[p];
    xyz[3 * p] = s[0], xyz[3 * p + 1] = s[4], xyz[3 * p + 2] = s[8];
  }
}

}  // namespace pbd
