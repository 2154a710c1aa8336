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
    DistanceLanes<Float4> l{
        Float4::make(a1[0], b1[0], c1[0], d1[0]), Float4::make(a1[1], b1[1], c1[1], d1[1]),
        Float4::make(a1[2], b1[2], c1[2], d1[2]), Float4::make(a2[0], b2[0], c2[0], d2[0]),
        Float4::make(a2[1], b2[1], c2[1], d2[1]), Float4::make(a2[2], b2[2], c2[2], d2[2]),
        Float4::make(w[a.i], w[b.i], w[c.i], w[d.i]), Float4::make(w[a.j], w[b.j], w[c.j], w[d.j]),
        Float4::make(a.minLength, b.minLength, c.minLength, d.minLength),
        Float4::make(a.maxLength, b.maxLength, c.maxLength, d.maxLength),
        Float4::make(a.kPrime, b.kPrime, c.kPrime, d.kPrime),
        Float4::make(a.compliance, b.compliance, c.compliance, d.compliance) * invH2x4,
        Float4::load(lambda + k)};
    const Float4 dLambda = projectDistanceLanes(l, xpbd);
    (l.lambda + dLambda).store(lambda + k);
    // The four constraints share no particle, so the scatter order does not matter.
    a1[0] = l.p1x.lane<0>(), a1[1] = l.p1y.lane<0>(), a1[2] = l.p1z.lane<0>();
    b1[0] = l.p1x.lane<1>(), b1[1] = l.p1y.lane<1>(), b1[2] = l.p1z.lane<1>();
    c1[0] = l.p1x.lane<2>(), c1[1] = l.p1y.lane<2>(), c1[2] = l.p1z.lane<2>();
    d1[0] = l.p1x.lane<3>(), d1[1] = l.p1y.lane<3>(), d1[2] = l.p1z.lane<3>();
    a2[0] = l.p2x.lane<0>(), a2[1] = l.p2y.lane<0>(), a2[2] = l.p2z.lane<0>();
    b2[0] = l.p2x.lane<1>(), b2[1] = l.p2y.lane<1>(), b2[2] = l.p2z.lane<1>();
    c2[0] = l.p2x.lane<2>(), c2[1] = l.p2y.lane<2>(), c2[2] = l.p2z.lane<2>();
    d2[0] = l.p2x.lane<3>(), d2[1] = l.p2y.lane<3>(), d2[2] = l.p2z.lane<3>();
  }
  Vec3* P = reinterpret_cast<Vec3*>(xyz);
  for (; k < end; ++k) {
    const DistanceConstraint& e = cs[k];
    lambda[k] += projectDistance(P[e.i], P[e.j], w[e.i], w[e.j], e.minLength, e.maxLength, xpbd, e.kPrime,
                                 e.compliance * invH2, lambda[k]);
  }
}

}  // namespace pbd
