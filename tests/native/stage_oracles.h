// The explicit force step as a pass of its own over flat xyz arrays: the oracle the substep's fused particle pass
// (world/particle_advance.h) is checked against, bit for bit. wide_float_test checks it in turn against the
// one-particle expression.
#pragma once

#include <cstddef>

#include "math/wide_float.h"

namespace pbd::test {

/// v_i += h (g + w_i f_i) for every particle i in [begin, end) with w_i != 0 (pinned particles keep their velocity):
/// the explicit force step over flat xyz arrays. Four particles are twelve floats, three vectors, so g and w_i are
/// laid out in the same xyz xyz pattern; each lane computes exactly the one-particle expression.
inline void addAccelerationRange(float* v, const float* w, const float* f, const float g[3], float h, size_t begin,
                                 size_t end) {
  size_t i = begin;
  const Float4 h4 = Float4::splat(h), zero = Float4::splat(0);
  Float4 g4[3], w4[3];
  repeatOverXyz(g, g4);
  for (; i + 4 <= end; i += 4) {
    spreadOverXyz(w + i, w4);
    for (int c = 0; c < 3; ++c) {
      float* vc = v + 3 * i + 4 * c;
      const Float4 vk = Float4::load(vc);
      select(w4[c] != zero, vk + h4 * (g4[c] + w4[c] * Float4::load(f + 3 * i + 4 * c)), vk).store(vc);
    }
  }
  for (; i < end; ++i) {
    if (w[i] == 0) continue;
    for (int a = 0; a < 3; ++a) v[3 * i + a] += h * (g[a] + w[i] * f[3 * i + a]);
  }
}

}  // namespace pbd::test
