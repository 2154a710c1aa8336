#include "constraints/dihedral.h"

namespace pbd {

void projectDihedralsBatched(const DihedralConstraint* cs, const uint32_t* order, size_t begin, size_t end,
                             Real* lambda, Real* xyz, const Real* w, bool xpbd, Real invH2) {
  size_t n = begin;
  for (; n + 4 <= end; n += 4) {
    const uint32_t k[4] = {order[n], order[n + 1], order[n + 2], order[n + 3]};
    const DihedralConstraint* c[4] = {&cs[k[0]], &cs[k[1]], &cs[k[2]], &cs[k[3]]};
    uint32_t i[4][4];  // i[vertex][lane]
    for (int lane = 0; lane < 4; ++lane) {
      i[0][lane] = c[lane]->p0, i[1][lane] = c[lane]->p1, i[2][lane] = c[lane]->p2, i[3][lane] = c[lane]->p3;
    }
    DihedralLanes<Float4> l;
    Real* q[4][4];  // q[vertex][lane]: that vertex's xyz
    for (int v = 0; v < 4; ++v) {
      for (int lane = 0; lane < 4; ++lane) q[v][lane] = xyz + 3 * size_t(i[v][lane]);
      l.p[v].x = Float4::gather(q[v][0], q[v][1], q[v][2], q[v][3]);
      l.p[v].y = Float4::gather(q[v][0] + 1, q[v][1] + 1, q[v][2] + 1, q[v][3] + 1);
      l.p[v].z = Float4::gather(q[v][0] + 2, q[v][1] + 2, q[v][2] + 2, q[v][3] + 2);
      l.w[v] = Float4::gather(w + i[v][0], w + i[v][1], w + i[v][2], w + i[v][3]);
    }
    l.restAngle = Float4::gather(&c[0]->restAngle, &c[1]->restAngle, &c[2]->restAngle, &c[3]->restAngle);
    l.kPrime = Float4::gather(&c[0]->kPrime, &c[1]->kPrime, &c[2]->kPrime, &c[3]->kPrime);
    l.alphaTilde = Float4::gather(&c[0]->compliance, &c[1]->compliance, &c[2]->compliance, &c[3]->compliance) *
                   Float4::splat(invH2);
    l.lambda = Float4::gather(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    const Float4 dLambda = projectDihedralLanes(l, xpbd);
    (l.lambda + dLambda).scatter(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    // The four dihedrals share no particle, so the scatter order does not matter.
    for (int v = 0; v < 4; ++v) {
      l.p[v].x.scatter(q[v][0], q[v][1], q[v][2], q[v][3]);
      l.p[v].y.scatter(q[v][0] + 1, q[v][1] + 1, q[v][2] + 1, q[v][3] + 1);
      l.p[v].z.scatter(q[v][0] + 2, q[v][1] + 2, q[v][2] + 2, q[v][3] + 2);
    }
  }
  Vec3* P = reinterpret_cast<Vec3*>(xyz);
  for (; n < end; ++n) {
    const DihedralConstraint& d = cs[order[n]];
    Vec3* ps[4] = {&P[d.p0], &P[d.p1], &P[d.p2], &P[d.p3]};
    const Real ws[4] = {w[d.p0], w[d.p1], w[d.p2], w[d.p3]};
    lambda[order[n]] += projectDihedral(ps, ws, d.restAngle, xpbd, d.kPrime, d.compliance * invH2, lambda[order[n]]);
  }
}

}  // namespace pbd
