// The one-at-a-time kernels' view of padded positions (xyzw: x, y, z and the inverse mass per particle, padRange in
// math/wide_float.h), the layout the batched element kernels work on: a batch's tail and an uncoloured element then
// see the same values as the batch.
#pragma once

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

}  // namespace pbd
