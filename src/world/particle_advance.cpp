#include "world/particle_advance.h"

#include <algorithm>

#include "math/wide_float.h"

namespace pbd {

namespace {

/// The pass over particles [begin, end): with kCommit, the commit first; with kBound, their box.
template <bool kCommit, bool kBound>
ParticleBox advanceRun(const AdvancedParticles& a, const Real g[3], Real h, Real invH, size_t begin, size_t end) {
  const Float4 h4 = Float4::splat(h), invH4 = Float4::splat(invH), zero = Float4::splat(0);
  Float4 g4[3], w4[3];
  repeatOverXyz(g, g4);
  RunBounds bounds;
  size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    spreadOverXyz(a.w + i, w4);
    for (int c = 0; c < 3; ++c) {
      const size_t at = 3 * i + 4 * c;
      Float4 xk, vk;
      if constexpr (kCommit) {
        xk = Float4::load(a.p + at);
        vk = Float4::load(a.v + at) + (xk - Float4::load(a.inertial + at)) * invH4;
        xk.store(a.x + at);
      } else {
        xk = Float4::load(a.x + at), vk = Float4::load(a.v + at);
      }
      vk = select(w4[c] != zero, vk + h4 * (g4[c] + w4[c] * Float4::load(a.f + at)), vk);
      vk.store(a.v + at);
      const Float4 predicted = xk + h4 * vk;
      predicted.store(a.inertial + at), predicted.store(a.p + at);
      if constexpr (kBound) bounds.add(c, predicted);
    }
  }
  for (size_t k = i; k < end; ++k) {
    for (int c = 0; c < 3; ++c) {
      const size_t at = 3 * k + c;
      if constexpr (kCommit) {
        a.v[at] = a.v[at] + (a.p[at] - a.inertial[at]) * invH;
        a.x[at] = a.p[at];
      }
      if (a.w[k] != 0) a.v[at] += h * (g[c] + a.w[k] * a.f[at]);
      a.inertial[at] = a.p[at] = a.x[at] + h * a.v[at];
    }
  }
  return kBound ? bounds.finish(a.p, i, end) : ParticleBox{};
}

template <bool kCommit>
void advance(const AdvancedParticles& a, const Real g[3], Real h, Real invH, size_t begin, size_t end,
             ParticleBox* boxes) {
  if (!boxes) {
    advanceRun<kCommit, false>(a, g, h, invH, begin, end);
    return;
  }
  for (size_t first = begin; first < end; first += kBoxParticles) {
    const size_t last = std::min(end, first + kBoxParticles);
    boxes[first / kBoxParticles] = advanceRun<kCommit, true>(a, g, h, invH, first, last);
  }
}

}  // namespace

void accelerateAndPredict(const AdvancedParticles& a, bool commit, const Real g[3], Real h, Real invH, size_t begin,
                          size_t end, ParticleBox* boxes) {
  if (commit) advance<true>(a, g, h, invH, begin, end, boxes);
  else advance<false>(a, g, h, invH, begin, end, boxes);
}

}  // namespace pbd
