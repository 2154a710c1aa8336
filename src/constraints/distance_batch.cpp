#include "constraints/distance.h"

namespace pbd {

void projectDistancesBatched(const DistanceConstraint* cs, Real* lambda, size_t begin, size_t end, Real* xyz,
                             const Real* w, bool xpbd, Real invH2) {
  size_t k = begin;
  const Float4 invH2x4 = Float4::splat(invH2);
  for (; k + 4 <= end; k += 4) {
    const DistanceConstraint &a = cs[k], &b = cs[k + 1], &c = cs[k + 2], &d = cs[k + 3];
    Real *a1 = xyz + 3 * size_t(a.i), *b1 = xyz + 3 * size_t(b.i), *c1 = xyz + 3 * size_t(c.i), *d1 = xyz + 3 * size_t(d.i);
    Real *a2 = xyz + 3 * size_t(a.j), *b2 = xyz + 3 * size_t(b.j), *c2 = xyz + 3 * size_t(c.j), *d2 = xyz + 3 * size_t(d.j);
    // Lane loads and stores straight from and to memory: gathering through scalars cost two instructions per value
    // (a load, then an insert), which made the batch slower than the arithmetic it feeds.
    DistanceLanes<Float4> l{
        Float4::gather(a1, b1, c1, d1), Float4::gather(a1 + 1, b1 + 1, c1 + 1, d1 + 1),
        Float4::gather(a1 + 2, b1 + 2, c1 + 2, d1 + 2), Float4::gather(a2, b2, c2, d2),
        Float4::gather(a2 + 1, b2 + 1, c2 + 1, d2 + 1), Float4::gather(a2 + 2, b2 + 2, c2 + 2, d2 + 2),
        Float4::gather(w + a.i, w + b.i, w + c.i, w + d.i), Float4::gather(w + a.j, w + b.j, w + c.j, w + d.j),
        Float4::gather(&a.minLength, &b.minLength, &c.minLength, &d.minLength),
        Float4::gather(&a.maxLength, &b.maxLength, &c.maxLength, &d.maxLength),
        Float4::gather(&a.kPrime, &b.kPrime, &c.kPrime, &d.kPrime),
        Float4::gather(&a.compliance, &b.compliance, &c.compliance, &d.compliance) * invH2x4,
        Float4::load(lambda + k)};
    const Float4 dLambda = projectDistanceLanes(l, xpbd);
    (l.lambda + dLambda).store(lambda + k);
    // The four constraints share no particle, so the scatter order does not matter.
    l.p1x.scatter(a1, b1, c1, d1), l.p1y.scatter(a1 + 1, b1 + 1, c1 + 1, d1 + 1), l.p1z.scatter(a1 + 2, b1 + 2, c1 + 2, d1 + 2);
    l.p2x.scatter(a2, b2, c2, d2), l.p2y.scatter(a2 + 1, b2 + 1, c2 + 1, d2 + 1), l.p2z.scatter(a2 + 2, b2 + 2, c2 + 2, d2 + 2);
  }
  Vec3* P = reinterpret_cast<Vec3*>(xyz);
  for (; k < end; ++k) {
    const DistanceConstraint& e = cs[k];
    lambda[k] += projectDistance(P[e.i], P[e.j], w[e.i], w[e.j], e.minLength, e.maxLength, xpbd, e.kPrime,
                                 e.compliance * invH2, lambda[k]);
  }
}

}  // namespace pbd
