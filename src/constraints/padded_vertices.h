// The one-at-a-time kernels' view of padded positions (xyzw: x, y, z and the inverse mass per particle, padRange in
// math/wide_float.h), the layout the batched element kernels work on: an uncoloured element then sees the same values
// as the batches.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "pbd/real.h"

namespace pbd {

/// ps[k] = particle i[k]'s xyz inside `xyzw`, ws[k] its inverse mass.
inline void paddedVertices(Real* xyzw, const uint32_t (&i)[4], Vec3* (&ps)[4], Real (&ws)[4]) {
  for (int k = 0; k < 4; ++k) {
    ps[k] = reinterpret_cast<Vec3*>(xyzw + 4 * size_t(i[k]));
    ws[k] = xyzw[4 * size_t(i[k]) + 3];
  }
}

/// k = the elements of the batch of four that starts at order[n], in a colour that ends at order[end]: order[n ..
/// n + 3], or, in the colour's last and short batch, its last element again in the lanes past `end`. A repeated
/// lane loads, computes and stores exactly what the lane it repeats does (the same inputs, the same bits, the same
/// values stored twice), so the short batch gives the bits of projecting its real elements alone, at the price of
/// one batch instead of up to three one-at-a-time projections.
inline void batchOfFour(const uint32_t* order, size_t n, size_t end, uint32_t (&k)[4]) {
  for (size_t q = 0; q < 4; ++q) k[q] = order[std::min(n + q, end - 1)];
}

}  // namespace pbd
