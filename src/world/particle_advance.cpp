#include "world/particle_advance.h"

#include "collision/run_bounds.h"
#include "math/wide_float.h"
#include "world/velocity_clamp.h"

namespace pbd {

namespace {

/// The stages an instantiation of the pass runs, fixed at compile time, or kRuntime: read from AdvanceStages.
constexpr unsigned kAccelerate = 1, kDamp = 2, kClamp = 4, kPredict = 8, kRuntime = 16;

/// Whether |v| <= limit for each of four particles, from their three xyz vectors, conservatively: every component
/// within limit/√3 (less a margin far above float rounding), so clampSpeedRange would leave them as they are. NaN
/// and infinities fail it.
bool surelyWithinSpeed(const Float4 (&v)[3], Float4 low, Float4 high) {
  return all((low <= v[0]) & (v[0] <= high) & (low <= v[1]) & (v[1] <= high) & (low <= v[2]) & (v[2] <= high));
}

/// The pass over particles [begin, end): with kCommit, the commit first; with kBound, their box; the stages kStages.
template <bool kCommit, bool kBound, unsigned kStages>
ParticleBox advanceRun(const AdvancedParticles& a, const AdvanceStages& s, size_t begin, size_t end) {
  constexpr bool kFixed = !(kStages & kRuntime);
  const bool accelerate = kFixed ? bool(kStages & kAccelerate) : s.accelerate;
  const bool damp = kFixed ? bool(kStages & kDamp) : s.damp, clamp = kFixed ? bool(kStages & kClamp) : s.clamp;
  const bool predict = kFixed ? bool(kStages & kPredict) : s.predict;
  Real* const x = a.x;  // copies: the clamp's call may not, for all the compiler knows, leave `a` as it was
  Real* const v = a.v;
  Real* const p = a.p;
  Real* const inertial = a.inertial;
  const Real *const w = a.w, *const f = a.f;
  const Real invH = 1 / s.h;  // the bits of commitPositions' 1 / h
  const Float4 h4 = Float4::splat(s.h), invH4 = Float4::splat(invH), keep4 = Float4::splat(s.keep);
  const Real componentLimit = s.maxSpeed * Real(0.57735 * 0.99999);
  const Float4 zero = Float4::splat(0), high = Float4::splat(componentLimit), low = Float4::splat(-componentLimit);
  Float4 g4[3], w4[3];
  repeatOverXyz(s.g, g4);
  RunBounds bounds;
  size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    Float4 xk[3], vk[3];
    if (accelerate) spreadOverXyz(w + i, w4);
    for (int c = 0; c < 3; ++c) {
      const size_t at = 3 * i + 4 * c;
      if constexpr (kCommit) {
        xk[c] = Float4::load(p + at);
        vk[c] = Float4::load(v + at) + (xk[c] - Float4::load(inertial + at)) * invH4;
        xk[c].store(x + at);
      } else {
        xk[c] = Float4::load(x + at), vk[c] = Float4::load(v + at);
      }
      if (damp) vk[c] = vk[c] * keep4;
      if (accelerate) vk[c] = select(w4[c] != zero, vk[c] + h4 * (g4[c] + w4[c] * Float4::load(f + at)), vk[c]);
      vk[c].store(v + at);
    }
    if (clamp && !surelyWithinSpeed(vk, low, high)) {
      // Per particle, across the three vectors: one by one, in double (velocity_clamp.cpp).
      clampSpeedRange(v, s.maxSpeed, i, i + 4);
      for (int c = 0; c < 3; ++c) vk[c] = Float4::load(v + 3 * i + 4 * c);
    }
    if (!predict) continue;
    for (int c = 0; c < 3; ++c) {
      const size_t at = 3 * i + 4 * c;
      const Float4 predicted = xk[c] + h4 * vk[c];
      predicted.store(inertial + at), predicted.store(p + at);
      if constexpr (kBound) bounds.add(c, predicted);
    }
  }
  for (size_t k = i; k < end; ++k) {
    for (int c = 0; c < 3; ++c) {
      const size_t at = 3 * k + c;
      if constexpr (kCommit) {
        v[at] = v[at] + (p[at] - inertial[at]) * invH;
        x[at] = p[at];
      }
      if (damp) v[at] *= s.keep;
      if (accelerate && w[k] != 0) v[at] += s.h * (s.g[c] + w[k] * f[at]);
    }
    if (clamp) clampSpeedRange(v, s.maxSpeed, k, k + 1);
    if (!predict) continue;
    for (int c = 0; c < 3; ++c) {
      const size_t at = 3 * k + c;
      inertial[at] = p[at] = x[at] + s.h * v[at];
    }
  }
  return kBound ? bounds.finish(p, i, end) : ParticleBox{};
}

template <bool kCommit, unsigned kStages>
void advanceRuns(const AdvancedParticles& a, const AdvanceStages& s, size_t begin, size_t end, ParticleBox* boxes) {
  if (!boxes) {
    advanceRun<kCommit, false, kStages>(a, s, begin, end);
    return;
  }
  forEachBoxRun(begin, end, boxes,
                [&](size_t first, size_t last) { return advanceRun<kCommit, true, kStages>(a, s, first, last); });
}

template <unsigned kStages>
void advance(const AdvancedParticles& a, const AdvanceStages& s, size_t begin, size_t end, ParticleBox* boxes) {
  if (s.commit) advanceRuns<true, kStages>(a, s, begin, end, boxes);
  else advanceRuns<false, kStages>(a, s, begin, end, boxes);
}

}  // namespace

void advanceParticleRange(const AdvancedParticles& a, const AdvanceStages& s, size_t begin, size_t end,
                          ParticleBox* boxes) {
  // The forms implicit Euler's substeps take get loops of their own, the stages' tests compiled out; the rest (the
  // halves around Müller's damping, BDF2's, the settle's) share one that tests them.
  const unsigned stages = (s.accelerate ? kAccelerate : 0) | (s.damp ? kDamp : 0) | (s.clamp ? kClamp : 0) |
                          (s.predict ? kPredict : 0);
  switch (stages) {
    case kAccelerate | kPredict: return advance<kAccelerate | kPredict>(a, s, begin, end, boxes);
    case kAccelerate | kDamp | kPredict: return advance<kAccelerate | kDamp | kPredict>(a, s, begin, end, boxes);
    case kAccelerate | kClamp | kPredict: return advance<kAccelerate | kClamp | kPredict>(a, s, begin, end, boxes);
    case kAccelerate | kDamp | kClamp | kPredict:
      return advance<kAccelerate | kDamp | kClamp | kPredict>(a, s, begin, end, boxes);
    default: return advance<kRuntime>(a, s, begin, end, boxes);
  }
}

}  // namespace pbd
