#include "constraints/distance.h"

namespace pbd {

void packDistanceBatches(const DistanceConstraint* cs, size_t count, uint32_t paddingParticle, DistanceBatch* out) {
  for (size_t b = 0; 4 * b < count; ++b) {
    DistanceBatch& batch = out[b];
    for (size_t lane = 0; lane < 4; ++lane) {
      const size_t k = 4 * b + lane;
      const DistanceConstraint pad{paddingParticle, paddingParticle, 0, 0, 0, 0, 0};
      const DistanceConstraint& c = k < count ? cs[k] : pad;
      batch.i[lane] = c.i, batch.j[lane] = c.j;
      batch.minLength[lane] = c.minLength, batch.maxLength[lane] = c.maxLength;
      batch.kPrime[lane] = c.kPrime, batch.compliance[lane] = c.compliance;
    }
  }
}

void padPositions(const Real* xyz, const Real* w, size_t begin, size_t end, Real* xyzw) {
  for (size_t i = begin; i < end; ++i) {
    xyzw[4 * i] = xyz[3 * i], xyzw[4 * i + 1] = xyz[3 * i + 1], xyzw[4 * i + 2] = xyz[3 * i + 2];
    xyzw[4 * i + 3] = w[i];
  }
}

void unpadPositions(const Real* xyzw, size_t begin, size_t end, Real* xyz) {
  for (size_t i = begin; i < end; ++i) {
    xyz[3 * i] = xyzw[4 * i], xyz[3 * i + 1] = xyzw[4 * i + 1], xyz[3 * i + 2] = xyzw[4 * i + 2];
  }
}

namespace {

// The method as a template argument: the loop then carries neither the branch nor the unused method's loads.
template <bool kXpbd>
void projectBatches(const DistanceBatch* batches, size_t begin, size_t end, Real* lambda, Real* xyzw, Real invH2) {
  const Float4 invH2x4 = Float4::splat(invH2);
  for (size_t k = begin; k < end; ++k) {
    const DistanceBatch& b = batches[k];
    Real *a0 = xyzw + 4 * size_t(b.i[0]), *a1 = xyzw + 4 * size_t(b.i[1]), *a2 = xyzw + 4 * size_t(b.i[2]),
         *a3 = xyzw + 4 * size_t(b.i[3]);
    Real *b0 = xyzw + 4 * size_t(b.j[0]), *b1 = xyzw + 4 * size_t(b.j[1]), *b2 = xyzw + 4 * size_t(b.j[2]),
         *b3 = xyzw + 4 * size_t(b.j[3]);
    // A particle per vector load, then a 4x4 transpose into x, y, z, w lanes: loading lane by lane cost a load and
    // an insert per value, more than the arithmetic it feeds.
    Float4 x1 = Float4::load(a0), y1 = Float4::load(a1), z1 = Float4::load(a2), w1 = Float4::load(a3);
    Float4 x2 = Float4::load(b0), y2 = Float4::load(b1), z2 = Float4::load(b2), w2 = Float4::load(b3);
    transpose(x1, y1, z1, w1);
    transpose(x2, y2, z2, w2);
    DistanceLanes<Float4> l{x1, y1, z1, x2, y2, z2, w1, w2,
                            Float4::load(b.minLength), Float4::load(b.maxLength), Float4::load(b.kPrime),
                            Float4::load(b.compliance) * invH2x4, Float4::load(lambda + 4 * k)};
    const Float4 dLambda = projectDistanceLanes(l, kXpbd);
    (l.lambda + dLambda).store(lambda + 4 * k);
    // Back to one particle per vector; w rides along unchanged. The lanes share no particle (but the padding one,
    // which keeps its value), so the store order does not matter.
    transpose(l.p1x, l.p1y, l.p1z, w1);
    transpose(l.p2x, l.p2y, l.p2z, w2);
    l.p1x.store(a0), l.p1y.store(a1), l.p1z.store(a2), w1.store(a3);
    l.p2x.store(b0), l.p2y.store(b1), l.p2z.store(b2), w2.store(b3);
  }
}

}  // namespace

void projectDistanceBatches(const DistanceBatch* batches, size_t begin, size_t end, Real* lambda, Real* xyzw,
                            bool xpbd, Real invH2) {
  if (xpbd) projectBatches<true>(batches, begin, end, lambda, xyzw, invH2);
  else projectBatches<false>(batches, begin, end, lambda, xyzw, invH2);
}

}  // namespace pbd
