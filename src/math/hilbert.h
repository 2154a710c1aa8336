// The 3D Hilbert curve index of an integer grid cell: the kernel behind pbd::localityOrder.
#pragma once

#include <cstdint>

namespace pbd {

/// Index along the 3D Hilbert curve of the cell (x, y, z) of a 2^bits-per-axis grid, bits in [1, 21] (so the index
/// fits 3 * bits <= 63 bits); every coordinate must be < 2^bits. Consecutive indices are face-adjacent cells.
/// Skilling's method ("Programming the Hilbert curve", AIP Conf. Proc. 707, 2004): AxestoTranspose turns the axes
/// X[0..2] into the "transposed" index by, for each bit Q from the top down to 2, with P = Q - 1 the bits below it:
///   if X[i] & Q: X[0] ^= P   (invert the low bits of X[0])   else: swap the low bits P of X[0] and X[i];
/// then Gray-encodes (X[i] ^= X[i-1]; t = XOR over Q of (Q-1 where X[2] & Q); X[i] ^= t). The index interleaves the
/// transposed bits, most significant first: bit b of X[0], X[1], X[2], then bit b - 1, ...
inline uint64_t hilbertIndex3(uint32_t x, uint32_t y, uint32_t z, int bits) {
  uint32_t X[3] = {x, y, z};
  const uint32_t top = 1u << (bits - 1);
  for (uint32_t q = top; q > 1; q >>= 1) {  // undo the excess work of the reflected Gray code
    const uint32_t p = q - 1;
    for (int i = 0; i < 3; ++i) {
      if (X[i] & q) {
        X[0] ^= p;
      } else {
        const uint32_t t = (X[0] ^ X[i]) & p;
        X[0] ^= t;
        X[i] ^= t;
      }
    }
  }
  for (int i = 1; i < 3; ++i) X[i] ^= X[i - 1];  // Gray encode
  uint32_t t = 0;
  for (uint32_t q = top; q > 1; q >>= 1)
    if (X[2] & q) t ^= q - 1;
  for (uint32_t& v : X) v ^= t;
  uint64_t index = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < 3; ++i) index = (index << 1) | ((X[i] >> b) & 1u);
  return index;
}

}  // namespace pbd
