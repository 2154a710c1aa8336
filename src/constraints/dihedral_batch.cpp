#include "constraints/dihedral.h"
#include "math/wide_float.h"

namespace pbd {

void projectDihedralsBatched(const DihedralConstraint* cs, const uint32_t* order, size_t begin, size_t end,
                             Real* lambda, Real* xyzw, bool xpbd, Real invH2) {
  for (size_t n = begin; n < end; n += 4) {
    uint32_t k[4];
    batchOfFour(order, n, end, k);
    const DihedralConstraint* c[4] = {&cs[k[0]], &cs[k[1]], &cs[k[2]], &cs[k[3]]};
    const PaddedLanes v[4] = {loadPaddedLanes(xyzw, c[0]->p0, c[1]->p0, c[2]->p0, c[3]->p0),
                              loadPaddedLanes(xyzw, c[0]->p1, c[1]->p1, c[2]->p1, c[3]->p1),
                              loadPaddedLanes(xyzw, c[0]->p2, c[1]->p2, c[2]->p2, c[3]->p2),
                              loadPaddedLanes(xyzw, c[0]->p3, c[1]->p3, c[2]->p3, c[3]->p3)};
    DihedralLanes<Float4> l;
    for (int q = 0; q < 4; ++q) l.p[q] = {v[q].x, v[q].y, v[q].z}, l.w[q] = v[q].w;
    l.restAngle = Float4::make(c[0]->restAngle, c[1]->restAngle, c[2]->restAngle, c[3]->restAngle);
    l.kPrime = Float4::make(c[0]->kPrime, c[1]->kPrime, c[2]->kPrime, c[3]->kPrime);
    l.alphaTilde = Float4::make(c[0]->compliance, c[1]->compliance, c[2]->compliance, c[3]->compliance) *
                   Float4::splat(invH2);
    l.lambda = Float4::gather(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    const Float4 dLambda = projectDihedralLanes(l, xpbd);
    (l.lambda + dLambda).scatter(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    // The four dihedrals share no particle (or are one dihedral repeated), so the store order does not matter.
    for (int q = 0; q < 4; ++q) storePaddedLanes(v[q], l.p[q].x, l.p[q].y, l.p[q].z);
  }
}

}  // namespace pbd
