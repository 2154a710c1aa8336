#include "constraints/tet_volume.h"

namespace pbd {

void projectTetVolumesBatched(const TetVolumeConstraint* cs, const uint32_t* order, size_t begin, size_t end,
                              Real* lambda, Real* xyz, const Real* w, bool xpbd, Real invH2) {
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  size_t n = begin;
  for (; n + 4 <= end; n += 4) {
    const uint32_t k[4] = {order[n], order[n + 1], order[n + 2], order[n + 3]};
    const TetVolumeConstraint *a = &cs[k[0]], *b = &cs[k[1]], *c = &cs[k[2]], *d = &cs[k[3]];
    TetVolumeLanes<Float4> l;
    Real* q[4][4];  // q[vertex][lane]: that vertex's xyz
    for (int v = 0; v < 4; ++v) {
      q[v][0] = xyz + 3 * size_t(a->p[v]), q[v][1] = xyz + 3 * size_t(b->p[v]);
      q[v][2] = xyz + 3 * size_t(c->p[v]), q[v][3] = xyz + 3 * size_t(d->p[v]);
      l.x[v] = Float4::gather(q[v][0], q[v][1], q[v][2], q[v][3]);
      l.y[v] = Float4::gather(q[v][0] + 1, q[v][1] + 1, q[v][2] + 1, q[v][3] + 1);
      l.z[v] = Float4::gather(q[v][0] + 2, q[v][1] + 2, q[v][2] + 2, q[v][3] + 2);
      l.w[v] = Float4::gather(w + a->p[v], w + b->p[v], w + c->p[v], w + d->p[v]);
    }
    l.restVolume = Float4::gather(&a->restVolume, &b->restVolume, &c->restVolume, &d->restVolume);
    l.maxC = Float4::make(a->unilateral ? 0 : kInf, b->unilateral ? 0 : kInf, c->unilateral ? 0 : kInf,
                          d->unilateral ? 0 : kInf);
    l.kPrime = Float4::gather(&a->kPrime, &b->kPrime, &c->kPrime, &d->kPrime);
    l.alphaTilde = Float4::gather(&a->compliance, &b->compliance, &c->compliance, &d->compliance) * Float4::splat(invH2);
    l.lambda = Float4::gather(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    const Float4 dLambda = projectTetVolumeLanes(l, xpbd);
    (l.lambda + dLambda).scatter(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    // The four tets share no particle, so the scatter order does not matter.
    for (int v = 0; v < 4; ++v) {
      l.x[v].scatter(q[v][0], q[v][1], q[v][2], q[v][3]);
      l.y[v].scatter(q[v][0] + 1, q[v][1] + 1, q[v][2] + 1, q[v][3] + 1);
      l.z[v].scatter(q[v][0] + 2, q[v][1] + 2, q[v][2] + 2, q[v][3] + 2);
    }
  }
  Vec3* P = reinterpret_cast<Vec3*>(xyz);
  for (; n < end; ++n) {
    const TetVolumeConstraint& t = cs[order[n]];
    Vec3* ps[4] = {&P[t.p[0]], &P[t.p[1]], &P[t.p[2]], &P[t.p[3]]};
    const Real ws[4] = {w[t.p[0]], w[t.p[1]], w[t.p[2]], w[t.p[3]]};
    lambda[order[n]] += projectTetVolume(ps, ws, t.restVolume, t.unilateral, xpbd, t.kPrime, t.compliance * invH2,
                                         lambda[order[n]]);
  }
}

}  // namespace pbd
